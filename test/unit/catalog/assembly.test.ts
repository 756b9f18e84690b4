import fc from 'fast-check';
import { CatalogAssembler } from '../../../lambdas/core/catalog/assembly/assembler';
import { menuIdentity, retailIdentity } from '../../../lambdas/core/catalog/assembly/identity';
import type { CatalogDocument } from '../../../lambdas/core/catalog/document';
import type { DraftItem } from '../../../lambdas/core/catalog/draft';
import { makeEntityIds } from '../../../lambdas/core/catalog/ids';
import type { CatalogWarning } from '../../../lambdas/core/catalog/warnings';
import { buildCsv, buildFrom } from '../../fixtures/catalog/build';
import { aCatalogJob, MENU_JOB_ID } from '../../fixtures/catalog/jobs';

const USD = (amount: number) => ({ amount, currency: 'USD' });
const draft = (over: Partial<DraftItem> = {}): DraftItem => ({
  kind: 'item',
  categoryPath: ['Pizza'],
  name: 'Margherita',
  variants: [{ price: USD(1000) }],
  provenance: { source: 'menu.csv', row: 2 },
  ...over,
});

const assemble = (drafts: DraftItem[], identity = menuIdentity) => {
  const warnings: CatalogWarning[] = [];
  const assembler = new CatalogAssembler({ jobId: MENU_JOB_ID, identity, warn: (w) => warnings.push(w) });
  for (const d of drafts) assembler.add(d, 'menu.csv');
  return { ...assembler.finish(), warnings };
};

describe('CatalogAssembler', () => {
  test('drafts of one item merge: variants added, fields filled, tags and images joined', () => {
    const { items, categories, warnings } = assemble([
      draft({ variants: [{ size: 'Small', price: USD(1000) }], tags: ['veg'] }),
      draft({
        name: 'MARGHERITA',
        description: 'Tomato',
        variants: [{ size: 'Large', price: USD(1400) }],
        tags: ['Veg', 'classic'],
        images: [{ url: 'https://a.test/m.jpg' }],
      }),
    ]);
    expect(categories.map((c) => c.name)).toEqual(['Pizza']);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      name: 'Margherita',
      description: 'Tomato',
      tags: ['veg', 'classic'],
      images: [{ url: 'https://a.test/m.jpg', width: null, height: null }],
      option_names: ['Size'],
      variants: [
        { name: 'Small', options: { Size: 'Small' }, size: 'Small', price: USD(1000) },
        { name: 'Large', options: { Size: 'Large' }, size: 'Large', price: USD(1400) },
      ],
    });
    expect(warnings).toEqual([]);
  });

  test('a repeated variant is a duplicate, unless the draft only repeats it to add a modifier', () => {
    const { items, modifierGroups, warnings } = assemble([
      draft(),
      draft({ modifierGroups: [{ name: 'Extras', modifiers: [{ name: 'Basil', price: USD(50) }] }] }),
      draft({ provenance: { source: 'menu.csv', row: 9 } }),
    ]);
    expect(items[0]?.variants).toHaveLength(1);
    expect(modifierGroups.map((g) => [g.name, g.min, g.max, g.modifiers.map((m) => m.name)])).toEqual([
      ['Extras', 0, 1, ['Basil']],
    ]);
    expect(warnings).toEqual([
      {
        source: 'menu.csv',
        row: 9,
        column: null,
        code: 'duplicate_item',
        message: 'duplicate item "Margherita" in category "Pizza"; skipped',
      },
    ]);
  });

  test('retail: a GTIN is one product across the catalog (UPC-12 = GTIN-14); the duplicate is reported', () => {
    const { items, warnings } = assemble(
      [
        draft({ categoryPath: [], name: 'Milk', variants: [{ gtin: '036000291452', sku: 'M1' }] }),
        draft({
          categoryPath: ['Dairy'],
          name: 'Milk 1L',
          variants: [{ gtin: '00036000291452' }],
          provenance: { source: 'b.csv', row: 4 },
        }),
        draft({ categoryPath: [], name: 'Milk', variants: [{ sku: 'M2' }] }),
      ],
      retailIdentity,
    );
    expect(items.map((i) => [i.name, i.variants.map((v) => v.sku)])).toEqual([
      ['Milk', ['M1']],
      ['Milk', ['M2']],
    ]);
    expect(warnings).toEqual([
      expect.objectContaining({ source: 'b.csv', row: 4, code: 'duplicate_product' }),
    ]);
  });

  test('drafts from any reader are held to the document’s limits', () => {
    const { items, warnings } = assemble([
      draft({ name: '   ' }),
      draft({ name: 'x'.repeat(1001) }),
      draft({
        name: 'Ok',
        categoryPath: ['  ', 'Mains'],
        images: [{ url: 'javascript:alert(1)' }, { url: 'https://a.test/1.jpg', width: -3 }],
        tags: ['t'.repeat(300), 'fine'],
        variants: [{ gtin: '123', price: { amount: 1.5, currency: 'usd' } }],
        calories: 12.5,
      }),
    ]);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      name: 'Ok',
      images: [{ url: 'https://a.test/1.jpg', width: null, height: null }],
      tags: ['fine'],
      calories: null,
      variants: [{ gtin: null, price: null }],
    });
    expect(warnings.map((w) => w.code)).toEqual([
      'missing_name',
      'too_long',
      'invalid_calories',
      'too_long',
      'invalid_url',
      'invalid_gtin',
      'invalid_price',
    ]);
  });

  test('an item only modifier rows name gets a variant without a price, with a warning', () => {
    const { items, warnings } = assemble([
      draft({ variants: [], modifierGroups: [{ name: 'Size', modifiers: [{ name: 'L' }] }] }),
    ]);
    expect(items[0]?.variants).toEqual([
      expect.objectContaining({ name: null, price: null, pricing: 'fixed' }),
    ]);
    expect(items[0]?.variants[0]?.id).toBe(makeEntityIds(MENU_JOB_ID)('variant', 'pizza/margherita#'));
    expect(warnings).toEqual([expect.objectContaining({ code: 'no_price', row: 2 })]);
  });
});

