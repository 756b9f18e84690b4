import { MAX_SHEET_COLUMNS as MAX_COLUMNS } from './sheet-bounds';
import type { CellValue, Table, TableRow } from './types';
import { attribute, children, leafText, TEXT, type XmlNode } from './xml-tree';

/**
 * Excel 2003 XML ("XML Spreadsheet", SpreadsheetML): a table per worksheet, row and column numbers as Excel
 * shows them (`ss:Index` skips, `ss:MergeAcross` spans).
 */
export const spreadsheetTables = (workbook: XmlNode): Table[] =>
  children(workbook, 'Worksheet').map((sheet) => {
    const rows: TableRow[] = [];
    let rowNumber = 0;
    for (const table of children(sheet, 'Table')) {
      for (const row of children(table, 'Row')) {
        rowNumber = Number(attribute(row, 'Index') ?? rowNumber + 1) || rowNumber + 1;
        const cells: CellValue[] = [];
        for (const cell of children(row, 'Cell')) {
          const index = Number(attribute(cell, 'Index'));
          if (Number.isInteger(index) && index > cells.length && index <= MAX_COLUMNS)
            while (cells.length < index - 1) cells.push(null);
          if (cells.length >= MAX_COLUMNS) break;
          const data = children(cell, 'Data')[0];
          const text = data === undefined ? null : leafText(data[TEXT] ?? '');
          cells.push(text === '' ? null : text);
          const across = Number(attribute(cell, 'MergeAcross'));
          if (Number.isInteger(across) && across > 0) {
            const end = Math.min(MAX_COLUMNS, cells.length + across);
            while (cells.length < end) cells.push(null);
          }
        }
        rows.push({ row: rowNumber, cells });
      }
    }
    return { sheet: attribute(sheet, 'Name') ?? null, batches: [rows] };
  });
