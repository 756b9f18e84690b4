import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CatalogDocument, parseCatalogDocument } from '../../../lambdas/core/catalog/document';
import { CatalogLimitError } from '../../../lambdas/core/catalog/errors';
import { makeEntityIds } from '../../../lambdas/core/catalog/ids';
import { buildCsv, buildFrom, NOW } from '../../fixtures/catalog/build';
import { aCatalogJob, MENU_JOB_ID, RETAIL_JOB_ID } from '../../fixtures/catalog/jobs';

const fixture = (name: string) => readFileSync(join(__dirname, '../../fixtures/catalog', name));

const chunks = (bytes: Buffer, size: number): Buffer[] => {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
};

const SOURCE = 'https://files.example.com/menu.csv';
const buildMenu = (csv: Buffer | string = fixture('menu.csv'), job = aCatalogJob()) =>
  buildFrom([{ source: SOURCE, body: csv }], job);

/** Items as [name, [[variant name, amount, pricing], ...]] for compact assertions. */
const summary = (document: CatalogDocument) =>
  document.items.map((i) => [i.name, i.variants.map((v) => [v.name, v.price?.amount ?? null, v.pricing])]);

const pathOf = (document: CatalogDocument, id: string | null): string[] => {
  const byId = new Map(document.categories.map((c) => [c.id, c]));
  const names: string[] = [];
  for (
    let c = id === null ? undefined : byId.get(id);
    c;
    c = c.parent_id === null ? undefined : byId.get(c.parent_id)
  ) {
    names.unshift(c.name);
  }
  return names;
};

