import ExcelJS from 'exceljs';
import type { CatalogDocument } from '../../../../lambdas/core/catalog/document';
import { inferColumns, inferPriceColumn } from '../../../../lambdas/core/catalog/headers/infer-columns';
import { buildCsv, buildFrom } from '../../../fixtures/catalog/build';
import { aCatalogJob } from '../../../fixtures/catalog/jobs';

/**
 * Columns told from their values (headers/infer-columns.ts, rows/read-table.ts): a sheet typed without a
 * header row, a header whose price column has a name no alias knows. Fixtures are invented for the test.
 */

const menu = aCatalogJob({ job_type: 'new_menu' });
const retail = aCatalogJob({ job_type: 'new_retail_catalog' });
const rowsOf = (document: CatalogDocument) =>
  document.items.map((i) => [i.name, i.variants[0]?.price?.amount ?? null]);

const xlsx = async (
  rows: readonly (readonly (string | number | null)[])[],
  sheet = 'Sheet1',
): Promise<Buffer> => {
  const book = new ExcelJS.Workbook();
  const ws = book.addWorksheet(sheet);
  for (const row of rows) ws.addRow([...row]);
  return Buffer.from(await book.xlsx.writeBuffer());
};

describe('inferColumns', () => {
  test('slug, name, price, description and a name in another script: name, price and description told apart', () => {
    const rows = [
      [
        'springroll',
        'Spring Roll',
        4.5,
        'Crisp rolls of cabbage and carrot, with a sweet chilli dip.',
        '春卷',
      ],
      ['hargow', 'Har Gow', 5.25, 'Steamed shrimp dumplings in a thin translucent wrapper.', '蝦餃'],
      ['siumai', 'Siu Mai', 5, 'Open pork and shrimp dumplings topped with roe.', '燒賣'],
      ['turnipcake', 'Turnip Cake', 4.75, 'Pan-fried radish cake with dried shrimp and sausage.', '蘿蔔糕'],
    ];
    expect([...(inferColumns(rows)?.fields ?? [])].sort()).toEqual([
      [1, 'name'],
      [2, 'price'],
      [3, 'description'],
    ]);
  });

  test('a column of few short texts repeated over the rows is a category; check-digit-valid codes are GTINs', () => {
    const rows = [
      ['4006381333931', 'Blue ceramic mug', 'Kitchen', '12.00'],
      ['4012345678901', 'Walnut cutting board', 'Kitchen', '34.50'],
      ['5901234123457', 'Linen tea towel', 'Textiles', '9.90'],
      ['9780201379624', 'Cotton apron', 'Textiles', '18.00'],
      ['0036000291452', 'Stoneware bowl', 'Kitchen', '15.00'],
      ['0012345678905', 'Wool throw', 'Textiles', '59.00'],
    ];
    const fields = inferColumns(rows)?.fields;
    expect(fields?.get(0)).toBe('gtin');
    expect(fields?.get(1)).toBe('name');
    expect(fields?.get(2)).toBe('category');
    expect(fields?.get(3)).toBe('price');
  });

  test('a running row number is no price; whole numbers are prices when nothing has decimals', () => {
    const rows = [
      [1, 'Green tea', 1200],
      [2, 'Roasted tea', 980],
      [3, 'Barley tea', 450],
    ];
    expect(inferColumns(rows)?.fields.get(2)).toBe('price');
    expect(inferColumns(rows)?.fields.has(0)).toBe(false);
  });

  test('nothing that reads as names, or names without prices or barcodes: no guess', () => {
    expect(
      inferColumns([
        ['1', '2'],
        ['3', '4'],
      ]),
    ).toBeNull();
    expect(
      inferColumns([
        ['Blue mug', 'red'],
        ['Green bowl', 'blue'],
      ]),
    ).toBeNull();
    expect(inferColumns([['Only one row', '2.50']])).toBeNull();
  });

  test('inferPriceColumn wants decimals or marks unless whole numbers are allowed', () => {
    const rows = [
      ['x', '12', '€3,50'],
      ['y', '7', '€4,00'],
    ];
    expect(inferPriceColumn(rows, [1, 2], { wholeNumbers: false })).toBe(2);
    expect(inferPriceColumn(rows, [1], { wholeNumbers: false })).toBeUndefined();
    expect(inferPriceColumn(rows, [1], { wholeNumbers: true })).toBe(1);
  });
});

