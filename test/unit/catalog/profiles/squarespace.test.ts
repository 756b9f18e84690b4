import { buildRetail, csvOf, itemNamed, pathOf, profileOf, variantsOf } from './helpers';

const HEADER = [
  'Product ID [Non Editable]',
  'Variant ID [Non Editable]',
  'Product Type [Non Editable]',
  'Product Page',
  'Product URL',
  'Title',
  'Description',
  'SKU',
  'Option Name 1',
  'Option Value 1',
  'Option Name 2',
  'Option Value 2',
  'Price',
  'Sale Price',
  'On Sale',
  'Stock',
  'Categories',
  'Tags',
  'Weight',
  'Visible',
  'Hosted Image URLs',
];
const row = (cells: Partial<Record<(typeof HEADER)[number], string>>) => HEADER.map((h) => cells[h] ?? '');

describe('Squarespace product CSV', () => {
  test.each([
    [HEADER, 'squarespace'],
    [
      ['Title', 'SKU', 'Price', 'Product Type [Non Editable]', 'Visible', 'Product URL', 'Hosted Image URLs'],
      'squarespace',
    ],
    [['Title', 'SKU', 'Price', 'Categories', 'Tags'], 'generic'],
  ])('%j is recognised as %s', (headers, profile) => {
    expect(profileOf(headers)).toBe(profile);
  });

  test('rows sharing a Product ID are one product; the option names of its first row name every variant', async () => {
    const csv = csvOf([
      HEADER,
      row({
        'Product ID [Non Editable]': 'p1',
        'Product Type [Non Editable]': 'PHYSICAL',
        Title: 'Tote',
        Description: '<p>Canvas</p>',
        SKU: 'TOTE-S-N',
        'Option Name 1': 'Size',
        'Option Value 1': 'Small',
        'Option Name 2': 'Color',
        'Option Value 2': 'Natural',
        Price: '30.00',
        Categories: 'Bags > Totes, Gifts',
        Tags: 'canvas, eco',
        'Hosted Image URLs':
          'https://img.test/tote-1.jpg\nhttps://img.test/tote-2.jpg https://img.test/tote-3.jpg',
      }),
      row({
        'Product ID [Non Editable]': 'p1',
        SKU: 'TOTE-L-N',
        'Option Value 1': 'Large',
        'Option Value 2': 'Natural',
        Price: '36.00',
        'Sale Price': '20.00',
        'On Sale': 'Yes',
      }),
      row({ 'Product ID [Non Editable]': 'p2', Title: 'Gift Card', Price: '25.00', Categories: 'Gifts' }),
    ]);
    const { document, results } = await buildRetail(csv);
    const tote = itemNamed(document, 'Tote');
    expect(variantsOf(tote)).toEqual([
      ['Small / Natural', { Size: 'Small', Color: 'Natural' }, 'TOTE-S-N', 3000, 'USD'],
      ['Large / Natural', { Size: 'Large', Color: 'Natural' }, 'TOTE-L-N', 3600, 'USD'],
    ]);
    expect(tote?.images.map((i) => i.url)).toEqual([
      'https://img.test/tote-1.jpg',
      'https://img.test/tote-2.jpg',
      'https://img.test/tote-3.jpg',
    ]);
    expect(tote).toMatchObject({ description: 'Canvas', tags: ['canvas', 'eco'] });
    expect(pathOf(document, tote)).toEqual(['Bags', 'Totes']);
    expect(variantsOf(itemNamed(document, 'Gift Card'))).toEqual([[null, {}, null, 2500, 'USD']]);
    expect(results.warning_count).toBe(0);
    expect(results.sources?.[0]?.ignored_columns).toEqual([
      'Variant ID [Non Editable]',
      'Product Type [Non Editable]',
      'Product Page',
      'Product URL',
      'Sale Price',
      'On Sale',
      'Stock',
      'Weight',
      'Visible',
    ]);
  });

  test('a file made for import (no ids): a row with a Title starts a product, rows without one continue it', async () => {
    const csv = csvOf([
      [
        'Product Type [Non Editable]',
        'Title',
        'SKU',
        'Option Name 1',
        'Option Value 1',
        'Price',
        'GTIN',
        'Hosted Image URLs',
      ],
      ['PHYSICAL', 'Candle', 'C-FIG', 'Scent', 'Fig', '18', '036000291452', 'https://img.test/candle.jpg'],
      ['', '', 'C-SEA', '', 'Sea Salt', '18', '', ''],
      ['PHYSICAL', 'Matches', 'M-1', '', '', '4', '', ''],
    ]);
    const { document } = await buildRetail(csv);
    expect(document.items.map((i) => [i.name, variantsOf(i)])).toEqual([
      [
        'Candle',
        [
          ['Fig', { Scent: 'Fig' }, 'C-FIG', 1800, 'USD'],
          ['Sea Salt', { Scent: 'Sea Salt' }, 'C-SEA', 1800, 'USD'],
        ],
      ],
      ['Matches', [[null, {}, 'M-1', 400, 'USD']]],
    ]);
    expect(document.items[0]?.variants[0]?.gtin).toBe('036000291452');
  });
});
