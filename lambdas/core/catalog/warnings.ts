import type { WarningCode } from '../schemas/warning-codes';

/**
 * Warnings (SPEC 5.2 "nothing is lost silently"): every value the pipeline cannot use, every row it skips
 * and every source it cannot read fully is reported with where it was and why (codes: schemas/warning-codes.ts).
 */

export interface CatalogWarning {
  /** The catalog source as the job names it (URL or file id), or `client_mappings`. */
  readonly source: string;
  /** 1-based row: the sheet's row number (header included) in CSV/XLSX, the position in a JSON array. */
  readonly row: number | null;
  /** The column as the source names it (its header), or the field. */
  readonly column: string | null;
  /** Workbooks: the sheet the row is on. */
  readonly sheet?: string;
  /** PDFs and photos: the 1-based page the warning is about. */
  readonly page?: number;
  readonly code: WarningCode;
  readonly message: string;
}

/** A warning about the source being read: the source is filled in by whoever collects it. */
export type WarningInput = Omit<CatalogWarning, 'source'> & { readonly source?: string };

/** How many warnings `results.warnings` keeps in full (all are counted). */
export const KEPT_WARNINGS = 100;

/** Collects warnings: all counted, the first `kept` kept. */
export class WarningLog {
  private readonly list: CatalogWarning[] = [];
  private total = 0;

  constructor(private readonly kept: number = KEPT_WARNINGS) {}

  add(warning: CatalogWarning): void {
    this.total += 1;
    if (this.list.length < this.kept) this.list.push(warning);
  }

  get count(): number {
    return this.total;
  }

  /** The first `kept` warnings, in the order they were added. */
  get warnings(): readonly CatalogWarning[] {
    return this.list;
  }
}

/**
 * Where a warning is, in words, for a person: `sheet Items, row 7, column UPC`, `page 2`; empty for a whole
 * source. The command-line client and the operations console both say it so.
 */
export const warningPlace = (
  w: {
    readonly row?: number | null;
    readonly column?: string | null;
    readonly sheet?: string;
    readonly page?: number;
  },
  separator = ', ',
): string =>
  [
    w.sheet ? `sheet ${w.sheet}` : '',
    w.page ? `page ${w.page}` : '',
    w.row ? `row ${w.row}` : '',
    w.column ? `column ${w.column}` : '',
  ]
    .filter(Boolean)
    .join(separator);