describe('a table without a header row is read by its inferred columns, and goes to review', () => {
  test('XLSX: every row is a dish (the first one too), with a columns_inferred warning and a review reason', async () => {
    const bytes = await xlsx([
      ['springroll', 'Spring Roll', 4.5, 'Crisp rolls of cabbage and carrot.'],
      ['hargow', 'Har Gow', 5.25, 'Steamed shrimp dumplings in a thin wrapper.'],
      ['siumai', 'Siu Mai', 5, 'Open pork and shrimp dumplings.'],
    ]);
    const { document, results, review } = await buildFrom([{ source: 'dimsum.xlsx', body: bytes }], menu);
    expect(rowsOf(document)).toEqual([
      ['Spring Roll', 450],
      ['Har Gow', 525],
      ['Siu Mai', 500],
    ]);
    expect(document.items[0]?.description).toBe('Crisp rolls of cabbage and carrot.');
    const warning = (results.warnings ?? []).find((w) => w.code === 'columns_inferred');
    expect(warning?.message).toMatch(
      /\(column 2\) as name, \(column 3\) as price, \(column 4\) as description/,
    );
    expect(review).toEqual([expect.stringContaining('columns told from their values')]);
    expect(results.sources?.[0]).toMatchObject({ rows: 3, items: 3 });
    expect(results.sources?.[0]?.header_row).toBeUndefined();
  });

  test('CSV without a header: read the same way', async () => {
    const csv = ['Flat white,3.80', 'Cortado,3.20', 'Cold brew,4.10'].join('\n');
    const { document, review } = await buildCsv(csv, menu, 'drinks.csv');
    expect(rowsOf(document)).toEqual([
      ['Flat white', 380],
      ['Cortado', 320],
      ['Cold brew', 410],
    ]);
    expect(review).toHaveLength(1);
  });

  test('a table with a header is not inferred and does not go to review', async () => {
    const { review, results } = await buildCsv('Item,Price\nFlat white,3.80\nCortado,3.20\n', menu);
    expect(review).toEqual([]);
    expect((results.warnings ?? []).some((w) => w.code === 'columns_inferred')).toBe(false);
  });
});

describe('a header with a name column but no price column any alias knows', () => {
  test('the column of amounts is the price, by its values, with a warning and a review', async () => {
    const csv = ['ref,title,retail_amt,stock', 'A1,Herbal soap,12.99,4', 'A2,Lavender soap,14.50,0'].join(
      '\n',
    );
    const { document, results, review } = await buildCsv(csv, retail, 'shop.csv');
    expect(rowsOf(document)).toEqual([
      ['Herbal soap', 1299],
      ['Lavender soap', 1450],
    ]);
    expect((results.warnings ?? []).find((w) => w.code === 'columns_inferred')?.message).toContain(
      'retail_amt as price',
    );
    expect(review).toHaveLength(1);
  });

  test('no column of amounts: the items are kept without prices and nothing is inferred', async () => {
    const { document, review } = await buildCsv(
      'title,notes\nHerbal soap,handmade\nLavender soap,new\n',
      retail,
    );
    expect(rowsOf(document)).toEqual([
      ['Herbal soap', null],
      ['Lavender soap', null],
    ]);
    expect(review).toEqual([]);
  });
});

describe('what the error names when nothing can be read', () => {
  test('a header that names columns but none with names says so', async () => {
    const { failures } = await buildCsv('SKU,Price,Barcode\nA-1,3.50,4006381333931\n', retail, 'list.csv');
    expect(failures).toEqual([
      expect.objectContaining({
        code: 'missing_columns',
        message: expect.stringMatching(
          /row 1 names columns \(.*price.*\) but none holds the products' names/,
        ),
      }),
    ]);
  });

  test('a sheet with no rows of data says so', async () => {
    const bytes = await xlsx([], 'Products');
    const { failures } = await buildFrom([{ source: 'empty.xlsx', body: bytes }], retail);
    expect(failures[0]?.message).toMatch(/no rows with data|no table/);
  });
});

describe('a hints row right under the header, XLSX as CSV', () => {
  test('the hints row is skipped with a warning and the products are read', async () => {
    const bytes = await xlsx([
      ['id', 'title', 'price', 'brand'],
      [
        '# Required | A unique id, e.g. the SKU.',
        '# Required | The title customers see.',
        '# Required | The price with its currency, e.g. 9.99 EUR.',
        '# Optional | The brand name.',
      ],
      ['TS-1', 'Cotton tee', '19.99 EUR', 'Atelier'],
    ]);
    const { document, results } = await buildFrom([{ source: 'template.xlsx', body: bytes }], retail);
    expect(rowsOf(document)).toEqual([['Cotton tee', 1999]]);
    expect(results.warnings).toContainEqual(expect.objectContaining({ row: 2, code: 'not_an_item' }));
  });
});
