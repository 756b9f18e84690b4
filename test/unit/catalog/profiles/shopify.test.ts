import { buildRetail, csvOf, profileOf } from './helpers';

// Shopify's product CSV (help.shopify.com, "Using CSV files to manage your products"): rows grouped by
// Handle; Title, Option1 Name/Value, Variant SKU and Variant Price.
const HEADER = [
  'Handle',
  'Title',
  'Body (HTML)',
  'Vendor',
  'Option1 Name',
  'Option1 Value',
  'Variant SKU',
  'Variant Price',
];

describe('Shopify product CSV: products the store keeps apart', () => {
  test('two handles with the same title are two items, with a warning; one handle is one item', async () => {
    expect(profileOf(HEADER)).toBe('shopify');
    const csv = csvOf([
      HEADER,
      ['mug-small', 'Mug', '<p>Small</p>', 'Acme', 'Color', 'Red', 'MS-R', '8.00'],
      ['mug-small', '', '', '', '', 'Blue', 'MS-B', '8.00'],
      ['mug-large', 'Mug', '<p>Large</p>', 'Acme', 'Color', 'Red', 'ML-R', '12.00'],
      ['mug-large', '', '', '', '', 'Blue', 'ML-B', '12.00'],
    ]);
    const { document, results } = await buildRetail(csv);
    const mugs = document.items.filter((item) => item.name === 'Mug');
    expect(
      mugs.map((item) => [item.description, item.variants.map((v) => [v.sku, v.price?.amount])]),
    ).toEqual([
      [
        'Small',
        [
          ['MS-R', 800],
          ['MS-B', 800],
        ],
      ],
      [
        'Large',
        [
          ['ML-R', 1200],
          ['ML-B', 1200],
        ],
      ],
    ]);
    expect(new Set(mugs.map((item) => item.id)).size).toBe(2);
    expect(results.warnings).toEqual([expect.objectContaining({ code: 'shared_name' })]);
  });

  test('the same input gives the same ids', async () => {
    const csv = csvOf([
      HEADER,
      ['a', 'Cap', '', '', '', '', 'C1', '5'],
      ['b', 'Cap', '', '', '', '', 'C2', '6'],
    ]);
    const first = await buildRetail(csv);
    const second = await buildRetail(csv);
    expect(second.document.items.map((i) => i.id)).toEqual(first.document.items.map((i) => i.id));
    expect(first.document.items).toHaveLength(2);
  });
});
