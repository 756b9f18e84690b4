import { strFromU8, unzipSync } from 'fflate';
import { csvLine, decimalAmount, slugOf } from '../../../../lambdas/core/catalog/export/text';
import {
  type CatalogDocument,
  type Item,
  makeEntityIds,
  parseCatalogDocument,
} from '../../../../lambdas/core/catalog/index';
import { exportDocument } from '../../../helpers/export-roundtrip';

/** Each writer: its header, escaping, the target's limits, what it cannot carry, and splitting. */

const JOB = '1f0e2d3c-4b5a-4697-8a8b-9c0d1e2f3a4b';
const id = makeEntityIds(JOB);

type ItemSpec = Partial<Omit<Item, 'variants'>> & {
  name: string;
  variants?: {
    name?: string | null;
    options?: Record<string, string>;
    sku?: string | null;
    price?: number | null;
  }[];
};

const documentOf = (
  items: ItemSpec[],
  extra: { job_type?: CatalogDocument['job_type']; modifierGroups?: boolean } = {},
): CatalogDocument => {
  const category = id('category', 'pizza');
  const group = id('modifier_group', 'extras');
  const parsed = parseCatalogDocument({
    format_version: 2,
    job_id: JOB,
    job_type: extra.job_type ?? 'new_retail_catalog',
    generated_at: '2025-01-02T03:04:05.000Z',
    language: 'en_us',
    currency: 'USD',
    merchant: { name: 'Joe’s', address: null, token: null },
    categories: [{ id: category, name: 'Pizza' }],
    items: items.map(({ variants, ...item }) => {
      const itemId = id('item', item.name);
      return {
        category_id: category,
        ...item,
        id: itemId,
        modifier_group_ids: extra.modifierGroups ? [group] : [],
        variants: (variants ?? [{}]).map((v, i) => ({
          id: id('variant', `${itemId}/${i}`),
          name: v.name ?? null,
          options: v.options ?? {},
          sku: v.sku ?? null,
          price: v.price === null ? null : { amount: v.price ?? 1250, currency: 'USD' },
          pricing: v.price === null ? 'variable' : 'fixed',
        })),
      };
    }),
    modifier_groups: extra.modifierGroups
      ? [
          {
            id: group,
            name: 'Extras',
            min: 0,
            max: 2,
            modifiers: [
              { id: id('modifier', 'cheese'), name: 'Cheese', price: { amount: 150, currency: 'USD' } },
            ],
          },
        ]
      : [],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.document;
};

const text = (buffer: Buffer | undefined) => (buffer ?? Buffer.alloc(0)).toString('utf8');
const LINK = 'https://shop.example/p/{handle}';

describe('export text helpers', () => {
  it('quotes CSV fields as RFC 4180 says, and formats amounts by their currency', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', ' padded'])).toBe(
      'a,"b,c","say ""hi""","two\nlines"," padded"',
    );
    expect(decimalAmount({ amount: 1250, currency: 'USD' })).toBe('12.50');
    expect(decimalAmount({ amount: 5, currency: 'USD' })).toBe('0.05');
    expect(decimalAmount({ amount: 1200, currency: 'JPY' })).toBe('1200');
    expect(decimalAmount({ amount: 12345, currency: 'BHD' })).toBe('12.345');
    expect(slugOf('Crème Brûlée (6")')).toBe('creme-brulee-6');
    expect(slugOf('日本茶')).toBe('item');
  });
});

