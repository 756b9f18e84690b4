import type { CatalogDocument } from '../../../../lambdas/core/catalog/document';
import { flattenRows, MAX_JSON_NESTING } from '../../../../lambdas/core/catalog/sources/json-rows';
import { buildFrom } from '../../../fixtures/catalog/build';

/** JSON menus as small systems write them: categories holding items, items holding their sizes. */

const build = (value: unknown) =>
  buildFrom([{ source: 'menu.json', body: JSON.stringify(value), contentType: 'application/json' }]);

const summary = (document: CatalogDocument) => {
  const names = new Map(document.categories.map((c) => [c.id, c]));
  const path = (id: string | null): string => {
    const parts: string[] = [];
    for (
      let c = id === null ? undefined : names.get(id);
      c;
      c = c.parent_id ? names.get(c.parent_id) : undefined
    )
      parts.unshift(c.name);
    return parts.join(' > ');
  };
  return document.items.map((i) => [
    i.name,
    path(i.category_id),
    i.variants.map((v) => [v.name, v.price?.amount ?? null]),
  ]);
};

describe('flattenRows', () => {
  test('flat rows pass unchanged', () => {
    const rows = [
      { name: 'Tea', price: 2 },
      'not an object',
      { name: 'Cake', price: 4, images: [{ src: 'x' }] },
    ];
    expect(flattenRows(rows)).toEqual(rows);
  });

  test('categories give their path to the items they hold; sizes give one row each', () => {
    expect(
      flattenRows([
        {
          name: 'Drinks',
          sections: [
            {
              title: 'Hot',
              items: [
                {
                  name: 'Latte',
                  sizes: [
                    { name: 'S', price: 3 },
                    { size: 'L', price: 4 },
                  ],
                },
              ],
            },
          ],
        },
      ]),
    ).toEqual([
      { name: 'Latte', category: 'Drinks > Hot', size: 'S', price: 3 },
      { name: 'Latte', category: 'Drinks > Hot', size: 'L', price: 4 },
    ]);
  });

  test('an unpriced item with modifiers or images is an item, not a category', () => {
    const item = { name: 'Build your own', modifiers: [{ name: 'Tofu', price: 2 }] };
    expect(flattenRows([item])).toEqual([item]);
  });
});

describe('nested JSON menus through the pipeline', () => {
  test('{ categories: [{ name, items: [...] }] }: every dish in its category, none of the categories an item', async () => {
    const { document, results } = await build({
      restaurant: "Luigi's",
      categories: [
        {
          name: 'Pizza',
          items: [
            { name: 'Margherita', price: 12 },
            { name: 'Diavola', price: '13.50' },
          ],
        },
        { name: 'Drinks', items: [{ name: 'Cola', price: { amount: 250, currency: 'USD' } }] },
      ],
    });
    expect(summary(document)).toEqual([
      ['Margherita', 'Pizza', [[null, 1200]]],
      ['Diavola', 'Pizza', [[null, 1350]]],
      ['Cola', 'Drinks', [[null, 250]]],
    ]);
    expect(results.warning_count).toBe(0);
  });

  test('{ menu: { sections: [...] } } one level down, with sizes as a list', async () => {
    const { document, results } = await build({
      menu: {
        sections: [
          {
            title: 'Coffee',
            entries: [
              {
                title: 'Latte',
                sizes: [
                  { name: 'Small', price: 3.5 },
                  { name: 'Large', price: 4.5 },
                ],
              },
              { title: 'Espresso', price: 2.5 },
            ],
          },
        ],
      },
    });
    expect(summary(document)).toEqual([
      [
        'Latte',
        'Coffee',
        [
          ['Small', 350],
          ['Large', 450],
        ],
      ],
      ['Espresso', 'Coffee', [[null, 250]]],
    ]);
    expect(results.warning_count).toBe(0);
  });
});

describe('categories nested deeper than any menu', () => {
  const nested = (depth: number, named = true) =>
    `[${(named ? '{"name":"c","items":[' : '{"items":[').repeat(depth)}{"name":"Soup","price":5}${']}'.repeat(depth)}]`;

  test(`up to ${MAX_JSON_NESTING} levels are read; deeper fails the source clearly (never the stack)`, async () => {
    const deepest = await buildFrom([{ source: 'menu.json', body: nested(MAX_JSON_NESTING) }]);
    expect(deepest.document.items.map((i) => i.name)).toEqual(['Soup']);
    const deep = await buildFrom([{ source: 'menu.json', body: nested(20_000) }]);
    expect(deep.failures).toEqual([
      expect.objectContaining({
        code: 'source_unreadable',
        message: expect.stringMatching(/nests categories more than 64 levels/),
      }),
    ]);
    // Nameless wrappers are not categories: the outer element is one row, read without recursion.
    const nameless = await buildFrom([{ source: 'menu.json', body: nested(20_000, false) }]);
    expect(nameless.document.items).toEqual([]);
  });
});
