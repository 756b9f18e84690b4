import * as XLSX from '@e965/xlsx';
import { readAll } from '../bytes';
import { CatalogSourceError } from '../errors';
import { checkOdsCells, GridBudget } from './sheet-bounds';
import { ascii, containsAscii, isOle, isZip, startsWith } from './signatures';
import type { OpenedSource, ReadContext, ReaderOutput, SourceReader } from './types';
import { type SheetData, workbookTables } from './xlsx';
import { checkZipExpansion } from './zip';

/**
 * Workbooks in the formats before and beside XLSX, read with SheetJS (the @e965/xlsx build of 0.20.3):
 * - legacy Excel `.xls` (BIFF8, and BIFF5/BIFF2 from older systems), which back offices and ERPs still
 *   export — recognised by the OLE2 signature; an OLE file that holds no workbook (a Word document) or a
 *   password-protected one fails with a message saying so;
 * - OpenDocument spreadsheets `.ods` (LibreOffice, OpenOffice, Google Sheets' download), recognised by the
 *   ZIP archive's `mimetype` entry;
 * - Apple Numbers documents `.numbers` saved as one file (a ZIP of `Index/*.iwa` streams), as Mac
 *   merchants keep their lists; a Numbers package folder zipped by the Finder is read the same way.
 * Sheets become tables as XLSX sheets do (xlsx.ts: hidden sheets skipped with a warning); numbers stay
 * numbers, dates become ISO 8601 text, row numbers are the sheet's own.
 */

const ODS_MIMETYPE = 'application/vnd.oasis.opendocument.spreadsheet';

/**
 * An ODS archive should store `mimetype` first and uncompressed (its content at byte 38); writers that do
 * not (SheetJS puts the manifest first) still name the media type in plain bytes near the start, in the
 * stored `mimetype` or `META-INF/manifest.xml`. An XLSX names neither.
 */
export const isOds = (head: Uint8Array): boolean => {
  if (!isZip(head)) return false;
  if (startsWith(head, ascii('mimetype'), 30) && startsWith(head, ascii(ODS_MIMETYPE), 38)) return true;
  return containsAscii(head, ODS_MIMETYPE) && !containsAscii(head, '[Content_Types].xml');
};

/** The last row and column (0-based) holding a value, from SheetJS's dense rows (holes skipped); -1 if none. */
const dataExtent = (sheet: XLSX.WorkSheet): { row: number; column: number } => {
  let row = -1;
  let column = -1;
  const data = (sheet['!data'] ?? []) as (XLSX.CellObject[] | undefined)[];
  data.forEach((cells, r) => {
    cells?.forEach((cell, c) => {
      if (cell === undefined || cell.v === undefined || cell.v === null || cell.v === '') return;
      row = Math.max(row, r);
      column = Math.max(column, c);
    });
  });
  return { row, column };
};

/**
 * SheetJS's sheets as rows from row 1 (blank rows above the used range kept, so numbers stay Excel's), each
 * read only up to its last value and refused when that grid is too large (sheet-bounds.ts).
 */
const sheetsOf = (book: XLSX.WorkBook): { sheets: SheetData[]; hidden: Set<string> } => {
  const hidden = new Set<string>();
  const budget = new GridBudget();
  const sheets = book.SheetNames.map((name, index) => {
    if ((book.Workbook?.Sheets?.[index]?.Hidden ?? 0) !== 0) hidden.add(name);
    const sheet = book.Sheets[name];
    if (sheet === undefined || sheet['!ref'] === undefined) return { sheet: name, data: [] };
    const start = XLSX.utils.decode_range(sheet['!ref']).s;
    const end = dataExtent(sheet);
    if (end.row < start.r || end.column < start.c) return { sheet: name, data: [] };
    budget.take(name, end.row + 1, end.column + 1);
    const data = XLSX.utils.sheet_to_json<unknown[]>(sheet, {
      header: 1,
      raw: true,
      defval: null,
      blankrows: true,
      range: { s: start, e: { r: end.row, c: end.column } },
    });
    // Columns left of the used range are empty cells, so that a header's position is its column.
    const shifted = start.c > 0 ? data.map((row) => [...new Array(start.c).fill(null), ...row]) : data;
    return { sheet: name, data: [...new Array(start.r).fill([]), ...shifted] };
  });
  return { sheets, hidden };
};

const describeFailure = (error: unknown, kind: string): string => {
  const message = error instanceof Error ? error.message : String(error);
  if (/password|encrypt/i.test(message))
    return `the ${kind} is password-protected: save it without a password (or as CSV)`;
  if (
    /workbook|unsupported|corrupt|CFB|Header Signature/i.test(message) &&
    kind === 'legacy Excel (.xls) file'
  )
    return 'the source is an Office file without a workbook in it (a Word or PowerPoint document?): send the catalog as CSV or XLSX';
  return `the ${kind} cannot be read: ${message}`;
};

const readBook = async (source: OpenedSource, kind: string): Promise<XLSX.WorkBook> => {
  const bytes = await readAll(source.bytes);
  if (isZip(bytes)) checkZipExpansion(bytes);
  if (isOds(bytes)) checkOdsCells(bytes);
  try {
    return XLSX.read(bytes, {
      type: 'buffer',
      // Rows as arrays, not an object keyed by cell address: a third less memory for a full sheet.
      dense: true,
      cellDates: true,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
    });
  } catch (error) {
    throw new CatalogSourceError(describeFailure(error, kind), 'source_unreadable', { cause: error });
  }
};

const readWorkbook = async (source: OpenedSource, ctx: ReadContext, kind: string): Promise<ReaderOutput> => {
  const book = await readBook(source, kind);
  if (book.SheetNames.length === 0)
    throw new CatalogSourceError(describeFailure(new Error('no workbook'), kind), 'source_unreadable');
  const { sheets, hidden } = sheetsOf(book);
  return workbookTables(sheets, hidden, ctx);
};

export const xlsReader: SourceReader = {
  format: 'xls',
  textual: false,
  // By its signature only: a `.xls` name is as often CSV, HTML or XML text (their readers take it).
  signature: isOle,
  read: (source, ctx) => readWorkbook(source, ctx, 'legacy Excel (.xls) file'),
};

/** A Numbers document saved as one file is a ZIP of `Index/*.iwa` protobuf streams. */
export const isNumbers = (head: Uint8Array): boolean => {
  if (!isZip(head)) return false;
  return (
    containsAscii(head, 'Index/Document.iwa') ||
    /Index\/[\w/-]+\.iwa/.test(Buffer.from(head.subarray(0, 4096)).toString('latin1'))
  );
};

export const numbersReader: SourceReader = {
  format: 'numbers',
  textual: false,
  signature: isNumbers,
  contentTypes: ['application/vnd.apple.numbers', 'application/x-iwork-numbers-sffnumbers'],
  extensions: ['numbers'],
  read: (source, ctx) => readWorkbook(source, ctx, 'Apple Numbers document'),
};

export const odsReader: SourceReader = {
  format: 'ods',
  textual: false,
  signature: isOds,
  contentTypes: [ODS_MIMETYPE],
  extensions: ['ods'],
  read: (source, ctx) => readWorkbook(source, ctx, 'OpenDocument spreadsheet'),
};