describe('menu CSV (the format-1 era fixture, now format 2)', () => {
  test('items with one variant each, categories, modifier groups and the results summary', async () => {
    const { document, results } = await buildMenu();
    expect(document.categories.map((c) => [c.name, c.sort, c.parent_id])).toEqual([
      ['Pizza', 0, null],
      ['Drinks', 1, null],
      ['Desserts', 2, null],
    ]);
    // Lemonade's `abc` is not a price: the dish is kept without one (SPEC 5.2), with a warning.
    expect(summary(document)).toEqual([
      ['Margherita', [[null, 1250, 'fixed']]],
      ['Diavola', [[null, 1300, 'fixed']]],
      ['Cola', [[null, 250, 'fixed']]],
      ['Lemonade', [[null, null, 'fixed']]],
      ['Tiramisu', [[null, null, 'fixed']]],
    ]);
    expect(document.items[0]).toMatchObject({
      description: 'Tomato, mozzarella, "fresh" basil',
      calories: 850,
      tags: ['vegetarian', 'classic'],
      images: [{ url: 'https://cdn.example.com/pz1.jpg', width: null, height: null }],
      category_id: document.categories[0]?.id,
      option_names: [],
      variants: [{ name: null, options: {}, sku: 'PZ-1', size: '12"', gtin: null }],
    });
    expect(document.items[2]?.calories).toBe(140);
    const groupsOf = (index: number) =>
      document.items[index]?.modifier_group_ids.map((id) =>
        document.modifier_groups.find((g) => g.id === id),
      );
    expect(groupsOf(0)).toEqual([
      {
        id: expect.any(String),
        name: 'Size',
        min: 0,
        max: 2,
        modifiers: [
          { id: expect.any(String), name: 'Large', price: { amount: 200, currency: 'USD' } },
          { id: expect.any(String), name: 'Small', price: null },
        ],
      },
      {
        id: expect.any(String),
        name: 'Extras',
        min: 0,
        max: 1,
        modifiers: [{ id: expect.any(String), name: 'Basil', price: { amount: 50, currency: 'USD' } }],
      },
    ]);
    expect(groupsOf(1)?.map((g) => g?.name)).toEqual(['Crust']);
    expect(results.catalog).toEqual({
      item_count: 5,
      variant_count: 5,
      category_count: 3,
      modifier_group_count: 4,
      image_count: 1,
    });
    expect(results.sources).toEqual([
      {
        source: SOURCE,
        format: 'csv',
        encoding: 'utf-8',
        profile: 'generic',
        // `$12.50`: the file names its prices' currency.
        currency_source: 'file',
        delimiter: ',',
        header_row: 1,
        columns: {
          Category: 'category',
          Name: 'name',
          Price: 'price',
          Description: 'description',
          SKU: 'sku',
          Size: 'size',
          Calories: 'calories',
          Tags: 'tags',
          Image_URL: 'image_url',
          'Modifier Group': 'modifier_group',
          Modifier: 'modifier',
          Modifier_Price: 'modifier_price',
        },
        ignored_columns: [],
        rows: 12,
        items: 5,
      },
    ]);
    expect(results.warning_count).toBe(5);
    expect(results.warnings?.map((w) => [w.row, w.column, w.code, w.message])).toEqual([
      [8, 'Price', 'not_a_price', expect.stringContaining('"abc" is not a price')],
      [9, 'Name', 'missing_name', 'the row has no name; skipped'],
      [11, null, 'duplicate_item', expect.stringContaining('duplicate item "Cola"')],
      [13, 'modifier', 'duplicate_modifier', expect.stringContaining('duplicate modifier "large"')],
      [
        10,
        'price',
        'no_price',
        expect.stringContaining('"Tiramisu" has modifiers but no row with its own price'),
      ],
    ]);
  });

  test('the document is format 2 and validates against the SPEC 5.5 schema', async () => {
    const { document } = await buildMenu();
    const parsed = parseCatalogDocument(JSON.parse(JSON.stringify(document)));
    expect(parsed).toEqual({ ok: true, document, formatVersion: 2 });
    expect(document).toMatchObject({
      format_version: 2,
      job_id: MENU_JOB_ID,
      job_type: 'new_menu',
      generated_at: NOW.toISOString(),
      language: 'en_us',
      currency: 'USD',
      merchant: { name: 'Luigi’s', address: '1 Main St', token: 'tok_1' },
      image_mappings: [],
    });
  });

  test('deterministic ids: UUIDv5 of the job id and natural keys; same input, same document', async () => {
    const first = await buildMenu();
    const second = await buildMenu();
    expect(second.document).toEqual(first.document);
    const idOf = makeEntityIds(MENU_JOB_ID);
    expect(first.document.categories[0]?.id).toBe(idOf('category', 'pizza'));
    expect(first.document.items[0]?.id).toBe(idOf('item', 'pizza/margherita'));
    expect(first.document.items[0]?.variants[0]?.id).toBe(idOf('variant', 'pizza/margherita#12"'));
    expect(first.document.modifier_groups[0]?.id).toBe(idOf('modifier_group', 'pizza/margherita/size'));
    const other = await buildMenu(undefined, aCatalogJob({ id: '11111111-2222-4333-8444-555555555555' }));
    expect(other.document.items[0]?.id).not.toBe(first.document.items[0]?.id);
  });

  test('chunking of the source does not change the result', async () => {
    const whole = await buildMenu();
    for (const size of [1, 5, 64]) {
      const built = await buildFrom([{ source: SOURCE, body: chunks(fixture('menu.csv'), size) }]);
      expect(built.document).toEqual(whole.document);
      expect(built.results).toEqual(whole.results);
    }
  });

  test('modifier rows may come before the item row; flattened rows repeat the item', async () => {
    const { document, results } = await buildMenu(
      [
        'category,name,price,modifier_group,modifier,modifier_price',
        'Bowls,Poke,,Base,Rice,0',
        'Bowls,Poke,11.00,,,',
        'Bowls,Ramen,9.50,Spice,Mild,0',
        'Bowls,Ramen,9.50,Spice,Hot,0.50',
      ].join('\n'),
    );
    expect(results.warning_count).toBe(0);
    expect(
      document.items.map((i) => [i.name, i.variants[0]?.price?.amount, i.modifier_group_ids.length]),
    ).toEqual([
      ['Poke', 1100, 1],
      ['Ramen', 950, 1],
    ]);
    expect(document.modifier_groups.map((g) => [g.name, g.modifiers.map((m) => m.name)])).toEqual([
      ['Base', ['Rice']],
      ['Spice', ['Mild', 'Hot']],
    ]);
  });

  test('a bad modifier price keeps the modifier without a price, with a warning', async () => {
    const { document, results } = await buildMenu(
      'category,name,price,modifier_group,modifier,modifier_price\nA,B,1,G,M,abc\nA,B,1,G,N,1\n',
    );
    expect(document.modifier_groups[0]?.modifiers.map((m) => [m.name, m.price?.amount ?? null])).toEqual([
      ['M', null],
      ['N', 100],
    ]);
    expect(results.warnings).toEqual([
      expect.objectContaining({ row: 2, column: 'modifier_price', code: 'not_a_price' }),
    ]);
  });

  test('language sets the currency; ja_jp has no minor units and 円 is yen', async () => {
    const { document } = await buildMenu(
      'category,name,price\nRamen,Shoyu,"¥1,200"\nRamen,Miso,1300円\n',
      aCatalogJob({ job_data: { language: 'ja_jp' } }),
    );
    expect(document.currency).toBe('JPY');
    expect(document.items.map((i) => i.variants[0]?.price)).toEqual([
      { amount: 1200, currency: 'JPY' },
      { amount: 1300, currency: 'JPY' },
    ]);
  });
});

