import type { DraftVariant } from '../../draft';
import type { RowCells } from '../../rows/row-cells';
import type { RowReader, TableContext } from '../../rows/types';
import { FIELDS, type Field, fieldOf } from '../aliases';
import { type ColumnMap, type HeaderLookup, mapColumns } from '../columns';
import { normaliseHeader } from '../normalise';

/**
 * A platform export (SPEC 5.2) recognised by its header signature and read with its own rules: which
 * column is which, and how its rows group into products and variants. One file per platform.
 */
export interface Profile {
  /** `shopify`, `square`, `woocommerce`: `results.sources[].profile`. */
  readonly name: string;
  /** True when the (normalised) headers are this platform's export. */
  matches(normalised: ReadonlySet<string>): boolean;
  open(headers: readonly string[], ctx: TableContext): RowReader;
}

/**
 * Maps a platform's headers: its own names first (`table`: role → normalised header names, in order of
 * preference), then the generic aliases for columns the platform does not define (a merchant's extra
 * `Calories` column), ranked after the platform's own.
 */
export const profileColumns = <R extends string>(
  headers: readonly string[],
  table: Readonly<Record<R, readonly string[]>>,
  options: { readonly skip?: (normalised: string, header: string) => boolean } = {},
): ColumnMap<R | Field> => {
  const own = new Map<string, readonly [R, number]>();
  for (const role of Object.keys(table) as R[]) {
    table[role].forEach((name, rank) => {
      const key = normaliseHeader(name);
      if (!own.has(key)) own.set(key, [role, rank]);
    });
  }
  const lookup: HeaderLookup<R | Field> = (normalised, header) => {
    if (options.skip?.(normalised, header)) return undefined;
    const found = own.get(normalised);
    if (found !== undefined) return found;
    const generic = fieldOf(normalised);
    return generic === undefined ? undefined : [generic[0], 100 + generic[1]];
  };
  return mapColumns(headers, lookup);
};

/** The columns of a map as `results.sources[].columns` wants them: index → field. */
export const columnFields = (map: ColumnMap<string>): Map<number, string> => {
  const columns = new Map<number, string>();
  for (const [field, indices] of map.fields) for (const i of indices) columns.set(i, field);
  return columns;
};

/** The catalog fields a table has columns for. */
export const providedFields = (map: ColumnMap<string>): Set<Field> => {
  const fields = new Set<Field>();
  for (const key of map.fields.keys())
    if ((FIELDS as readonly string[]).includes(key)) fields.add(key as Field);
  return fields;
};

/** A variant's name from its option values (`Red / Large`), or null without options. */
export const optionsName = (options: Readonly<Record<string, string>>): string | null => {
  const values = Object.values(options);
  return values.length === 0 ? null : values.join(' / ');
};

/** Option names in the order the variants first use them. */
export const optionNamesOf = (variants: readonly DraftVariant[]): string[] => {
  const names: string[] = [];
  for (const variant of variants) {
    for (const name of Object.keys(variant.options ?? {})) if (!names.includes(name)) names.push(name);
  }
  return names;
};

/** The column a missing-name warning names: the name column's header, else the platform's name for it. */
export const nameColumnLabel = (cells: RowCells, nameColumns: readonly number[], fallback: string): string =>
  nameColumns[0] === undefined ? fallback : cells.label(nameColumns[0]);

/**
 * Every profile's one rule for a row or product without a name (SPEC 5.2: an item needs one): true, with a
 * `missing_name` warning at that row and column saying what was skipped, when `name` (the name, or the
 * draft that could not be named) is null.
 *
 * @example if (skippedNameless(name, ctx, row.row, label, 'the row has no Item Name; skipped')) return;
 */
export const skippedNameless = <T>(
  name: T | null,
  ctx: TableContext,
  row: number | null,
  column: string,
  message: string,
): name is null => {
  if (name !== null) return false;
  ctx.warn(row, column, 'missing_name', message);
  return true;
};
