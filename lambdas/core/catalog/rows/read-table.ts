import type { Field } from '../headers/aliases';
import { columnLabel } from '../headers/columns';
import { describeInferred, inferColumns, inferPriceColumn } from '../headers/infer-columns';
import { normaliseHeader } from '../headers/normalise';
import { PROFILES, type Profile } from '../headers/profiles';
import { isHintRow, isLabelRow, isProseRow } from '../headers/row-shape';
import { subHeader } from '../headers/sub-header';
import type { CellValue, Table, TableRow } from '../sources/types';
import { isBlank } from './cells';
import type { DraftSink, RowReader, RowReaderFactory, TableContext } from './types';

/**
 * One table through header mapping and row normalisation: finds the header row (title, blank and hint rows
 * above it are skipped, a hints row right under it is reported and skipped: headers/row-shape.ts), recognises a platform export by its header signature or reads the table generically for the
 * job type, and sends each data row's draft to `emit`. Blank rows are skipped without a warning.
 */

/** How far down a sheet the header row is looked for (title rows, a logo, a date above it). */
export const HEADER_SEARCH_ROWS = 20;

/** How many rows under a candidate header are looked at to see whether they hold values. */
const LOOK_BELOW = 3;

export interface TableOutcome {
  readonly sheet: string | null;
  /** 1-based row of the header; null when none was found (the table was not read). */
  readonly headerRow: number | null;
  readonly profile: string | null;
  /** Column (header as written) → field. */
  readonly columns: Readonly<Record<string, string>>;
  /** Columns no field uses, as written (a blank header that has data is `(column N)`). */
  readonly ignored: readonly string[];
  /** Data rows read (blank rows not counted). */
  readonly rows: number;
  readonly provides: ReadonlySet<Field>;
  /**
   * What was told from the values rather than named by a header (`(column 2) as name, …`), or null: a
   * guess a person must confirm (the job goes to review). A table read without a header row has
   * `headerRow` null and this set.
   */
  readonly inferred: string | null;
  /** When the table was not read: what is missing, in a person's words. */
  readonly missing: string | null;
}

const headerText = (cell: CellValue | undefined): string =>
  typeof cell === 'string'
    ? cell.trim()
    : cell === null || cell === undefined || typeof cell === 'object'
      ? ''
      : String(cell);

const hasData = (row: TableRow): boolean => {
  for (const cell of row.cells) if (!isBlank(cell)) return true;
  return false;
};

/**
 * The reader of a table whose header row this may be, or null when the row is not a header: a row of
 * prose (a title sentence, hints describing the columns) never is; a row a platform profile recognises
 * is; otherwise it needs a name column and either another known column or the shape of a header (labels
 * over rows of values), since one known column beside unknown ones may be a data row containing `Item`.
 */
const readerFor = (
  row: TableRow,
  below: readonly TableRow[],
  ctx: TableContext,
  generic: RowReaderFactory,
  profiles: readonly Profile[],
): RowReader | null => {
  if (isProseRow(row.cells)) return null;
  return readerOfHeaders(row.cells.map(headerText), ctx, generic, profiles, () =>
    isLabelRow(
      row.cells,
      below.map((r) => r.cells),
    ),
  );
};

const readerOfHeaders = (
  headers: readonly string[],
  ctx: TableContext,
  generic: RowReaderFactory,
  profiles: readonly Profile[],
  labelled: () => boolean,
): RowReader | null => {
  const normalised = new Set(headers.map(normaliseHeader).filter(Boolean));
  const profile = profiles.find((p) => p.matches(normalised));
  if (profile !== undefined) return profile.open(headers, ctx);
  const reader = generic(headers, ctx);
  if (!reader.provides.has('name')) return null;
  const named = headers.filter((h) => h !== '').length;
  if (reader.provides.size < 2 && named > 2 && !labelled()) return null;
  return reader;
};

/**
 * Reads a table. Returns how it was read; `headerRow` null means no header row was recognised in the
 * first rows (nothing was emitted; the caller reports it). `profiles` are the platform exports its header
 * is compared with (a workbook profile puts its own, bound to its other sheets, first).
 */
