import { readFileSync } from 'node:fs';
import * as fc from 'fast-check';
import { SYNTHETIC_OPTION } from '../../../../lambdas/core/catalog/export/rows';
import {
  type CatalogDocument,
  type Item,
  makeEntityIds,
  parseCatalogDocument,
} from '../../../../lambdas/core/catalog/index';
import type { ExportWarning } from '../../../../lambdas/core/model';
import type { ExportFormat } from '../../../../lambdas/core/schemas/export';
import { buildFrom } from '../../../fixtures/catalog/build';
import { aCatalogJob } from '../../../fixtures/catalog/jobs';
import { exportDocument } from '../../../helpers/export-roundtrip';

/**
 * Round trip (issue 26): a catalog exported in a format the service also reads, read back as a catalog
 * source, is the same catalog except what the export's warnings listed. Compared item by item (by name),
 * order-insensitive: each field a format carries must come back equal; a field it does not carry must be
 * named in a warning.
 */

const READ_BACK: readonly ExportFormat[] = [
  'shopify_csv',
  'woocommerce_csv',
  'square_csv',
  'google_merchant_tsv',
  'meta_catalog_csv',
  'csv',
  'xlsx',
];

const LINK = 'https://shop.example/products/{handle}';
const retailJob = () => aCatalogJob({ job_type: 'new_retail_catalog' });

const readBack = async (document: CatalogDocument, format: ExportFormat) => {
  const out = await exportDocument(document, format, {
    linkTemplate: format === 'google_merchant_tsv' || format === 'meta_catalog_csv' ? LINK : undefined,
  });
  const ext = format === 'xlsx' ? 'xlsx' : format === 'google_merchant_tsv' ? 'tsv' : 'csv';
  const back = await buildFrom(
    out.files.map((body, i) => ({ source: `export-${i}.${ext}`, body, name: `export-${i}.${ext}` })),
    retailJob(),
  );
  return { out, back: back.document, readWarnings: back.results.warnings ?? [] };
};

const pathOf = (document: CatalogDocument, id: string | null): string => {
  const names: string[] = [];
  for (let at = document.categories.find((c) => c.id === id); at; ) {
    names.unshift(at.name);
    at = document.categories.find((c) => c.id === at?.parent_id);
  }
  return names.join(' > ');
};

const warned = (warnings: readonly ExportWarning[], field: string): boolean =>
  warnings.some((w) => w.field === field || w.field?.startsWith(`${field}.`));

/** A variant's name when its options are not what tells it apart (or were not carried). */
const variantName = (v: Item['variants'][number], optionsKept: boolean): string | null | undefined => {
  const values = Object.entries(v.options).filter(([o]) => o !== SYNTHETIC_OPTION);
  if (values.length > 0 && optionsKept) return undefined;
  return v.name ?? (values.length > 0 ? values.map(([, value]) => value).join(' / ') : null);
};

