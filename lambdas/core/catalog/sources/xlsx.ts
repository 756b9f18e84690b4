import { strFromU8, unzipSync } from 'fflate';
import readXlsxFile from 'read-excel-file/node';
import { readAll } from '../bytes';
import { CatalogSourceError } from '../errors';
import { checkXlsxGrids } from './sheet-bounds';
import { isZip } from './signatures';
import type { CellValue, ReadContext, ReaderOutput, SourceReader, Table, TableRow, Workbook } from './types';
import { checkZipExpansion } from './zip';

/**
 * XLSX workbooks (SPEC 5.2), read with read-excel-file: every sheet is a table; sheets whose header row is
 * not recognised (notes, instructions) are skipped and listed in `results.sources[].sheets`. The sheets are
 * also offered as one workbook, for platforms whose export spreads a catalog over several sheets (Clover).
 * Numbers stay numbers (a barcode's digits are exact up to 2^53), dates become ISO 8601 text. A workbook is
 * a ZIP archive and is read whole (the 100 MB source limit bounds it). A sheet hidden in Excel (lookup
 * lists, an old menu kept out of sight) is not read, with a warning naming it, unless every sheet is hidden.
 */

const WORKBOOK = 'xl/workbook.xml';
const WORKBOOK_RELS = 'xl/_rels/workbook.xml.rels';

/**
 * What `xl/workbook.xml` says of the sheets: the names it marks `hidden` or `veryHidden`, and each
 * worksheet part's sheet name (through its relationship), for messages.
 */
const workbookSheets = (bytes: Uint8Array): { hidden: Set<string>; parts: Map<string, string> } => {
  const hidden = new Set<string>();
  const parts = new Map<string, string>();
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, { filter: (file) => file.name === WORKBOOK || file.name === WORKBOOK_RELS });
  } catch {
    return { hidden, parts };
  }
  const workbook = entries[WORKBOOK] === undefined ? '' : strFromU8(entries[WORKBOOK]);
  const rels = entries[WORKBOOK_RELS] === undefined ? '' : strFromU8(entries[WORKBOOK_RELS]);
  const targets = new Map<string, string>();
  for (const [tag] of rels.matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
    const id = /\sId="([^"]*)"/.exec(tag)?.[1];
    const target = /\sTarget="([^"]*)"/.exec(tag)?.[1];
    if (id !== undefined && target !== undefined)
      targets.set(id, target.startsWith('/') ? target.slice(1) : `xl/${target}`);
  }
  for (const [tag] of workbook.matchAll(/<(?:\w+:)?sheet\b[^>]*>/g)) {
    const name = /\sname="([^"]*)"/.exec(tag)?.[1];
    if (name === undefined) continue;
    const part = targets.get(/\s(?:\w+:)?id="([^"]*)"/.exec(tag)?.[1] ?? '');
    if (part !== undefined) parts.set(part, unescapeXml(name));
    if (/\sstate="(?:hidden|veryHidden)"/.test(tag)) hidden.add(unescapeXml(name));
  }
  return { hidden, parts };
};

const unescapeXml = (text: string): string =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&');

const cell = (value: unknown): CellValue => {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return String(value);
};

const rowAt = (data: readonly (readonly unknown[])[], i: number): TableRow => ({
  row: i + 1,
  cells: (data[i] ?? []).map(cell),
});

/** A sheet's rows, converted a thousand at a time (the sheet itself is in memory already). */
function* batches(data: readonly (readonly unknown[])[]): Generator<TableRow[]> {
  for (let start = 0; start < data.length; start += 1000) {
    const batch: TableRow[] = [];
    for (let i = start; i < Math.min(data.length, start + 1000); i += 1) batch.push(rowAt(data, i));
    yield batch;
  }
}

function* rows(data: readonly (readonly unknown[])[]): Generator<TableRow> {
  for (let i = 0; i < data.length; i += 1) yield rowAt(data, i);
}

/** A sheet as a reader has it: its name and its rows from the top (row 1 first). */
export interface SheetData {
  readonly sheet: string;
  readonly data: readonly (readonly unknown[])[];
}

/**
 * A workbook's sheets as the table pipeline takes them, shared by the XLSX and the legacy workbook readers:
 * a hidden sheet is not read (a warning names it) unless every sheet is hidden.
 */
export const workbookTables = (
  sheets: readonly SheetData[],
  hidden: ReadonlySet<string>,
  ctx: ReadContext,
): ReaderOutput => {
  const skip = sheets.some((sheet) => !hidden.has(sheet.sheet)) ? hidden : new Set<string>();
  for (const name of skip) {
    if (!sheets.some((sheet) => sheet.sheet === name)) continue;
    ctx.warn({
      row: null,
      column: null,
      sheet: name,
      code: 'hidden_sheet',
      message: `the sheet ${JSON.stringify(name)} is hidden in the workbook; its rows were not read`,
    });
  }
  const tables: Table[] = sheets.map((sheet) => ({
    sheet: sheet.sheet,
    batches: skip.has(sheet.sheet) ? [] : batches(sheet.data),
  }));
  const workbook: Workbook = {
    sheets: sheets
      .filter((sheet) => !skip.has(sheet.sheet))
      .map((sheet) => ({ name: sheet.sheet, rows: () => rows(sheet.data) })),
  };
  return { kind: 'tables', tables, workbook };
};

export const xlsxReader: SourceReader = {
  format: 'xlsx',
  textual: false,
  signature: isZip,
  contentTypes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  extensions: ['xlsx', 'xlsm'],
  read: async (source, ctx) => {
    const bytes = await readAll(source.bytes);
    checkZipExpansion(bytes);
    const { hidden, parts } = workbookSheets(bytes);
    checkXlsxGrids(bytes, parts);
    let sheets: SheetData[];
    try {
      sheets = (await readXlsxFile(bytes)) as unknown as SheetData[];
    } catch (error) {
      throw new CatalogSourceError(
        `the workbook cannot be read as XLSX: ${error instanceof Error ? error.message : String(error)}`,
        'source_unreadable',
        { cause: error },
      );
    }
    return workbookTables(sheets, hidden, ctx);
  },
};