/** Ids of a document by what they identify, for comparing documents whatever their order. */
const idsByContent = (document: CatalogDocument) => {
  const category = new Map(document.categories.map((c) => [c.id, c.name]));
  return {
    categories: new Set(document.categories.map((c) => `${c.name}=${c.id}`)),
    items: new Set(document.items.map((i) => `${category.get(i.category_id ?? '')}/${i.name}=${i.id}`)),
    variants: new Set(document.items.flatMap((i) => i.variants.map((v) => `${i.name}/${v.name}=${v.id}`))),
    groups: new Set(document.modifier_groups.map((g) => `${g.name}=${g.id}`)),
  };
};

const menuRow = fc.record({
  category: fc.constantFrom('Pizza', 'Drinks', 'Desserts'),
  name: fc.constantFrom('Margherita', 'Diavola', 'Cola', 'Tiramisu', 'Soup'),
  size: fc.constantFrom('', 'Small', 'Large'),
  price: fc.option(fc.integer({ min: 0, max: 99_99 }), { nil: null }),
  modifier: fc.option(fc.constantFrom('Basil', 'Olives', 'Ice'), { nil: null }),
});
type MenuRow = typeof menuRow extends fc.Arbitrary<infer T> ? T : never;

const menuCsv = (rows: readonly MenuRow[]) =>
  [
    'category,name,size,price,modifier_group,modifier,modifier_price',
    ...rows.map((r) =>
      [
        r.category,
        r.name,
        r.size,
        r.price === null ? '' : (r.price / 100).toFixed(2),
        r.modifier ? 'Extras' : '',
        r.modifier ?? '',
        r.modifier ? '0.50' : '',
      ].join(','),
    ),
  ].join('\n');

describe('properties', () => {
  test('the order of the rows changes no id', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .array(menuRow, { minLength: 1, maxLength: 25 })
          .chain((rows) =>
            fc.tuple(
              fc.constant(rows),
              fc.shuffledSubarray(rows, { minLength: rows.length, maxLength: rows.length }),
            ),
          ),
        async ([rows, shuffled]) => {
          const a = await buildCsv(menuCsv(rows));
          const b = await buildCsv(menuCsv(shuffled));
          expect(idsByContent(b.document)).toEqual(idsByContent(a.document));
        },
      ),
      { numRuns: 60 },
    );
  });

  test('a format 2 document read back as a source of its own job is the same document', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(menuRow, { minLength: 1, maxLength: 25 }), async (rows) => {
        const first = await buildCsv(menuCsv(rows));
        const again = await buildFrom(
          [{ source: 'catalog.json', body: JSON.stringify(first.document) }],
          aCatalogJob(),
        );
        expect(again.document).toEqual(first.document);
        expect(
          again.results.warnings?.filter((w) => w.code !== 'no_prices' && w.code !== 'no_price'),
        ).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});