describe('menus as people type them', () => {
  test('a café list Name,Price: no category column, items kept uncategorised', async () => {
    const { document, results } = await buildCsv('Name,Price\r\nEspresso,3\r\nLatte,$4.25 \r\n,\r\n');
    expect(summary(document)).toEqual([
      ['Espresso', [[null, 300, 'fixed']]],
      ['Latte', [[null, 425, 'fixed']]],
    ]);
    expect(document.items.every((i) => i.category_id === null)).toBe(true);
    expect(results.warning_count).toBe(0);
  });

  test('a dish listed once per size is one item with a variant per size', async () => {
    const { document, results } = await buildCsv(
      'Category,Dish,Size,Price\nPizza,Margherita,Small,10\nPizza,Margherita,Large,14.50\nPizza,Marinara,,9\n',
    );
    expect(summary(document)).toEqual([
      [
        'Margherita',
        [
          ['Small', 1000, 'fixed'],
          ['Large', 1450, 'fixed'],
        ],
      ],
      ['Marinara', [[null, 900, 'fixed']]],
    ]);
    expect(document.items[0]).toMatchObject({
      option_names: ['Size'],
      variants: [{ options: { Size: 'Small' } }, { options: { Size: 'Large' } }],
    });
    expect(results.warning_count).toBe(0);
  });

  test('one price column per size: a variant per filled column, named by the header', async () => {
    const { document, results } = await buildCsv(
      'Item,Small (10"),Medium (12"),Large (14")\nMargherita,10,12.5,15\nGarlic bread,,6,\n',
    );
    expect(summary(document)).toEqual([
      [
        'Margherita',
        [
          ['Small', 1000, 'fixed'],
          ['Medium', 1250, 'fixed'],
          ['Large', 1500, 'fixed'],
        ],
      ],
      ['Garlic bread', [['Medium', 600, 'fixed']]],
    ]);
    expect(document.items[0]?.variants.map((v) => [v.options, v.size])).toEqual([
      [{ Size: 'Small' }, '10"'],
      [{ Size: 'Medium' }, '12"'],
      [{ Size: 'Large' }, '14"'],
    ]);
    expect(results.sources?.[0]?.columns).toEqual({
      Item: 'name',
      'Small (10")': 'price (Small)',
      'Medium (12")': 'price (Medium)',
      'Large (14")': 'price (Large)',
    });
    expect(results.warning_count).toBe(0);
  });

  test('several prices in a cell, labelled by the header or the cell', async () => {
    const { document, results } = await buildCsv(
      'Wine,Price (glass / bottle)\nChianti,11 / 42\nProsecco,Glass 9 / Bottle 36\nHouse red,8\nMystery,5 / 20 / 60\n',
    );
    expect(summary(document)).toEqual([
      [
        'Chianti',
        [
          ['glass', 1100, 'fixed'],
          ['bottle', 4200, 'fixed'],
        ],
      ],
      [
        'Prosecco',
        [
          ['Glass', 900, 'fixed'],
          ['Bottle', 3600, 'fixed'],
        ],
      ],
      ['House red', [[null, 800, 'fixed']]],
      [
        'Mystery',
        [
          ['1', 500, 'fixed'],
          ['2', 2000, 'fixed'],
          ['3', 6000, 'fixed'],
        ],
      ],
    ]);
    expect(results.warnings).toEqual([expect.objectContaining({ row: 5, code: 'unlabelled_prices' })]);
  });

  test('a header made of sizes (`Glass / Bottle`) labels the prices; a dash means not sold that way', async () => {
    const { document, results } = await buildCsv(
      'Section,Wine,Glass / Bottle\nRed,Barolo,— / 120\nRed,Chianti,11 / 42\n',
    );
    expect(summary(document)).toEqual([
      ['Barolo', [['Bottle', 12000, 'fixed']]],
      [
        'Chianti',
        [
          ['Glass', 1100, 'fixed'],
          ['Bottle', 4200, 'fixed'],
        ],
      ],
    ]);
    expect(results.sources?.[0]?.columns).toEqual({
      Section: 'category',
      Wine: 'name',
      'Glass / Bottle': 'price',
    });
    expect(results.warning_count).toBe(0);
  });

  test('a table with prices whose name column has no known header reads its first column as the name', async () => {
    const { document } = await buildCsv('Pizza,Small,Large\nMargherita,10,14\n');
    expect(summary(document)).toEqual([
      [
        'Margherita',
        [
          ['Small', 1000, 'fixed'],
          ['Large', 1400, 'fixed'],
        ],
      ],
    ]);
  });

  test('market prices keep the dish (pricing variable); text that is not a price keeps it with a warning', async () => {
    const { document, results } = await buildCsv(
      'Name,Price\nLobster,MP\nOysters,Market Price\nCatch,variable\nWings,2 for $5\nApples,$0.69/lb\n',
    );
    expect(summary(document)).toEqual([
      ['Lobster', [[null, null, 'variable']]],
      ['Oysters', [[null, null, 'variable']]],
      ['Catch', [[null, null, 'variable']]],
      ['Wings', [[null, null, 'fixed']]],
      ['Apples', [[null, null, 'fixed']]],
    ]);
    expect(results.warnings?.map((w) => [w.row, w.column, w.code])).toEqual([
      [5, 'Price', 'not_a_price'],
      [6, 'Price', 'not_a_price'],
    ]);
    expect(results.warnings?.[0]?.message).toContain('deal');
    expect(results.warnings?.[1]?.message).toContain('per lb');
  });

  test('a menu source from which no price can be read gets one warning saying so', async () => {
    const { document, results } = await buildCsv('Category,Name,Cost\nA,B,1\n');
    expect(summary(document)).toEqual([['B', [[null, null, 'fixed']]]]);
    expect(results.sources?.[0]?.ignored_columns).toEqual(['Cost']);
    expect(results.warnings).toEqual([
      expect.objectContaining({ row: null, column: null, code: 'no_prices' }),
    ]);
  });

  test('title rows above the header are skipped; the header row is reported', async () => {
    const { document, results } = await buildCsv("Joe's Diner — Menu 2025\n\nItem,Price\nBurger,12\n");
    expect(summary(document)).toEqual([['Burger', [[null, 1200, 'fixed']]]]);
    expect(results.sources?.[0]).toMatchObject({ header_row: 3, rows: 1 });
  });

  test('a source with no name column cannot be read: a clear error naming the problem', async () => {
    const { results, failures } = await buildCsv('Foo,Bar\n1,2\n');
    expect(failures).toEqual([
      {
        source: 'menu.csv',
        code: 'missing_columns',
        message: expect.stringContaining('no header row with a name column'),
      },
    ]);
    expect(results.sources?.[0]).toMatchObject({
      format: 'csv',
      encoding: 'utf-8',
      error: { code: 'missing_columns' },
    });
  });
});

