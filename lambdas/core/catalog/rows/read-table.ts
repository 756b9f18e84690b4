import type { Field } from '../headers/aliases';
import { columnLabel } from '../headers/columns';
import { normaliseHeader } from '../headers/normalise';
import { PROFILES, type Profile } from '../headers/profiles';
import { subHeader } from '../headers/sub-header';
import type { CellValue, Table, TableRow } from '../sources/types';
import { isBlank } from './cells';
import type { DraftSink, RowReader, RowReaderFactory, TableContext } from './types';

/**
 * One table through header mapping and row normalisation: finds the header row (title rows above it are
 * skipped), recognises a platform export by its header signature or reads the table generically for the
 * job type, and sends each data row's draft to `emit`. Blank rows are skipped without a warning.
 */

/** How far down a sheet the header row is looked for (title rows, a logo, a date above it). */
export const HEADER_SEARCH_ROWS = 20;

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

/** The reader of a table whose header row this may be, or null when the row is not a header. */
const readerFor = (
  headers: readonly string[],
  ctx: TableContext,
  generic: RowReaderFactory,
  profiles: readonly Profile[],
): RowReader | null => {
  const normalised = new Set(headers.map(normaliseHeader).filter(Boolean));
  const profile = profiles.find((p) => p.matches(normalised));
  if (profile !== undefined) return profile.open(headers, ctx);
  const reader = generic(headers, ctx);
  if (!reader.provides.has('name')) return null;
  const named = headers.filter((h) => h !== '').length;
  // One recognised column beside unrecognised ones is a data row that happens to contain `Item`.
  if (reader.provides.size < 2 && named > 2) return null;
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
  const dataInBlank = new Set<number>();

  for await (const batch of table.batches) {
    for (const row of batch) {
      if (reader === null) {
        if (searched >= HEADER_SEARCH_ROWS || !hasData(row)) continue;
        searched += 1;
        const candidate = row.cells.map(headerText);
        reader = readerFor(candidate, ctx, generic, profiles);
        if (reader !== null) {
          headers = candidate;
          headerRow = row.row;
          blankHeaders = candidate.flatMap((h, i) => (h === '' ? [i] : []));
          secondRow = true;
        }
        continue;
      }
      if (!hasData(row)) continue;
      if (secondRow) {
        secondRow = false;
        // `Price` merged over `Small | Medium | Large` on the next row: one header on two rows.
        const merged = reader.profile === 'generic' ? subHeader(headers, row.cells.map(headerText)) : null;
        const mergedReader = merged === null ? null : readerFor(merged, ctx, generic, profiles);
        if (merged !== null && mergedReader !== null) {
          reader = mergedReader;
          headers = merged;
          blankHeaders = merged.flatMap((h, i) => (h === '' ? [i] : []));
          continue;
        }
      }
      rows += 1;
      for (const i of blankHeaders) if (!isBlank(row.cells[i])) dataInBlank.add(i);
      for (let i = headers.length; i < row.cells.length; i += 1)
        if (!isBlank(row.cells[i])) dataInBlank.add(i);
      reader.row(row, emit);
    }
  }
  if (reader === null) {
    return {
      sheet: ctx.sheet,
      headerRow: null,
      profile: null,
      columns: {},
      ignored: [],
      rows: 0,
      provides: new Set(),
    };
  }
  reader.end(emit);

  const columns: Record<string, string> = {};
  const ignored: string[] = [];
  const width = Math.max(headers.length, ...[...dataInBlank].map((i) => i + 1));
  for (let i = 0; i < width; i += 1) {
    const field = reader.columns.get(i);
    const named = (headers[i] ?? '') !== '';
    if (field !== undefined) columns[columnLabel(headers, i)] = field;
    else if (named || dataInBlank.has(i)) ignored.push(columnLabel(headers, i));
  }
  return {
    sheet: ctx.sheet,
    headerRow,
    profile: reader.profile,
    columns,
    ignored,
    rows,
    provides: reader.provides,
  };
};
