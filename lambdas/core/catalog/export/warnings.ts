import type { ExportWarning } from '../../model';
import type { ExportWarningCode } from '../../schemas/warning-codes';

/**
 * What an export could not carry, or had to change so that its target accepts the file (SPEC 3.2
 * `warnings`): one entry per code and field, counted, with a message that states the count.
 */
export class ExportWarnings {
  private readonly entries = new Map<
    string,
    { code: ExportWarningCode; field: string | null; count: number; message: (count: number) => string }
  >();

  /**
   * Counts one more item (or variant) for this reason.
   *
   * @example warnings.add('not_carried', 'modifier_groups', (n) => `${n} items have modifiers …`);
   */
  add(code: ExportWarningCode, field: string | null, message: (count: number) => string, by = 1): void {
    const key = `${code}\n${field ?? ''}`;
    const entry = this.entries.get(key);
    if (entry !== undefined) entry.count += by;
    else this.entries.set(key, { code, field, count: by, message });
  }

  list(): ExportWarning[] {
    return [...this.entries.values()].map((e) => ({
      code: e.code,
      field: e.field,
      count: e.count,
      message: e.message(e.count),
    }));
  }
}

/** `1 item`, `2 items`. */
export const counted = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