describe('shopify_csv', () => {
  it('writes the 2025 header, a row per variant and image, unique handles, and drafts what has no price', async () => {
    const out = await exportDocument(
      documentOf([
        {
          name: 'Margherita',
          images: [
            { url: 'https://img.example/1.jpg', width: null, height: null },
            { url: 'https://img.example/2.jpg', width: null, height: null },
          ],
          option_names: ['Size'],
          variants: [
            { name: 'Small', options: { Size: 'Small' }, price: 1000 },
            { name: 'Large', options: { Size: 'Large' }, price: null },
          ],
        },
        { name: 'Margherita!', tags: ['a, b'] },
        { name: 'x'.repeat(300) },
      ]),
      'shopify_csv',
    );
    const lines = text(out.files[0]).split('\n');
    expect(lines[0]).toBe(
      '\uFEFFTitle,URL handle,Description,Vendor,Product category,Type,Tags,Published on online store,Status,SKU,Barcode,Option1 name,Option1 value,Option2 name,Option2 value,Option3 name,Option3 value,Price,Product image URL,Image position,Variant image URL',
    );
    expect(lines[1]).toMatch(
      /^Margherita,margherita-[0-9a-f]{8},,,,Pizza,,TRUE,draft,,,Size,Small,,,,,10\.00,https:\/\/img\.example\/1\.jpg,1,$/,
    );
    expect(lines[2]).toMatch(/^,margherita-[0-9a-f]{8},,,,,,,,,,,Large,,,,,0\.00,,,$/);
    expect(lines[3]).toMatch(/^,margherita-[0-9a-f]{8},.*https:\/\/img\.example\/2\.jpg,2,$/);
    expect(lines[4]).toContain(',Pizza,a b,TRUE,');
    expect(new Set(lines.slice(1, -1).map((l) => l.split(',')[1])).size).toBe(3 + 0);
    expect(out.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'no_price', field: 'variants.price', count: 1 }),
        expect.objectContaining({ code: 'value_too_long', field: 'name', count: 1 }),
        expect.objectContaining({ code: 'changed', field: 'tags', count: 1 }),
      ]),
    );
  });

  it('lists what it cannot carry, with counts', async () => {
    const out = await exportDocument(
      documentOf([{ name: 'A', calories: 100 }, { name: 'B' }], { modifierGroups: true }),
      'shopify_csv',
    );
    expect(out.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'not_carried', field: 'modifier_groups', count: 2 }),
        expect.objectContaining({ code: 'not_carried', field: 'calories', count: 1 }),
      ]),
    );
  });

  it('splits files over 15 MB, each with the header and whole products', async () => {
    const description = 'd'.repeat(19_000);
    const items = Array.from({ length: 900 }, (_, i) => ({
      name: `Product ${i}`,
      description,
      option_names: ['Size'],
      variants: [
        { options: { Size: 'S' }, sku: `S-${i}` },
        { options: { Size: 'M' }, sku: `M-${i}` },
      ],
    }));
    const out = await exportDocument(documentOf(items), 'shopify_csv');
    expect(out.files.length).toBe(2);
    for (const file of out.files) {
      expect(file.length).toBeLessThanOrEqual(15_000_000);
      expect(text(file).startsWith('\uFEFFTitle,URL handle')).toBe(true);
    }
    expect(out.itemCounts.reduce((a, b) => a + b, 0)).toBe(900);
    // A product's rows are in one file: the second file starts with a product's first row.
    expect(text(out.files[1]).split('\n')[1]).toMatch(/^Product \d+,product-\d+,/);
  });
});

describe('woocommerce_csv', () => {
  it('writes a variable parent with its variations, and escapes commas in lists', async () => {
    const out = await exportDocument(
      documentOf([
        {
          name: 'Tee',
          tags: ['soft, warm'],
          option_names: ['Size'],
          variants: [
            { options: { Size: 'S' }, sku: 'TEE-S' },
            { options: { Size: 'M' }, sku: 'TEE-M' },
          ],
        },
        { name: 'Mug', variants: [{ sku: 'MUG' }] },
      ]),
      'woocommerce_csv',
    );
    const lines = text(out.files[0]).split('\n');
    expect(lines[0]?.startsWith('\uFEFFType,SKU,"GTIN, UPC, EAN, or ISBN",Name,Published')).toBe(true);
    expect(lines[1]).toMatch(/^variable,tee,,Tee,1,,,Pizza,"soft\\, warm",,,,Size,"S, M",1,0/);
    expect(lines[2]).toMatch(/^variation,TEE-S,,Tee - S,1,,12\.50,,,,tee,,Size,S,,0/);
    expect(lines[4]).toMatch(/^simple,MUG,,Mug,1,,12\.50,Pizza/);
  });
});

