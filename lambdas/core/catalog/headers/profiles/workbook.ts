import type { WarningCode } from '../../../schemas/warning-codes';
import { cellText } from '../../rows/cells';
import type { TableRow, Workbook, WorkbookSheet } from '../../sources/types';
import { columnLabel } from '../columns';
import { normaliseHeader } from '../normalise';
import type { Profile } from './profile';

/**
 * A platform whose export is a workbook that spreads one catalog over several sheets (Clover: items on one
 * sheet, the categories they are in and their modifier groups on others). Such a profile sees every sheet
 * before any is read: it reads the sheets that describe the others itself (its *companion* sheets) and
 * returns the sheet profiles, bound to what those said, that the pipeline then uses to read the item sheets
 * row by row like any other table.
 */
export interface WorkbookProfile {
  readonly name: string;
  /** How to read the workbook, or null when it is not this platform's export. */
  open(workbook: Workbook, ctx: WorkbookContext): WorkbookReading | null;
}

export interface WorkbookContext {
  readonly source: string;
  /** The job's default currency. */
  readonly currency: string;
  warn(sheet: string, row: number | null, column: string | null, code: WarningCode, message: string): void;
}

export interface WorkbookReading {
  /** Tried before the platform profiles on this workbook's other sheets. */
  readonly profiles: readonly Profile[];
  /** Sheets the workbook profile read (or skipped) itself, by name: they give no items of their own. */
  readonly sheets: ReadonlyMap<string, CompanionSheet>;
}

/** How a companion sheet was read, for `results.sources[].sheets`. */
export interface CompanionSheet {
  /** 1-based; null: the sheet was skipped (not part of the catalog, such as tax rates). */
  readonly headerRow: number | null;
  /** Column (header as written) → what it was read as. */
  readonly columns: Readonly<Record<string, string>>;
  readonly ignored: readonly string[];
  /** Data rows read (blank rows not counted). */
  readonly rows: number;
}

export const SKIPPED_SHEET: CompanionSheet = { headerRow: null, columns: {}, ignored: [], rows: 0 };

/** How far down a companion sheet its header row is looked for (as for any table: rows/read-table.ts). */
const HEADER_SEARCH_ROWS = 20;

/** A cell as header text (numbers as written; other values empty). */
export const headerCell = (value: TableRow['cells'][number] | undefined): string => {
  const read = cellText(value ?? null);
  return read.ok ? (read.value ?? '') : '';
};

export interface FoundHeader {
  readonly row: number;
  /** The header row as written. */
  readonly headers: readonly string[];
  /** The same, normalised (headers/normalise.ts). */
  readonly normalised: readonly string[];
}

/**
 * The first row among a sheet's first non-blank rows that `accept` takes for its header row (given the
 * normalised headers), or null.
 */
export const findHeader = (
  sheet: WorkbookSheet,
  accept: (normalised: readonly string[]) => boolean,
): FoundHeader | null => {
  let searched = 0;
  for (const row of sheet.rows()) {
    const headers = row.cells.map(headerCell);
    if (headers.every((h) => h === '')) continue;
    const normalised = headers.map(normaliseHeader);
    if (accept(normalised)) return { row: row.row, headers, normalised };
    searched += 1;
    if (searched >= HEADER_SEARCH_ROWS) return null;
  }
  return null;
};

/** The summary of a companion sheet whose header is `found` and whose columns `used` maps (index → field). */
export const companionSummary = (
  found: FoundHeader,
  used: ReadonlyMap<number, string>,
  rows: number,
): CompanionSheet => {
  const columns: Record<string, string> = {};
  const ignored: string[] = [];
  found.headers.forEach((header, index) => {
    const field = used.get(index);
    if (field !== undefined) columns[columnLabel(found.headers, index)] = field;
    else if (header.trim() !== '') ignored.push(columnLabel(found.headers, index));
  });
  return { headerRow: found.row, columns, ignored, rows };
};

/** The index of the first header among `names` (normalised), or -1. */
export const indexOfHeader = (normalised: readonly string[], names: readonly string[]): number => {
  for (const name of names) {
    const index = normalised.indexOf(name);
    if (index >= 0) return index;
  }
  return -1;
};