export const readTable = async (
  table: Table,
  ctx: TableContext,
  generic: RowReaderFactory,
  emit: DraftSink,
  profiles: readonly Profile[] = PROFILES,
): Promise<TableOutcome> => {
  let reader: RowReader | null = null;
  let headers: readonly string[] = [];
  let headerRow: number | null = null;
  let searched = 0;
  let rows = 0;
  let blankHeaders: number[] = [];
  let secondRow = false;
  /** Until the first product row: rows describing the columns are skipped, with a warning. */
  let hints = false;
  const dataInBlank = new Set<number>();
  /** Rows with data while the header is looked for: a candidate and the rows under it. */
  const waiting: TableRow[] = [];
  /** Every row with data while no header is found: the values columns are inferred from. */
  const seen: TableRow[] = [];
  let inferenceTried = false;
  let inferred: string | null = null;
  /** A row that names known columns but none holding the products' names (for the error). */
  let nameless: { row: number; fields: string[] } | null = null;

  const label = (index: number): string => columnLabel(headers, index);
  const warnInferred = (fields: ReadonlyMap<number, Field>, why: string): void => {
    inferred = describeInferred(fields, label);
    ctx.warn(
      null,
      null,
      'columns_inferred',
      `${why}; the columns were told from their values: ${inferred}. Check them: the job goes to review`,
    );
  };

  const read = (row: TableRow, current: RowReader): void => {
    if (secondRow) {
      secondRow = false;
      // `Price` merged over `Small | Medium | Large` on the next row: one header on two rows.
      const merged = current.profile === 'generic' ? subHeader(headers, row.cells.map(headerText)) : null;
      const mergedReader =
        merged === null ? null : readerOfHeaders(merged, ctx, generic, profiles, () => false);
      if (merged !== null && mergedReader !== null) {
        reader = mergedReader;
        headers = merged;
        blankHeaders = merged.flatMap((h, i) => (h === '' ? [i] : []));
        return;
      }
    }
    if (hints && isHintRow(row.cells, headers)) {
      ctx.warn(
        row.row,
        null,
        'not_an_item',
        `row ${row.row} describes the columns (a template's hints or notes under the header), not a product: skipped`,
      );
      return;
    }
    hints = false;
    rows += 1;
    for (const i of blankHeaders) if (!isBlank(row.cells[i])) dataInBlank.add(i);
    for (let i = headers.length; i < row.cells.length; i += 1) if (!isBlank(row.cells[i])) dataInBlank.add(i);
    (reader ?? current).row(row, emit);
  };

  /** Tries the first waiting row as the header; once found, the rows under it are read. */
  const search = (): void => {
    const candidate = waiting.shift();
    if (candidate === undefined) return;
    searched += 1;
    let found = readerFor(candidate, waiting, ctx, generic, profiles);
    if (found === null) {
      if (nameless === null && !isProseRow(candidate.cells)) {
        const known = [...generic(candidate.cells.map(headerText), ctx).provides];
        if (known.length >= 2) nameless = { row: candidate.row, fields: known };
      }
      return;
    }
    headers = candidate.cells.map(headerText);
    if (found.profile === 'generic' && !found.provides.has('price')) {
      // A name column but no price column any alias names: a column of amounts under a header of the
      // shop's own words is the price, by its values.
      const free = headers.flatMap((_, i) => (found?.columns.has(i) ? [] : [i]));
      const price = inferPriceColumn(
        waiting.map((r) => r.cells),
        free,
        { wholeNumbers: false },
      );
      if (price !== undefined) {
        const fields = new Map<number, Field>([[price, 'price']]);
        found = generic(headers, ctx, fields);
        warnInferred(fields, 'no column is named as the price');
      }
    }
    reader = found;
    seen.length = 0;
    headerRow = candidate.row;
    blankHeaders = headers.flatMap((h, i) => (h === '' ? [i] : []));
    secondRow = true;
    hints = true;
    for (const row of waiting.splice(0)) read(row, found);
  };

  /**
   * No header row among the first rows: the columns are told from the rows' values (a sheet typed without
   * a header), and the rows seen so far are read by them.
   */
  const infer = (): void => {
    inferenceTried = true;
    const guess = inferColumns(seen.map((r) => r.cells));
    if (guess === null) return;
    const width = Math.max(...seen.map((r) => r.cells.length));
    headers = Array.from({ length: width }, () => '');
    const found = generic(headers, ctx, guess.fields);
    if (!found.provides.has('name')) return;
    reader = found;
    blankHeaders = headers.map((_, i) => i);
    warnInferred(guess.fields, 'no header row names the columns');
    for (const row of seen.splice(0)) read(row, found);
    waiting.length = 0;
  };

  for await (const batch of table.batches) {
    for (const row of batch) {
      if (!hasData(row)) continue;
      if (reader !== null) {
        read(row, reader);
        continue;
      }
      if (inferenceTried) continue;
      seen.push(row);
      if (searched < HEADER_SEARCH_ROWS) {
        waiting.push(row);
        if (waiting.length > LOOK_BELOW) search();
      }
      if (reader === null && searched >= HEADER_SEARCH_ROWS) infer();
    }
  }
  while (reader === null && waiting.length > 0 && searched < HEADER_SEARCH_ROWS) search();
  if (reader === null && !inferenceTried) infer();
  // Assigned by the closures above: TypeScript does not follow it there.
  const found = reader as RowReader | null;
  if (found === null) {
    // Assigned by the closures above, as `reader` is.
    const named = nameless as { row: number; fields: string[] } | null;
    const missing =
      seen.length === 0 && searched === 0
        ? 'the table has no rows with data'
        : named !== null
          ? `row ${named.row} names columns (${named.fields.join(', ')}) but none holds the products' names; ` +
            'call that column name, title or product'
          : 'no header row with a name column (name, title, product …) was found in the first rows, and no column ' +
            'of names beside prices or barcodes could be told from the values';
    return {
      missing,
      sheet: ctx.sheet,
      headerRow: null,
      profile: null,
      columns: {},
      ignored: [],
      rows: 0,
      provides: new Set(),
      inferred: null,
    };
  }
  found.end(emit);

  const columns: Record<string, string> = {};
  const ignored: string[] = [];
  const width = Math.max(headers.length, ...[...dataInBlank].map((i) => i + 1));
  for (let i = 0; i < width; i += 1) {
    const field = found.columns.get(i);
    const named = (headers[i] ?? '') !== '';
    if (field !== undefined) columns[columnLabel(headers, i)] = field;
    else if (named || dataInBlank.has(i)) ignored.push(columnLabel(headers, i));
  }
  return {
    sheet: ctx.sheet,
    headerRow,
    profile: found.profile,
    columns,
    ignored,
    rows,
    provides: found.provides,
    inferred,
    missing: null,
  };
};