describe('square_csv', () => {
  it('writes a row per variation, Regular for one form, variable prices, and keeps items of one name apart', async () => {
    const out = await exportDocument(
      documentOf([
        {
          name: 'Latte',
          option_names: ['Size'],
          variants: [{ options: { Size: 'Small' } }, { options: { Size: 'Large' }, price: null }],
        },
        { name: 'Drip', variants: [{ sku: 'DRIP' }] },
        { name: 'Drip!' },
      ]),
      'square_csv',
    );
    const lines = text(out.files[0]).split('\n');
    expect(lines[0]).toBe(
      '\uFEFFToken,Item Name,Variation Name,SKU,Description,Categories,GTIN,Price,Option Name 1,Option Value 1,Option Name 2,Option Value 2,Option Name 3,Option Value 3',
    );
    expect(lines[1]).toBe(',Latte,Small,,,Pizza,,12.50,Size,Small,,,,');
    expect(lines[2]).toBe(',Latte,Large,,,Pizza,,variable,Size,Large,,,,');
    expect(lines[3]).toBe(',Drip (Pizza),Regular,DRIP,,Pizza,,12.50,,,,,,');
    expect(out.warnings).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'changed', field: 'name', count: 2 })]),
    );
  });
});

describe('google_merchant_tsv and meta_catalog_csv', () => {
  it('write offers with link, item_group_id and price, leave out what the target refuses, and say so', async () => {
    const image = [{ url: 'https://img.example/t.jpg', width: null, height: null }];
    const doc = documentOf([
      {
        name: 'Tee',
        description: 'Soft\ttee\nwarm',
        images: image,
        option_names: ['Size', 'Flavor'],
        variants: [
          { options: { Size: 'S', Flavor: 'Mint' }, sku: 'TEE-S' },
          { options: { Size: 'M', Flavor: 'Mint' }, sku: 'TEE-M', price: null },
        ],
      },
      { name: 'No picture' },
    ]);
    const google = await exportDocument(doc, 'google_merchant_tsv', { linkTemplate: LINK });
    const lines = text(google.files[0]).split('\n');
    expect(lines[0]).toBe(
      'id\titem_group_id\ttitle\tdescription\tlink\timage_link\tadditional_image_link\tavailability\tcondition\tprice\tbrand\tgtin\tidentifier_exists\tproduct_type\tcolor\tsize\tmaterial\tpattern',
    );
    const [offer] = lines.slice(1, -1);
    expect(offer?.split('\t')).toEqual([
      'TEE-S',
      expect.stringMatching(/^[0-9a-f-]{36}$/),
      'Tee - Mint',
      'Soft tee warm',
      'https://shop.example/p/tee',
      'https://img.example/t.jpg',
      '',
      'in_stock',
      'new',
      '12.50 USD',
      'Joe’s',
      '',
      'no',
      'Pizza',
      '',
      'S',
      '',
      '',
    ]);
    expect(lines).toHaveLength(3);
    expect(google.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'left_out', field: 'variants.price', count: 1 }),
        expect.objectContaining({ code: 'left_out', field: 'images', count: 1 }),
        expect.objectContaining({ code: 'changed', field: 'brand', count: 2 }),
      ]),
    );
    const meta = await exportDocument(doc, 'meta_catalog_csv', { linkTemplate: LINK });
    const metaLines = text(meta.files[0]).split('\n');
    expect(metaLines[1]).toContain('Flavor:Mint');
    expect(metaLines[1]).toContain('in stock,new,12.50 USD,https://shop.example/p/tee');
  });
});