describe('retail CSV', () => {
  const buildRetail = (
    job = aCatalogJob({ job_type: 'new_retail_catalog', job_data: { language: 'en_gb' } }),
  ) => buildFrom([{ source: 'retail.csv', body: fixture('retail.csv') }], job);

  test('category paths, GTIN/UPC, prices, and bad values as warnings', async () => {
    const { document, results } = await buildRetail();
    expect(
      document.items.map((i) => [
        i.name,
        i.variants[0]?.sku,
        i.variants[0]?.gtin,
        pathOf(document, i.category_id).join(' > '),
        i.variants[0]?.price,
      ]),
    ).toEqual([
      ['Whole Milk 1L', 'MLK-1', '036000291452', 'Grocery > Dairy > Milk', { amount: 199, currency: 'GBP' }],
      [
        'Oat Drink',
        'OAT-1',
        '4006381333931',
        'Grocery > Dairy > Alternatives',
        { amount: 249, currency: 'EUR' },
      ],
      ['Bad Check', 'BC-1', null, 'Grocery', { amount: 100, currency: 'GBP' }],
      ['No Id', null, null, '', { amount: 100, currency: 'GBP' }],
      ['Bad gtin no sku', null, null, '', null],
      // Another name under the same barcode in the same file: another product, kept (the barcode is shared).
      ['Dup UPC as GTIN14', 'DUP', '00036000291452', '', null],
      ['Bad price', 'BP-1', null, 'Snacks', null],
      // `$` is a dollar: the job's currency when that is one, else US dollars.
      ['Chips', 'CH-1', null, 'Snacks > Chips', { amount: 350, currency: 'USD' }],
    ]);
    expect(document.categories.map((c) => [c.name, c.sort])).toEqual([
      ['Grocery', 0],
      ['Dairy', 0],
      ['Milk', 0],
      ['Alternatives', 1],
      ['Snacks', 1],
      ['Chips', 0],
    ]);
    expect(document.items[1]).toMatchObject({
      brand: 'Oatly',
      description: 'Oats; water',
      variants: [{ size: '1', unit: 'l' }],
    });
    expect(results.warnings?.map((w) => [w.row, w.column, w.code, w.message])).toEqual([
      [4, 'gtin', 'bad_check_digit', '036000291453 has a wrong check digit (expected 2); ignored'],
      [6, 'gtin', 'invalid_gtin', '12345 must be 8, 12, 13 or 14 digits long (has 5); ignored'],
      [8, 'price', 'not_a_price', expect.stringContaining('"abc" is not a price')],
      [9, 'name', 'missing_name', 'the row has no name; skipped'],
      [
        7,
        'gtin',
        'shared_identifier',
        '2 products share the GTIN "00036000291452" but differ in name, price or id; each is kept',
      ],
    ]);
    expect(results.sources?.[0]).toMatchObject({ format: 'csv', delimiter: ';', rows: 9, items: 8 });
    expect(parseCatalogDocument(JSON.parse(JSON.stringify(document))).ok).toBe(true);
    expect(document.items[0]?.id).toBe(makeEntityIds(RETAIL_JOB_ID)('item', 'gtin:00036000291452'));
  });

  test('a second source with the same product (UPC vs GTIN-14) is not added twice', async () => {
    const { document, results } = await buildFrom(
      [
        { source: 'a.csv', body: 'name,upc\nMilk,036000291452\n' },
        { source: 'b.csv', body: 'name,gtin\nMilk again,00036000291452\nOther,96385074\n' },
      ],
      aCatalogJob({ job_type: 'new_retail_catalog' }),
    );
    expect(results.sources?.map((s) => [s.source, s.rows, s.items])).toEqual([
      ['a.csv', 1, 1],
      ['b.csv', 2, 1],
    ]);
    expect(document.items.map((i) => i.name)).toEqual(['Milk', 'Other']);
  });

  test('barcodes as typed: spaces, dashes, an 11-digit UPC, scientific notation', async () => {
    const { document, results } = await buildCsv(
      'name,barcode\nA,5 901234 123457\nB,0-36000-29145-2\nC,4006381333931\nD,7.61E+12\nE,96385074\nF,36000291452\n',
      aCatalogJob({ job_type: 'new_retail_catalog' }),
      'r.csv',
    );
    expect(document.items.map((i) => [i.name, i.variants[0]?.gtin])).toEqual([
      ['A', '5901234123457'],
      ['B', '036000291452'],
      ['C', '4006381333931'],
      ['D', null],
      ['E', '96385074'],
      // B's barcode as an 11-digit UPC under another name: another product of this file, kept and reported.
      ['F', '036000291452'],
    ]);
    expect(results.warnings?.map((w) => [w.row, w.code])).toEqual([
      [5, 'scientific_notation'],
      [7, 'shared_identifier'],
    ]);
  });

  test('rows of one product in several sizes are one item; the GTIN stays the variant’s identity', async () => {
    const { document } = await buildCsv(
      'name,size,sku,price\nT-Shirt,S,TS-S,10\nT-Shirt,M,TS-M,10\nT-Shirt,L,TS-L,12\nMug,,MUG,8\n',
      aCatalogJob({ job_type: 'new_retail_catalog' }),
      'r.csv',
    );
    expect(summary(document)).toEqual([
      [
        'T-Shirt',
        [
          ['S', 1000, 'fixed'],
          ['M', 1000, 'fixed'],
          ['L', 1200, 'fixed'],
        ],
      ],
      ['Mug', [[null, 800, 'fixed']]],
    ]);
    expect(document.items[0]?.option_names).toEqual(['Size']);
  });
});

