import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import ZAHL from '@e965/xlsx/dist/xlsx.zahl';
import ExcelJS from 'exceljs';
import { strToU8, zipSync } from 'fflate';
import { isOds } from '../../../../lambdas/core/catalog/sources/legacy-workbook';
import { checkZipExpansion } from '../../../../lambdas/core/catalog/sources/zip';
import { buildFrom } from '../../../fixtures/catalog/build';
import { aCatalogJob } from '../../../fixtures/catalog/jobs';

const FIXTURES = join(__dirname, '../../../fixtures/merchant-files');
const retail = aCatalogJob({ job_type: 'new_retail_catalog' });
const menu = aCatalogJob({ job_type: 'new_menu' });

const sheetJsBook = (
  type: 'biff8' | 'biff5' | 'ods' | 'numbers',
  rows: unknown[][],
  options: { top?: string } = {},
) => {
  const sheet = XLSX.utils.aoa_to_sheet([]);
  XLSX.utils.sheet_add_aoa(sheet, rows, { origin: options.top ?? 'A1' });
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Products');
  // SheetJS writes a Numbers document from Apple's own template (the "zahl" payload).
  return Buffer.from(XLSX.write(book, { type: 'buffer', bookType: type, numbers: ZAHL }));
};

const summary = (built: Awaited<ReturnType<typeof buildFrom>>) =>
  built.document.items.map((item) => [
    item.name,
    item.variants.map((v) => [v.price?.amount ?? null, v.gtin]),
  ]);

describe('legacy Excel (.xls) and OpenDocument (.ods) workbooks', () => {
  test.each(['biff8', 'biff5', 'ods', 'numbers'] as const)(
    'a %s workbook is read by its signature, whatever it is called, rows numbered as the sheet shows them',
    async (type) => {
      const bytes = sheetJsBook(
        type,
        [
          ['Product', 'UPC', 'Price'],
          ['Hammer', 76174512342, 18.99],
          ['Tape', 'not a code', 14.5],
        ],
        { top: 'B3' },
      );
      const built = await buildFrom([{ source: 'download', body: bytes, name: 'export.bin' }], retail);
      expect(summary(built)).toEqual([
        ['Hammer', [[1899, '076174512342']]],
        ['Tape', [[1450, null]]],
      ]);
      expect(built.results.sources?.[0]).toMatchObject({
        format: type === 'ods' || type === 'numbers' ? type : 'xls',
        header_row: 3,
        columns: { Product: 'name', UPC: 'gtin', Price: 'price' },
      });
      expect(built.results.warnings).toEqual([
        expect.objectContaining({ sheet: 'Products', row: 5, column: 'UPC', code: 'invalid_gtin' }),
      ]);
    },
  );

  test('the committed fixtures are what they say: BIFF8 in an OLE2 file, ODS with its mimetype first', () => {
    const xls = readFileSync(join(FIXTURES, 'erp-item-master-biff8.xls'));
    const ods = readFileSync(join(FIXTURES, 'cafe-menu-libreoffice.ods'));
    expect([...xls.subarray(0, 4)]).toEqual([0xd0, 0xcf, 0x11, 0xe0]);
    expect(isOds(ods)).toBe(true);
    expect(isOds(xls)).toBe(false);
  });

  test('an Office file without a workbook (a Word document) says what it is, and what to send', async () => {
    const cfb = XLSX.CFB.utils.cfb_new();
    XLSX.CFB.utils.cfb_add(cfb, '/WordDocument', Buffer.alloc(4096, 1));
    const doc = Buffer.from(XLSX.CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
    const built = await buildFrom([{ source: 'menu.doc', body: doc }], retail);
    expect(built.failures).toEqual([
      expect.objectContaining({
        code: 'source_unreadable',
        message: expect.stringMatching(/without a workbook.*CSV or XLSX/),
      }),
    ]);
  });

  test('a workbook cut short fails its source; it is never read in part', async () => {
    const bytes = sheetJsBook('biff8', [
      ['Product', 'Price'],
      ...Array.from({ length: 500 }, (_, i) => [`P${i}`, i]),
    ]);
    const built = await buildFrom([{ source: 'cut.xls', body: bytes.subarray(0, 3000) }], retail);
    expect(built.document.items).toEqual([]);
    expect(built.failures).toEqual([expect.objectContaining({ code: 'source_unreadable' })]);
  });
});

describe('ZIP workbooks that would expand past what a worker can hold', () => {
  const workbook = async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Menu').addRows([
      ['Item', 'Price'],
      ['Soup', 5],
    ]);
    return Buffer.from(await book.xlsx.writeBuffer());
  };

  /** The same archive, its central directory declaring `size` bytes for its first entry. */
  const declaring = (zip: Buffer, size: number): Buffer => {
    const patched = Buffer.from(zip);
    const central = patched.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    patched.writeUInt32LE(size, central + 24);
    return patched;
  };

  test('are refused by the sizes they declare, before anything is inflated', async () => {
    const zip = await workbook();
    expect(() => checkZipExpansion(zip)).not.toThrow();
    expect(() => checkZipExpansion(zip, { maxEntryBytes: 100, maxTotalBytes: 100_000 })).toThrow(
      /expands to 0 MB when unzipped/,
    );
    const built = await buildFrom([{ source: 'menu.xlsx', body: declaring(zip, 0xfff0_0000) }], retail);
    expect(built.failures).toEqual([
      expect.objectContaining({
        code: 'source_too_large',
        message: expect.stringMatching(/^the workbook expands to 4095 MB when unzipped/),
      }),
    ]);
  });
});

