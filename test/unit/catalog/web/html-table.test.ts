import { buildFrom } from '../../../fixtures/catalog/build';
import { aCatalogJob } from '../../../fixtures/catalog/jobs';

const retail = aCatalogJob({ job_type: 'new_retail_catalog' });
const menu = aCatalogJob({ job_type: 'new_menu' });

/** What "Export to Excel" writes in many back offices: an HTML table in Excel's namespace. */
const EXCEL_HTML = `<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:x="urn:schemas-microsoft-com:office:excel">
<head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"><style>td { mso-number-format:"\\@"; }</style></head>
<body><table border="1">
<tr><td colspan="5"><b>Product export 2026-10-30</b></td></tr>
<tr><th>SKU</th><th>Product Name</th><th>Category</th><th>Price</th><th>Barcode</th></tr>
<tr><td>A1</td><td>Claw Hammer</td><td>Tools</td><td>$18.99</td><td>076174512342</td></tr>
<tr><td>A2</td><td>Tape &amp; Measure</td><td>Tools</td><td>$14.50</td><td>12345</td></tr>
<tr><td>B1</td><td>Wood Screws (100)</td><td>Fasteners</td><td>6.29</td><td></td></tr>
</table></body></html>`;

const summary = (built: Awaited<ReturnType<typeof buildFrom>>) =>
  built.document.items.map((item) => [
    built.document.categories.find((c) => c.id === item.category_id)?.name ?? null,
    item.name,
    item.variants.map((v) => [v.sku, v.price?.amount ?? null, v.gtin]),
  ]);

describe('HTML tables that are spreadsheets', () => {
  test.each([
    ['products.xls', 'application/vnd.ms-excel'],
    ['products.xls', null],
    ['https://backoffice.test/export?format=excel', 'text/html; charset=utf-8'],
  ])(
    'an Excel HTML export (%s, %s) is read as rows: title row skipped, columns mapped, row numbers its own',
    async (name, type) => {
      const built = await buildFrom(
        [{ source: 'export', body: EXCEL_HTML, name, contentType: type }],
        retail,
      );
      expect(summary(built)).toEqual([
        ['Tools', 'Claw Hammer', [['A1', 1899, '076174512342']]],
        ['Tools', 'Tape & Measure', [['A2', 1450, null]]],
        ['Fasteners', 'Wood Screws (100)', [['B1', 629, null]]],
      ]);
      expect(built.results.sources?.[0]).toMatchObject({
        format: 'html',
        header_row: 2,
        columns: {
          SKU: 'sku',
          'Product Name': 'name',
          Category: 'category',
          Price: 'price',
          Barcode: 'gtin',
        },
        rows: 3,
        items: 3,
      });
      expect(built.results.warnings).toEqual([
        expect.objectContaining({ row: 4, column: 'Barcode', code: 'invalid_gtin' }),
      ]);
      expect(built.review).toEqual([]);
    },
  );

  test('a page that is a price table is read as one; several tables are named Table 1, Table 2', async () => {
    const page = `<!doctype html><html><head><title>Prices</title></head><body><h1>Price list</h1>
      <table><tr><th>Item</th><th>Price</th></tr><tr><td>Espresso</td><td>3.00</td></tr><tr><td>Latte</td><td>4.50</td></tr></table>
      <table><tr><th>Item</th><th>Price</th></tr><tr><td>Croissant</td><td>3.25</td></tr></table>
      </body></html>`;
    const built = await buildFrom([{ source: 'prices.html', body: page }], menu);
    expect(built.document.items.map((i) => [i.name, i.variants[0]?.price?.amount])).toEqual([
      ['Espresso', 300],
      ['Latte', 450],
      ['Croissant', 325],
    ]);
    expect(built.results.sources?.[0]?.sheets?.map((s) => s.name)).toEqual(['Table 1', 'Table 2']);
  });

  test('a web page whose small table is not most of it stays a web page; layout tables and tables without a product header are not sheets', async () => {
    const story = 'Our family has cooked here since 1962, with bread from the bakery next door. '.repeat(12);
    const page = `<!doctype html><html><body><h1>Trattoria</h1><p>${story}</p>
      <table><tr><th>Dish</th><th>Price</th></tr><tr><td>Lasagne</td><td>14</td></tr></table></body></html>`;
    const built = await buildFrom([{ source: 'about.html', body: page }], menu);
    expect(built.results.sources?.[0]?.columns ?? {}).toEqual({});

    const layout = `<!doctype html><html><body><table><tr><td><table><tr><th>Size</th><th>Chest</th></tr>
      <tr><td>M</td><td>40</td></tr></table></td></tr></table></body></html>`;
    const sizes = await buildFrom([{ source: 'sizes.xls', body: layout }], retail);
    expect(sizes.results.sources?.[0]?.columns ?? {}).toEqual({});
  });
});
