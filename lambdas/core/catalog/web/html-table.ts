import { type Document, type Element, isTag } from 'domhandler';
import { fieldOf } from '../headers/aliases';
import { normaliseHeader } from '../headers/normalise';
import { MAX_SHEET_COLUMNS as MAX_COLUMNS } from '../sources/sheet-bounds';
import type { TableRow } from '../sources/types';
import { attr, findAll, textOf } from './html';

/**
 * HTML tables that are spreadsheets: what "Export to Excel" writes in many back offices (an HTML `<table>`
 * saved as `.xls`, labelled `application/vnd.ms-excel`), and pages that are little more than a product
 * or price table. Such a table is read as rows of cells by the table pipeline (headers/, rows/) rather than
 * drafted for a person: a table counts when a header row near its top names a product or dish and its
 * price, SKU or barcode; and either the source says it is a spreadsheet export, or the table holds most of
 * the page's text (a menu page with a small price table stays a web page).
 */

/** A cell spanning more columns than this is a layout table, not a sheet. */
const MAX_COLSPAN = 64;
/** How far down a table its header row may be (title rows above it). */
const HEADER_SEARCH_ROWS = 10;
/** Share of the page's text a table must hold to be read as the page's data without an export label. */
const DOMINANT_SHARE = 0.6;

const cellsOf = (row: Element): (string | null)[] => {
  const cells: (string | null)[] = [];
  for (const cell of row.children) {
    if (cells.length >= MAX_COLUMNS) break;
    if (!isTag(cell) || (cell.name !== 'td' && cell.name !== 'th')) continue;
    const text = textOf(cell);
    cells.push(text === '' ? null : text);
    const span = Math.min(Number.parseInt(attr(cell, 'colspan') ?? '1', 10) || 1, MAX_COLSPAN);
    for (let i = 1; i < span && cells.length < MAX_COLUMNS; i += 1) cells.push(null);
  }
  return cells;
};

/** The fields a row's cells name as headers. */
const fieldsOf = (cells: readonly (string | null)[]): Set<string> =>
  new Set(
    cells.flatMap((cell) => {
      const field = cell === null ? undefined : fieldOf(normaliseHeader(cell));
      return field === undefined ? [] : [field[0]];
    }),
  );

const isHeader = (cells: readonly (string | null)[]): boolean => {
  const fields = fieldsOf(cells);
  return fields.has('name') && (fields.has('price') || fields.has('sku') || fields.has('gtin'));
};

/** Tables with no table inside them, each as its rows (row 1 is its first `<tr>`). */
const leafTables = (document: Document): Element[] =>
  findAll(document, (e) => e.name === 'table').filter(
    (table) => findAll(table, (e) => e.name === 'table').length === 0,
  );

/**
 * The page's spreadsheet tables as table rows, or null when the page is not one (it is then read as a web
 * page). `exported`: the source says it is a spreadsheet export (its name or content type).
 */
export const spreadsheetTables = (document: Document, exported: boolean): TableRow[][] | null => {
  const sheets: { rows: TableRow[]; text: number }[] = [];
  for (const table of leafTables(document)) {
    const rows = findAll(table, (e) => e.name === 'tr').map((tr, i) => ({ row: i + 1, cells: cellsOf(tr) }));
    const header = rows.slice(0, HEADER_SEARCH_ROWS).findIndex((r) => isHeader(r.cells));
    if (header < 0 || rows.length <= header + 1) continue;
    sheets.push({ rows, text: textOf(table).length });
  }
  if (sheets.length === 0) return null;
  if (!exported) {
    const page = textOf(document.children.find((n) => isTag(n) && n.name === 'html') ?? document).length;
    const tables = sheets.reduce((sum, s) => sum + s.text, 0);
    if (tables < DOMINANT_SHARE * page) return null;
  }
  return sheets.map((s) => s.rows);
};

/** `.xls` names and Excel's media type, or Excel's namespace in the page: an HTML spreadsheet export. */
export const isSpreadsheetExport = (name: string | null, contentType: string | null, html: string): boolean =>
  /\.xlsx?(?:$|[?#])/i.test(name ?? '') ||
  /^application\/(?:vnd\.ms-excel|msexcel|x-msexcel|x-excel)\b/i.test(contentType ?? '') ||
  /urn:schemas-microsoft-com:office:excel/i.test(html.slice(0, 4096));