describe('client_mappings', () => {
  test('categories and items (by name or sku) get external_id; other keys are ignored', async () => {
    const job = aCatalogJob({
      job_data: {
        client_mappings: {
          categories: { Pizza: 'cat-1', drinks: 'cat-2', Nope: 'x' },
          items: { 'PZ-1': 'item-1', Cola: 42, Diavola: { bad: true } },
          other: { kept: 'elsewhere' },
        },
      },
    });
    const { document, results } = await buildMenu(undefined, job);
    expect(document.categories.map((c) => [c.name, c.external_id])).toEqual([
      ['Pizza', 'cat-1'],
      ['Drinks', 'cat-2'],
      ['Desserts', null],
    ]);
    expect(document.items.map((i) => [i.name, i.external_id])).toEqual([
      ['Margherita', 'item-1'],
      ['Diavola', null],
      ['Cola', '42'],
      ['Lemonade', null],
      ['Tiramisu', null],
    ]);
    expect(document.items[0]?.variants[0]?.external_id).toBe('item-1');
    expect(results.warnings).toContainEqual({
      source: 'client_mappings',
      row: null,
      column: 'items.Diavola',
      code: 'invalid_client_mapping',
      message: expect.stringContaining('must be a non-empty string'),
    });
  });

  test('retail categories match by full path or by name', async () => {
    const { document } = await buildCsv(
      'name,sku,category\nMilk,M1,Grocery>Dairy\n',
      aCatalogJob({
        job_type: 'new_retail_catalog',
        job_data: { client_mappings: { categories: { 'Grocery > Dairy': 'c-dairy', Grocery: 'c-g' } } },
      }),
    );
    expect(document.categories.map((c) => c.external_id)).toEqual(['c-g', 'c-dairy']);
  });
});

