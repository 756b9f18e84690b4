import { strFromU8, unzipSync } from 'fflate';
import { CatalogSourceError } from '../errors';

/**
 * A sheet is read as a grid from A1 to its last cell with a value, every cell in between held: one stray
 * value at XFD1048576 (Excel's last cell) makes a 6 KB workbook a grid of 17 billion cells. A workbook whose
 * sheets' grids together would pass this many cells fails its source (`source_too_large`) before they are
 * read; real catalogs are far below it (100,000 rows of 20 columns are 2 million cells).
 */
export const MAX_SHEET_CELLS = 25_000_000;

/** Excel's widest row: a row of a source (CSV line, SpreadsheetML or HTML table row) is never read wider. */
export const MAX_SHEET_COLUMNS = 16_384;

const columnNumber = (letters: string): number => {
  let n = 0;
  for (const letter of letters) n = n * 26 + (letter.charCodeAt(0) - 64);
  return n;
};

const columnLetters = (n: number): string => {
  let letters = '';
  for (let left = n; left > 0; left = Math.floor((left - 1) / 26))
    letters = String.fromCharCode(65 + ((left - 1) % 26)) + letters;
  return letters;
};

/**
 * The cells a workbook's sheets may take when read whole, together (one sheet at the limit, or twenty
 * sheets each with a stray value far away, cost the same memory).
 */
export class GridBudget {
  private used = 0;

  constructor(private readonly limit: number = MAX_SHEET_CELLS) {}

  /** Counts a sheet's grid (rows × columns up to its last value); throws when the workbook's pass the limit. */
  take(sheet: string, rows: number, columns: number): void {
    const cells = rows * columns;
    this.used += cells;
    if (this.used <= this.limit) return;
    const where = `${JSON.stringify(sheet)} reaches cell ${columnLetters(columns)}${rows}`;
    throw new CatalogSourceError(
      cells > this.limit
        ? `the sheet ${where}: read whole that is ${cells.toLocaleString('en-US')} cells, more than the ` +
            `${this.limit.toLocaleString('en-US')} a sheet may have. ${ADVICE}`
        : `the workbook's sheets read whole come to ${this.used.toLocaleString('en-US')} cells (the sheet ${where}), ` +
            `more than the ${this.limit.toLocaleString('en-US')} a workbook may have. ${ADVICE}`,
      'source_too_large',
    );
  }
}

const ADVICE = 'Delete the stray cells far below or to the right of the catalog, or save the sheet as CSV';

/** A cell that holds something (`<c r="B2" t="s"><v>…`), not an empty styled one (`<c r="B2" s="1"/>`). */
const VALUE_CELL = /<c\s[^>]*?\br="([A-Z]{1,3})(\d{1,7})"[^>]*?(\/?)>/g;

/**
 * XLSX: each worksheet's last cell with a value, found in its XML before any reader builds the grid.
 * `names`: the worksheet parts' names as the workbook calls them (xl/worksheets/sheet1.xml → "Menu").
 */
export const checkXlsxGrids = (
  bytes: Uint8Array,
  names: ReadonlyMap<string, string>,
  limit = MAX_SHEET_CELLS,
) => {
  let parts: Record<string, Uint8Array>;
  try {
    parts = unzipSync(bytes, { filter: (file) => /^xl\/worksheets\/[^/]+\.xml$/.test(file.name) });
  } catch {
    return; // not a readable archive: the reader says so
  }
  const budget = new GridBudget(limit);
  for (const [part, content] of Object.entries(parts)) {
    const xml = strFromU8(content);
    let rows = 0;
    let columns = 0;
    for (const match of xml.matchAll(VALUE_CELL)) {
      if (match[3] === '/') continue;
      rows = Math.max(rows, Number(match[2]));
      columns = Math.max(columns, columnNumber(match[1] as string));
    }
    budget.take(names.get(part) ?? part, rows, columns);
  }
};

/** An ODS table's rows and cells as content.xml writes them, with their repeat counts. */
const ODS_PARTS =
  /<table:table-row\b([^>]*?)(\/?)>|<\/table:table-row>|<table:table-cell\b([^>]*?)(\/?)>|<table:table\b[^>]*?\btable:name="([^"]*)"/g;

const repeat = (attributes: string, name: string): number => {
  const count = Number(new RegExp(`\\btable:${name}="(\\d+)"`).exec(attributes)?.[1] ?? 1);
  return Number.isFinite(count) && count > 0 ? count : 1;
};

/**
 * ODS: a row or cell may stand for many (`table:number-rows-repeated`, `table:number-columns-repeated`),
 * so a 700-byte file can ask a reader for a billion cells holding a value. The cells with a value each
 * repeated row and cell stand for are counted in content.xml before the reader materialises them; empty
 * repeated cells (how LibreOffice pads every sheet) do not count.
 */
export const checkOdsCells = (bytes: Uint8Array, limit = MAX_SHEET_CELLS): void => {
  let content: Uint8Array | undefined;
  try {
    content = unzipSync(bytes, { filter: (file) => file.name === 'content.xml' })['content.xml'];
  } catch {
    return; // not a readable archive: the reader says so
  }
  if (content === undefined) return;
  let sheet = 'the spreadsheet';
  let total = 0;
  let rowRepeat = 1;
  let rowCells = 0;
  for (const match of strFromU8(content).matchAll(ODS_PARTS)) {
    if (match[5] !== undefined) sheet = match[5];
    else if (match[1] !== undefined) {
      rowRepeat = repeat(match[1], 'number-rows-repeated');
      rowCells = 0;
      if (match[2] === '/') rowRepeat = 1;
    } else if (match[3] !== undefined) {
      // A cell with a value type, or with content (not self-closing), is materialised.
      if (/\boffice:value-type=/.test(match[3]) || match[4] !== '/')
        rowCells += repeat(match[3], 'number-columns-repeated');
    } else {
      total += rowRepeat * rowCells;
      if (total > limit) {
        throw new CatalogSourceError(
          `the OpenDocument spreadsheet repeats its cells to more than ${limit.toLocaleString('en-US')} cells ` +
            `with a value (in ${JSON.stringify(sheet)}), more than a sheet may have: save it as CSV or XLSX`,
          'source_too_large',
        );
      }
      rowRepeat = 1;
      rowCells = 0;
    }
  }
};