describe('square_catalog_json', () => {
  it('writes a BatchUpsertCatalogObjects body: categories, modifier lists, items with variations', async () => {
    const out = await exportDocument(
      documentOf([{ name: 'Margherita', variants: [{ price: 1250 }, { name: 'Large', price: null }] }], {
        job_type: 'new_menu',
        modifierGroups: true,
      }),
      'square_catalog_json',
    );
    const body = JSON.parse(text(out.files[0]));
    expect(body.idempotency_key).toMatch(/-1$/);
    const objects = body.batches.flatMap((b: { objects: unknown[] }) => b.objects);
    expect(objects.map((o: { type: string }) => o.type)).toEqual(['CATEGORY', 'MODIFIER_LIST', 'ITEM']);
    const item = objects[2].item_data;
    expect(item.product_type).toBe('FOOD_AND_BEV');
    expect(item.modifier_list_info[0]).toMatchObject({
      min_selected_modifiers: 0,
      max_selected_modifiers: 2,
    });
    expect(item.variations.map((v: { item_variation_data: unknown }) => v.item_variation_data)).toEqual([
      expect.objectContaining({
        pricing_type: 'FIXED_PRICING',
        price_money: { amount: 1250, currency: 'USD' },
      }),
      expect.objectContaining({ name: 'Large', pricing_type: 'VARIABLE_PRICING' }),
    ]);
    expect(item.categories[0].id).toBe(objects[0].id);
  });

  it('keeps batches to 1,000 objects and requests to 10,000, splitting into several bodies', async () => {
    const items = Array.from({ length: 3400 }, (_, i) => ({
      name: `Item ${i}`,
      variants: [{ sku: `A${i}` }, { name: 'B', sku: `B${i}` }],
    }));
    const out = await exportDocument(documentOf(items), 'square_catalog_json');
    expect(out.files).toHaveLength(2);
    for (const file of out.files) {
      const body = JSON.parse(text(file));
      const units = (o: { item_data?: { variations: unknown[] } }) =>
        1 + (o.item_data?.variations.length ?? 0);
      let total = 0;
      for (const batch of body.batches) {
        const n = batch.objects.reduce((sum: number, o: never) => sum + units(o), 0);
        expect(n).toBeLessThanOrEqual(1000);
        total += n;
      }
      expect(total).toBeLessThanOrEqual(10_000);
    }
    expect(out.itemCounts.reduce((a, b) => a + b, 0)).toBe(3400);
  });
});

describe('ubereats_menu_json', () => {
  it('writes menus, categories, items and modifier groups; variants as a required choice', async () => {
    const out = await exportDocument(
      documentOf(
        [
          {
            name: 'Margherita',
            variants: [
              { name: 'Small', price: 1000 },
              { name: 'Large', price: 1400 },
            ],
          },
          { name: 'Lobster', variants: [{ price: null }] },
        ],
        { job_type: 'new_menu', modifierGroups: true },
      ),
      'ubereats_menu_json',
    );
    const menu = JSON.parse(text(out.files[0]));
    const item = menu.items.find(
      (i: { title: { translations: { en_us: string } } }) => i.title.translations.en_us === 'Margherita',
    );
    expect(item.price_info.price).toBe(1000);
    const forms = menu.modifier_groups.find((g: { id: string }) => g.id === item.modifier_group_ids.ids[0]);
    expect(forms.quantity_info.quantity).toEqual({ min_permitted: 1, max_permitted: 1 });
    const large = menu.items.find((i: { id: string }) => i.id === forms.modifier_options[1].id);
    expect(large.price_info.price).toBe(400);
    expect(
      menu.modifier_groups.find(
        (g: { title: { translations: { en_us: string } } }) => g.title.translations.en_us === 'Extras',
      ).quantity_info.quantity,
    ).toEqual({ min_permitted: 0, max_permitted: 2 });
    expect(menu.categories[0].entities).toEqual([{ id: item.id, type: 'ITEM' }]);
    expect(menu.menus[0].category_ids).toEqual([menu.categories[0].id]);
    expect(out.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'left_out', field: 'variants.price', count: 1 }),
      ]),
    );
  });
});