describe('a stray value far from the catalog (Excel keeps it; a grid to it would not fit)', () => {
  const failure = (built: Awaited<ReturnType<typeof buildFrom>>) => {
    expect(built.document.items).toEqual([]);
    return built.failures;
  };

  test('XLSX: refused by the cells its sheet XML holds, before any grid is built; empty styled cells do not count', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Menu');
    sheet.addRows([
      ['Item', 'Price'],
      ['Soup', 5],
    ]);
    sheet.getCell(1_048_576, 16_384).value = 'x';
    const stray = Buffer.from(await book.xlsx.writeBuffer());
    expect(failure(await buildFrom([{ source: 'menu.xlsx', body: stray }], retail))).toEqual([
      expect.objectContaining({
        code: 'source_too_large',
        message: expect.stringMatching(
          /^the sheet "Menu" reaches cell XFD1048576: read whole that is 17,179,869,184 cells/,
        ),
      }),
    ]);
    const styled = new ExcelJS.Workbook();
    const formatted = styled.addWorksheet('Menu');
    formatted.addRows([
      ['Item', 'Price'],
      ['Soup', 5],
    ]);
    formatted.getCell(1_048_576, 16_384).style = { font: { bold: true } };
    const built = await buildFrom(
      [{ source: 'menu.xlsx', body: Buffer.from(await styled.xlsx.writeBuffer()) }],
      retail,
    );
    expect(built.document.items.map((i) => i.name)).toEqual(['Soup']);
  });

  test('XLSX: sheets each under the limit but over it together are refused as a workbook', async () => {
    const book = new ExcelJS.Workbook();
    for (const name of ['Menu', 'Old menu']) {
      const sheet = book.addWorksheet(name);
      sheet.addRows([
        ['Item', 'Price'],
        ['Soup', 5],
      ]);
      sheet.getCell(800_000, 25).value = 'x'; // Y800000: 20,000,000 cells
    }
    const built = await buildFrom(
      [{ source: 'menu.xlsx', body: Buffer.from(await book.xlsx.writeBuffer()) }],
      menu,
    );
    expect(failure(built)).toEqual([
      expect.objectContaining({
        code: 'source_too_large',
        message: expect.stringMatching(
          /^the workbook's sheets read whole come to 40,000,000 cells \(the sheet "Old menu" reaches cell Y800000\)/,
        ),
      }),
    ]);
  });

  test('ODS: the last cell with a value decides, however many repeated empty rows come before it', async () => {
    const content = (far: string) =>
      '<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ' +
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">' +
      '<office:body><office:spreadsheet><table:table table:name="Menu">' +
      '<table:table-row><table:table-cell office:value-type="string"><text:p>Item</text:p></table:table-cell>' +
      '<table:table-cell office:value-type="string"><text:p>Price</text:p></table:table-cell></table:table-row>' +
      '<table:table-row><table:table-cell office:value-type="string"><text:p>Soup</text:p></table:table-cell>' +
      '<table:table-cell office:value-type="float" office:value="5"><text:p>5</text:p></table:table-cell></table:table-row>' +
      `<table:table-row table:number-rows-repeated="1048573"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>${far}` +
      '</table:table></office:spreadsheet></office:body></office:document-content>';
    const ods = (far: string) =>
      Buffer.from(
        zipSync({
          mimetype: [strToU8('application/vnd.oasis.opendocument.spreadsheet'), { level: 0 }],
          'content.xml': strToU8(content(far)),
          'styles.xml': strToU8(
            '<?xml version="1.0" encoding="UTF-8"?><office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" office:version="1.2"/>',
          ),
          'META-INF/manifest.xml': strToU8(
            '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">' +
              '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>' +
              '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
          ),
        }),
      );
    const farValue =
      '<table:table-row><table:table-cell table:number-columns-repeated="16383"/>' +
      '<table:table-cell office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>';
    expect(failure(await buildFrom([{ source: 'menu.ods', body: ods(farValue) }], menu))).toEqual([
      expect.objectContaining({
        code: 'source_too_large',
        message: expect.stringMatching(/reaches cell XFD1048576/),
      }),
    ]);
    const built = await buildFrom([{ source: 'menu.ods', body: ods('') }], menu);
    expect(built.document.items.map((i) => [i.name, i.variants[0]?.price?.amount])).toEqual([['Soup', 500]]);
    // A value repeated over a million rows and every column: counted before SheetJS would build it.
    const repeated =
      '<table:table-row table:number-rows-repeated="1000000"><table:table-cell table:number-columns-repeated="16384" ' +
      'office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>';
    expect(failure(await buildFrom([{ source: 'menu.ods', body: ods(repeated) }], menu))).toEqual([
      expect.objectContaining({
        code: 'source_too_large',
        message: expect.stringMatching(
          /repeats its cells to more than 25,000,000 cells with a value \(in "Menu"\)/,
        ),
      }),
    ]);
  });
});
