import type { WarningCode } from '../../schemas/warning-codes';
import type { Draft } from '../draft';
import type { Field } from '../headers/aliases';
import type { TableRow } from '../sources/types';

/** Where drafts go: assembly, one at a time (no buffering between the reader and the catalog). */
export type DraftSink = (draft: Draft) => void;

/** What a row normaliser knows about the table it reads. */
export interface TableContext {
  readonly source: string;
  /** The sheet's name in a workbook, else null. */
  readonly sheet: string | null;
  /** The job's default currency. */
  readonly currency: string;
  /** The job's language (`fr_fr`): of several name columns per language (`name_en`, `name_fr`) its own is read first. */
  readonly language?: string;
  /** The category of rows that name none: the sheet's name when it means something, else none. */
  readonly defaultCategory: readonly string[];
  warn(row: number | null, column: string | null, code: WarningCode, message: string): void;
}

/**
 * Reads the data rows of one table whose header row has been found. Built per table by a profile
 * (headers/profiles) or by the job type's generic row normaliser.
 */
export interface RowReader {
  /** `generic`, `shopify`, `square`, `woocommerce`. */
  readonly profile: string;
  /** Column index → the field it was read as (for `results.sources[].columns`). */
  readonly columns: ReadonlyMap<number, string>;
  /** The catalog fields this table has a column for (to warn when one every catalog needs is missing). */
  readonly provides: ReadonlySet<Field>;
  row(row: TableRow, emit: DraftSink): void;
  /** After the last row: drafts held back to group rows (platform variants). */
  end(emit: DraftSink): void;
}

/**
 * Builds the generic reader of a table. `inferred`: columns told from their values (headers/infer-columns.ts)
 * where no header names them, read as those fields.
 */
/**
 * Warns once, at a table's first data row, that its columns in other languages are read only as fallbacks
 * (a reader is built for every candidate header row, so the warning waits for rows that are read).
 */
export const otherLanguagesNote = (
  headers: readonly string[],
  columns: readonly number[],
  ctx: TableContext,
): (() => void) => {
  let told = columns.length === 0;
  return () => {
    if (told) return;
    told = true;
    const names = columns.map((i) => JSON.stringify(headers[i] ?? '')).join(', ');
    ctx.warn(
      null,
      headers[columns[0] as number] ?? null,
      'other_languages',
      `${names} ${columns.length === 1 ? 'is' : 'are'} in another language than the job's: read only where the job language's column is empty (the catalog keeps no translations)`,
    );
  };
};

export type RowReaderFactory = (
  headers: readonly string[],
  ctx: TableContext,
  inferred?: ReadonlyMap<number, Field>,
) => RowReader;