describe('xlsx, csv and changes', () => {
  it('writes an XLSX workbook (a ZIP with the sheet) and a CSV with the same header', async () => {
    const doc = documentOf([{ name: 'A & <B>' }]);
    const book = await exportDocument(doc, 'xlsx');
    expect(book.files[0]?.subarray(0, 2).toString('latin1')).toBe('PK');
    const csv = await exportDocument(doc, 'csv');
    expect(text(csv.files[0]).split('\n')[0]).toBe(
      '\uFEFFitem_id,variant_id,category,name,variant,sku,gtin,price,currency,pricing,size,unit,description,brand,tags,calories,image_url,external_id,modifier_group,modifier,modifier_price',
    );
  });

  it('exports every item as added when the merchant has no earlier catalog', async () => {
    const out = await exportDocument(documentOf([{ name: 'A' }, { name: 'B' }]), 'changes');
    const doc = JSON.parse(text(out.files[0]));
    expect(doc).toMatchObject({ format: 'catalog_changes', since_job_id: null, summary: { items_added: 2 } });
    expect(doc.changes.map((c: { change: string }) => c.change)).toEqual(['added', 'added']);
  });
});

describe('formula-like text (spreadsheet formula injection)', () => {
  const RISKY = '=HYPERLINK("https://evil.example","Click")';
  const risky = () =>
    documentOf([
      { name: RISKY, description: '@SUM(A1)', brand: '+1 Brand', tags: ['-x'], variants: [{ sku: '-5' }] },
    ]);

  it('csv marks cells a spreadsheet would run with an apostrophe, and leaves numbers alone', async () => {
    const out = await exportDocument(risky(), 'csv');
    const row = text(out.files[0]).split('\n')[1] ?? '';
    expect(row).toContain(`"'=HYPERLINK(""https://evil.example"",""Click"")"`);
    expect(row).toContain(",'@SUM(A1),'+1 Brand,'-x,");
    expect(row).toContain(',-5,');
    expect(out.warnings.map((w) => w.code)).not.toContain('formula_like');
  });

  it('xlsx writes every cell as a string, never as a formula', async () => {
    const book = await exportDocument(risky(), 'xlsx');
    const sheet = strFromU8(
      unzipSync(new Uint8Array(book.files[0] ?? []))['xl/worksheets/sheet1.xml'] ?? new Uint8Array(),
    );
    expect(sheet).not.toMatch(/<f[ >]/);
    expect(sheet).toContain(
      't="inlineStr"><is><t xml:space="preserve">=HYPERLINK("https://evil.example","Click")</t>',
    );
  });

  it('woocommerce_csv marks them as its own exporter does (its importer takes the apostrophe off)', async () => {
    const out = await exportDocument(risky(), 'woocommerce_csv');
    expect(text(out.files[0])).toContain(`"'=HYPERLINK(""https://evil.example"",""Click"")"`);
    expect(out.warnings.map((w) => w.code)).not.toContain('formula_like');
  });

  it('a platform that takes cells literally gets them as they are, with a warning naming the columns', async () => {
    const out = await exportDocument(risky(), 'shopify_csv');
    expect(text(out.files[0])).toContain(`"=HYPERLINK(""https://evil.example"",""Click"")"`);
    expect(text(out.files[0])).not.toContain(`'=HYPERLINK`);
    const warning = out.warnings.find((w) => w.code === 'formula_like');
    expect(warning?.message).toMatch(/Title/);
    expect(warning?.count).toBeGreaterThan(0);
  });
});