/** What of an item a format must bring back, given what its warnings say it changed or left out. */
const view = (document: CatalogDocument, item: Item, warnings: readonly ExportWarning[]) => {
  const keep = (field: string) => !warned(warnings, field);
  const flat = (text: string | null) =>
    text === null ? null : keep('description') ? text : text.replace(/\s+/g, ' ').trim();
  return {
    name: item.name,
    category: keep('category') ? pathOf(document, item.category_id) : undefined,
    description: keep('description') ? item.description : flat(item.description),
    brand: keep('brand') ? item.brand : undefined,
    tags: keep('tags') ? item.tags : undefined,
    images: keep('images') ? item.images.map((i) => i.url) : undefined,
    // `Option` is the option a writer gives named variants of an item without options (rows.ts).
    options: keep('option_names')
      ? item.option_names.filter((o) => o !== SYNTHETIC_OPTION).sort()
      : undefined,
    variants: item.variants
      .map((v) => ({
        label: variantName(v, keep('option_names')),
        options: keep('option_names')
          ? JSON.stringify(
              Object.entries(v.options)
                .filter(([o]) => o !== SYNTHETIC_OPTION)
                .sort(),
            )
          : undefined,
        sku: v.sku,
        gtin: v.gtin,
        price: keep('variants.price') ? (v.price?.amount ?? null) : undefined,
        images: keep('variant_images') && keep('images') ? v.images.map((i) => i.url) : undefined,
      }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  };
};

const views = (document: CatalogDocument, warnings: readonly ExportWarning[], left: ReadonlySet<string>) =>
  document.items
    .filter((item) => !left.has(item.name))
    .map((item) => view(document, item, warnings))
    .sort((a, b) => a.name.localeCompare(b.name));

/** Items an export left out (feeds leave out offers without a price or an image; warned as left_out). */
const leftOut = (document: CatalogDocument, format: ExportFormat, warnings: readonly ExportWarning[]) =>
  new Set(
    document.items
      .filter(
        (item) =>
          (format === 'google_merchant_tsv' || format === 'meta_catalog_csv') &&
          warnings.some((w) => w.code === 'left_out') &&
          item.variants.every((v) => v.price === null || (v.images.length === 0 && item.images.length === 0)),
      )
      .map((item) => item.name),
  );

const expectRoundTrip = async (document: CatalogDocument, format: ExportFormat) => {
  const { out, back } = await readBack(document, format);
  const left = leftOut(document, format, out.warnings);
  // Feeds invent what their targets require (a brand, a description, an offer id): named in the warnings.
  const feed = format === 'google_merchant_tsv' || format === 'meta_catalog_csv';
  const adjust = (v: ReturnType<typeof view>) =>
    feed
      ? {
          ...v,
          brand: undefined,
          description: undefined,
          // A feed's offer carries an image (its own, else the item's), read back as the variant's.
          variants: v.variants.map((x) => ({ ...x, sku: undefined, images: undefined })),
        }
      : v;
  // Square groups rows by item name: items sharing a name got their category added (warned).
  const renamed = out.warnings.some((w) => w.code === 'changed' && w.field === 'name');
  const read = views(back, out.warnings, new Set()).map((v) =>
    renamed ? { ...v, name: v.name.replace(/ \([^)]*\)$/, '') } : v,
  );
  expect({ format, items: read.map(adjust).sort((a, b) => a.name.localeCompare(b.name)) }).toEqual({
    format,
    items: views(document, out.warnings, left).map(adjust),
  });
  if (feed) {
    for (const item of document.items.filter((i) => !left.has(i.name))) {
      if (item.brand === null) expect(warned(out.warnings, 'brand')).toBe(true);
      if (item.description === null) expect(warned(out.warnings, 'description')).toBe(true);
    }
  }
};

const FIXTURES: readonly [string, ExportFormat][] = [
  ['shopify-products-classic.csv', 'shopify_csv'],
  ['shopify-products-2025.csv', 'shopify_csv'],
  ['woocommerce-products.csv', 'woocommerce_csv'],
  ['google-merchant-feed.tsv', 'google_merchant_tsv'],
  ['meta-catalog-template.csv', 'meta_catalog_csv'],
  ['square-item-library-cafe.csv', 'square_csv'],
  ['retail-barcodes.csv', 'csv'],
  ['retail-brand-categories.csv', 'xlsx'],
];

describe('export round trip: every format the service also reads gives the same catalog back', () => {
  it.each(FIXTURES)('%s → every read-back format', async (fixture) => {
    const body = readFileSync(`test/fixtures/merchant-files/${fixture}`);
    const built = await buildFrom([{ source: fixture, body, name: fixture }], retailJob());
    expect(built.document.items.length).toBeGreaterThan(0);
    for (const format of READ_BACK) await expectRoundTrip(built.document, format);
  });

  it.each(READ_BACK)('%s: text a spreadsheet would run as a formula comes back as it was', async (format) => {
    const id = makeEntityIds('8e9c4d1a-3b2f-4c6d-9e8f-7a6b5c4d3e2f');
    const itemId = id('item', '=1+1');
    const parsed = parseCatalogDocument({
      format_version: 2,
      job_id: '8e9c4d1a-3b2f-4c6d-9e8f-7a6b5c4d3e2f',
      job_type: 'new_retail_catalog',
      generated_at: '2025-01-02T03:04:05.000Z',
      language: 'en_us',
      currency: 'USD',
      merchant: { name: 'Test Shop', address: null, token: null },
      categories: [{ id: id('category', '@Home'), name: '@Home', parent_id: null, sort: 0 }],
      items: [
        {
          id: itemId,
          name: '=1+1',
          description: '+ Fresh, - salt',
          category_id: id('category', '@Home'),
          brand: '@brand',
          tags: ['-sale'],
          images: [{ url: `https://img.example/${itemId}.jpg`, width: null, height: null }],
          variants: [
            { id: id('variant', `${itemId}/0`), sku: '-SKU-1', price: { amount: 500, currency: 'USD' } },
          ],
        },
      ],
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    await expectRoundTrip(parsed.document, format);
  });

  const WORDS = [
    'Tee',
    'Mug',
    'Crème',
    'brûlée',
    "O'Brien's",
    'Café & Co',
    '日本茶',
    'Wallet,',
    'Tan',
    'x<b>y',
    'Ø',
  ];
  const text = fc
    .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 })
    .map((words) => words.join(' '));
  const catalogArb = fc
    .record({
      categories: fc.array(text, { minLength: 1, maxLength: 3 }),
      items: fc.array(
        fc.record({
          name: text,
          description: fc.option(
            fc.constantFrom('Soft, warm.', 'Line one\nLine two', 'Mind the "quotes", & the commas'),
            {
              nil: null,
            },
          ),
          brand: fc.option(fc.constantFrom('Northwind', 'Hearth & Kiln'), { nil: null }),
          tags: fc.uniqueArray(fc.constantFrom('gift', 'summer', 'café', 'soft, warm'), { maxLength: 2 }),
          image: fc.boolean(),
          sizes: fc.uniqueArray(fc.constantFrom('S', 'M', 'L', 'XL'), { minLength: 1, maxLength: 3 }),
          price: fc.integer({ min: 1, max: 99_999 }),
          category: fc.nat(),
        }),
        { minLength: 1, maxLength: 8 },
      ),
    })
    .map(({ categories, items }): CatalogDocument => {
      const id = makeEntityIds('8e9c4d1a-3b2f-4c6d-9e8f-7a6b5c4d3e2f');
      const names = [...new Set(categories)];
      const seen = new Set<string>();
      const unique = items.filter(
        (item) => !seen.has(item.name.toLowerCase()) && seen.add(item.name.toLowerCase()),
      );
      let sku = 0;
      const document = {
        format_version: 2,
        job_id: '8e9c4d1a-3b2f-4c6d-9e8f-7a6b5c4d3e2f',
        job_type: 'new_retail_catalog',
        generated_at: '2025-01-02T03:04:05.000Z',
        language: 'en_us',
        currency: 'USD',
        merchant: { name: 'Test Shop', address: null, token: null },
        categories: names.map((name, sort) => ({ id: id('category', name), name, parent_id: null, sort })),
        items: unique.map((item) => {
          const itemId = id('item', item.name);
          const several = item.sizes.length > 1;
          return {
            id: itemId,
            name: item.name,
            description: item.description,
            category_id: id('category', names[item.category % names.length] as string),
            brand: item.brand,
            tags: item.tags,
            images: item.image
              ? [{ url: `https://img.example/${itemId}.jpg`, width: null, height: null }]
              : [],
            option_names: several ? ['Size'] : [],
            variants: item.sizes.map((size, i) => {
              sku += 1;
              return {
                id: id('variant', `${itemId}/${size}`),
                name: several ? size : null,
                options: several ? { Size: size } : {},
                sku: `SKU-${sku}`,
                price: { amount: item.price + i * 100, currency: 'USD' },
              };
            }),
          };
        }),
      };
      const parsed = parseCatalogDocument(document);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
      return parsed.document;
    });

  it.each(READ_BACK)(
    '%s: property over generated catalogs',
    async (format) => {
      await fc.assert(
        fc.asyncProperty(catalogArb, (document) => expectRoundTrip(document, format)),
        { numRuns: 25 },
      );
    },
    60_000,
  );
});