describe('limits and sources', () => {
  test('more items than the limit: a clear error', async () => {
    const csv = `category,name,price\n${['a', 'b', 'c', 'd'].map((n) => `X,${n},1`).join('\n')}\n`;
    const error = await buildFrom([{ source: 'big.csv', body: csv }], aCatalogJob(), { maxItems: 3 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CatalogLimitError);
    expect(error).toMatchObject({
      code: 'too_many_items',
      message: expect.stringContaining('more than 3 items'),
    });
  });

  test('warnings: all counted, the first 100 kept', async () => {
    const csv = `category,name,price\n${Array.from({ length: 250 }, (_, i) => `X,n${i},bad`).join('\n')}\n`;
    const { results } = await buildCsv(csv);
    expect(results.warning_count).toBe(251); // 250 rows, and no price could be read at all
    expect(results.warnings).toHaveLength(100);
    expect(results.warnings?.[0]?.row).toBe(2);
  });

  test('a PDF menu is drafted and sent to review; one that cannot be opened says so', async () => {
    async function* pdf() {
      yield Buffer.from('%PDF-1.7\n');
      yield Buffer.alloc(10_000);
    }
    const built = await buildFrom([
      { source: 'https://x.test/menu', body: pdf(), contentType: 'application/pdf' },
    ]);
    expect(built.review).toEqual([
      'https://x.test/menu is a PDF menu in which no dish with a price was found: the operations team reads it',
    ]);
    expect(built.results.sources).toEqual([
      {
        source: 'https://x.test/menu',
        format: 'pdf',
        encoding: null,
        profile: 'text_layer',
        columns: {},
        ignored_columns: [],
        rows: 0,
        items: 0,
        currency_source: null,
        pages: 0,
      },
    ]);
    expect(built.results.warnings?.[0]?.message).toMatch(/the PDF could not be opened/);
  }, 30_000); // the first PDF of a run compiles pdf.js for the test runtime

  test('CSV detected by sniffing, JSON rows, and a catalog document read back', async () => {
    const built = await buildFrom([
      {
        source: 'upload-1',
        body: 'category;name;price\nA;B;1,50\n',
        contentType: 'application/octet-stream',
      },
      {
        source: 'rows.json',
        body: JSON.stringify([
          { Category: 'A', Name: 'C', price: 2.5, tags: ['x', 'y'] },
          { category: 'A', name: 'D', price: { amount: 125, currency: 'EUR' } },
          'not an object',
          { category: 'A', name: 'E', price: '2 for $5' },
        ]),
      },
    ]);
    expect(built.results.sources?.map((s) => [s.source, s.format, s.rows, s.items])).toEqual([
      ['upload-1', 'csv', 1, 1],
      ['rows.json', 'json', 3, 3],
    ]);
    expect(built.document.items.map((i) => [i.name, i.variants[0]?.price, i.tags])).toEqual([
      ['B', { amount: 150, currency: 'USD' }, []],
      ['C', { amount: 250, currency: 'USD' }, ['x', 'y']],
      ['D', { amount: 125, currency: 'EUR' }, []],
      ['E', null, []],
    ]);
    expect(built.results.warnings?.map((w) => [w.source, w.row, w.column, w.code])).toEqual([
      ['rows.json', 3, null, 'invalid_value'],
      ['rows.json', 4, 'price', 'not_a_price'],
    ]);

    // The finished document as a source of another job: same content, this job's ids.
    const otherJob = '11111111-2222-4333-8444-555555555555';
    const next = await buildFrom(
      [{ source: 'prev.json', body: JSON.stringify(built.document) }],
      aCatalogJob({ id: otherJob }),
    );
    expect(next.results.sources).toEqual([
      expect.objectContaining({
        source: 'prev.json',
        format: 'json',
        profile: 'generic',
        rows: 4,
        items: 4,
      }),
    ]);
    expect(summary(next.document)).toEqual(summary(built.document));
    expect(next.document.items[0]?.id).toBe(makeEntityIds(otherJob)('item', 'a/b'));
  });

  test('invalid JSON and invalid documents are clear source errors; other sources are still read', async () => {
    const built = await buildFrom([
      { source: 'bad.json', body: '{"format_version": 1, "items": 3', contentType: 'application/json' },
      { source: 'doc.json', body: '{"format_version": 2}' },
      { source: 'other.json', body: '{"rows": 1}' },
      { source: 'good.csv', body: 'name,price\nTea,2\n' },
    ]);
    expect(built.failures.map((f) => [f.source, f.code])).toEqual([
      ['bad.json', 'source_unreadable'],
      ['doc.json', 'invalid_document'],
      ['other.json', 'source_unreadable'],
    ]);
    expect(built.failures[1]?.message).toContain('/job_type');
    expect(built.itemCount).toBe(1);
  });
});
