import { strToU8, Zip, ZipDeflate } from 'fflate';
import { splitParts } from '../files';
import type { ExportWriter } from '../formats-types';
import { ALL_JOBS } from '../formats-types';
import { SPREADSHEET_HEADER, spreadsheetItems, spreadsheetRows } from '../spreadsheet-rows';
import { fitText } from '../text';
import { counted } from '../warnings';

/**
 * `xlsx`: the `csv` export's rows as an Excel workbook of one sheet, streamed: the sheet XML is written row
 * by row into a deflated ZIP entry (fflate), with inline strings (a shared-string table would need every
 * string before the first row). Every cell is a string cell, never a formula (`<f>`), so text beginning with
 * `=`, `+`, `-` or `@` is shown as text and read back as it was, with no apostrophe needed. Excel's limits: 1,048,576 rows a sheet (a larger catalog is split into
 * several workbooks, an item never across two) and 32,767 characters a cell.
 */
const MAX_ROWS = 1_048_576;
const MAX_CELL = 32_767;
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const STATIC_PARTS: readonly (readonly [string, string])[] = [
  [
    '[Content_Types].xml',
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
  ],
  [
    '_rels/.rels',
    `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  ],
  [
    'xl/workbook.xml',
    `${XML_HEAD}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Catalog" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  ],
  [
    'xl/_rels/workbook.xml.rels',
    `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
  ],
];

/** XML text: escaped, and without the control characters XML 1.0 cannot hold. */
const xmlText = (value: string): string =>
  value
    // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 cannot hold these characters
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

/** Stands for the row number, which is known only where the row lands in its part (numberRows). */
const ROW = '\u0001';

/** `A`, `B`, … `Z`, `AA`: a column's letters. */
const columnLetters = (index: number): string => {
  let n = index + 1;
  let letters = '';
  while (n > 0) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
};

const rowXml = (cells: readonly string[], onCut: () => void): string => {
  let xml = `<row r="${ROW}">`;
  cells.forEach((cell, i) => {
    if (cell === '') return;
    const fitted = fitText(cell, MAX_CELL);
    if (fitted.cut) onCut();
    xml += `<c r="${columnLetters(i)}${ROW}" t="inlineStr"><is><t xml:space="preserve">${xmlText(fitted.text)}</t></is></c>`;
  });
  return `${xml}</row>`;
};

const ROW_MARKS = new RegExp(`<row r="${ROW}">|${ROW}`, 'g');

/** Puts each row's number in place of ROW, counting rows as the sheet's text passes. */
async function* numberRows(sheet: AsyncIterable<string | Uint8Array>): AsyncGenerator<string> {
  let row = 0;
  for await (const chunk of sheet) {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    yield text.replace(ROW_MARKS, (match) => {
      if (match === ROW) return String(row);
      row += 1;
      return `<row r="${row}">`;
    });
  }
}

/** Zips one workbook whose sheet XML arrives in chunks; yields the ZIP's bytes as they are made. */
async function* workbook(sheet: AsyncIterable<string | Uint8Array>): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  let failure: unknown = null;
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else out.push(data);
  });
  const flush = function* (): Generator<Uint8Array> {
    if (failure !== null) throw failure;
    while (out.length > 0) yield out.shift() as Uint8Array;
  };
  for (const [name, text] of STATIC_PARTS) {
    const entry = new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    entry.push(strToU8(text), true);
  }
  const entry = new ZipDeflate('xl/worksheets/sheet1.xml', { level: 6 });
  zip.add(entry);
  for await (const chunk of sheet) {
    entry.push(typeof chunk === 'string' ? strToU8(chunk) : chunk, false);
    yield* flush();
  }
  entry.push(new Uint8Array(0), true);
  zip.end();
  yield* flush();
}

export const xlsx: ExportWriter = {
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  fileName: 'catalog.xlsx',
  jobTypes: ALL_JOBS,
  async *write(run) {
    const catalog = await run.catalog();
    const cut = () =>
      run.warnings.add(
        'value_too_long',
        null,
        (n) => `${counted(n, 'cell')} longer than Excel's 32,767 characters were cut`,
      );
    const parts = splitParts(spreadsheetItems(catalog, run), {
      maxUnits: MAX_ROWS - 1,
      items: () => 1,
      open: () =>
        `${XML_HEAD}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rowXml(SPREADSHEET_HEADER, cut)}`,
      render: (item) => {
        const rows = spreadsheetRows(item, run);
        return { text: rows.map((cells) => rowXml(cells, cut)).join(''), units: rows.length };
      },
      close: () => '</sheetData></worksheet>',
    });
    for await (const part of parts) yield { ...part, chunks: workbook(numberRows(part.chunks)) };
  },
};
