import ExcelJS from 'exceljs';
import { buildFrom } from '../../../fixtures/catalog/build';

const workbook = async (sheets: Record<string, unknown[][]>): Promise<Buffer> => {
  const book = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = book.addWorksheet(name);
    for (const row of rows) sheet.addRow(row);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
};

describe('XLSX reader', () => {
  test('every sheet with a header row is read, named after itself when it has no category column', async () => {
    const bytes = await workbook({
      Starters: [['My Bistro'], [], ['Dish', 'Price'], ['Soup', 6.5], ['Bread', '$3']],
      Drinks: [
        ['Section', 'Item', 'Price'],
        ['Hot', 'Tea', 2],
        ['Cold', 'Cola', 2.5],
      ],
      Notes: [['Remember to update prices'], ['Closed Mondays']],
      Sheet4: [
        ['Name', 'Price'],
        ['Cookie', 1.25],
      ],
    });
    const { document, results } = await buildFrom([{ source: 'menu.xlsx', body: bytes }]);
    expect(
      document.items.map((i) => [
        i.name,
        i.variants[0]?.price?.amount,
        document.categories.find((c) => c.id === i.category_id)?.name ?? null,
      ]),
    ).toEqual([
      ['Soup', 650, 'Starters'],
      ['Bread', 300, 'Starters'],
      ['Tea', 200, 'Hot'],
      ['Cola', 250, 'Cold'],
      ['Cookie', 125, null],
    ]);
    expect(results.sources?.[0]).toMatchObject({
      format: 'xlsx',
      encoding: null,
      profile: 'generic',
      header_row: 3,
      sheets: [
        {
          name: 'Starters',
          header_row: 3,
          rows: 2,
          items: 2,
          columns: { Dish: 'name', Price: 'price' },
          ignored_columns: [],
        },
        { name: 'Drinks', header_row: 1, rows: 2, items: 2 },
        { name: 'Notes', header_row: null, rows: 0, items: 0 },
        { name: 'Sheet4', header_row: 1, rows: 1, items: 1 },
      ],
    });
    expect(results.warning_count).toBe(0);
  });

  test('numbers stay exact (barcodes), warnings name their sheet', async () => {
    const bytes = await workbook({
      Products: [
        ['Name', 'UPC', 'Price'],
        ['Milk', 36000291452, 1.99],
        ['Bad', 36000291453, 2],
      ],
    });
    const { document, results } = await buildFrom([{ source: 'p.xlsx', body: bytes }], {
      id: '6a1f0a8e-2f3b-4f39-bb0c-5a3b3f2d9e55',
      job_type: 'new_retail_catalog',
      job_data: { merchant_name: 'Shop' },
    });
    expect(document.items.map((i) => i.variants[0]?.gtin)).toEqual(['036000291452', null]);
    expect(results.warnings).toEqual([
      expect.objectContaining({ sheet: 'Products', row: 3, column: 'UPC', code: 'invalid_gtin' }),
    ]);
  });

  test('a ZIP that is not a workbook is a clear source error', async () => {
    const built = await buildFrom([
      { source: 'x.xlsx', body: Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]) },
    ]);
    expect(built.failures).toEqual([
      expect.objectContaining({ code: 'source_unreadable', message: expect.stringContaining('XLSX') }),
    ]);
  });
});

describe('hidden sheets', () => {
  const book = async (states: Record<string, 'visible' | 'hidden' | 'veryHidden'>): Promise<Buffer> => {
    const workbook = new ExcelJS.Workbook();
    for (const [name, state] of Object.entries(states)) {
      const sheet = workbook.addWorksheet(name, { state });
      sheet.addRow(['Item', 'Price']);
      sheet.addRow([`${name} dish`, 5]);
    }
    return Buffer.from(await workbook.xlsx.writeBuffer());
  };

  test('a sheet hidden in Excel is not read, and a warning names it', async () => {
    const bytes = await book({ Menu: 'visible', 'Old & new': 'hidden', Lists: 'veryHidden' });
    const { document, results } = await buildFrom([{ source: 'menu.xlsx', body: bytes }]);
    expect(document.items.map((i) => i.name)).toEqual(['Menu dish']);
    expect(results.warnings?.map((w) => [w.sheet, w.code, w.row, w.column])).toEqual([
      ['Old & new', 'hidden_sheet', null, null],
      ['Lists', 'hidden_sheet', null, null],
    ]);
    expect(results.sources?.[0]?.sheets?.map((s) => [s.name, s.header_row, s.items])).toEqual([
      ['Menu', 1, 1],
      ['Old & new', null, 0],
      ['Lists', null, 0],
    ]);
  });

  test('when every sheet is hidden, they are read all the same', async () => {
    const bytes = await book({ A: 'hidden', B: 'hidden' });
    const { document, results } = await buildFrom([{ source: 'menu.xlsx', body: bytes }]);
    expect(document.items.map((i) => i.name)).toEqual(['A dish', 'B dish']);
    expect(results.warning_count).toBe(0);
  });
});
