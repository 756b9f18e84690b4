import { buildRetail, csvOf, itemNamed, pathOf, profileOf, variantsOf } from './helpers';

const HEADER = [
  'Name',
  'Description',
  'Status',
  'Price',
  'On sale',
  'Category',
  'Option 1',
  'Option 1 Quantity',
  'Option 1 Price',
  'Option 2',
  'Option 2 Quantity',
  'Option 2 Price',
  'Option 3',
  'Option 3 Quantity',
  'Option 3 Price',
  'Image 1',
  'Image 2',
  'Image 3',
  'Permalink',
];
const row = (cells: Partial<Record<(typeof HEADER)[number], string>>) => HEADER.map((h) => cells[h] ?? '');

describe('Big Cartel product export', () => {
  test.each([
    [HEADER, 'bigcartel'],
    [['Name', 'Price', 'Category', 'Option 1', 'Option 1 Quantity', 'Image 1'], 'bigcartel'],
    [['Name', 'Price', 'Option1', 'Option1 Quantity'], 'bigcartel'],
    // Ordinary sheets: options without their quantities, quantities without options, no name or price.
    [['Name', 'Price', 'Option 1', 'Option 2', 'Image 1', 'Image 2'], 'generic'],
    [['Name', 'Price', 'Quantity', 'Option'], 'generic'],
    [['Name', 'Price', 'Option 1', 'Option 2 Quantity'], 'generic'],
    [['Title', 'Price', 'Option 1', 'Option 1 Quantity'], 'generic'],
    [['Name', 'Option 1', 'Option 1 Quantity'], 'generic'],
  ])('%j is recognised as %s', (headers, profile) => {
    expect(profileOf(headers)).toBe(profile);
  });

  test('each non-empty option a variant at its own price or the product price; every image in order', async () => {
    const csv = csvOf([
      HEADER,
      row({
        Name: 'Logo Tee',
        Description: 'Heavyweight cotton.',
        Status: 'active',
        Price: '25.00',
        'On sale': 'false',
        Category: 'Shirts, Featured',
        'Option 1': 'Small',
        'Option 1 Quantity': '4',
        'Option 2': 'Medium',
        'Option 2 Quantity': '0',
        'Option 2 Price': '27.50',
        'Option 3': 'Large',
        'Option 3 Quantity': '2',
        'Image 1': 'https://images.bigcartel.test/tee-front.jpg',
        'Image 2': 'https://images.bigcartel.test/tee-back.jpg',
        'Image 3': 'https://images.bigcartel.test/tee-front.jpg',
        Permalink: 'logo-tee',
      }),
      row({
        Name: 'Sticker Pack',
        Price: '6',
        Category: 'Stickers',
        'Option 1': 'Default',
        'Option 1 Quantity': '100',
        'Image 2': 'https://images.bigcartel.test/stickers.jpg',
      }),
      row({ Name: 'Zine', Price: '8', 'Option 2': 'Issue 2', 'Option 2 Quantity': '3' }),
      row({ Name: '', Price: '5', 'Option 1': 'One' }),
    ]);
    const { document, results } = await buildRetail(csv);
    expect(results.sources?.[0]?.profile).toBe('bigcartel');
    const tee = itemNamed(document, 'Logo Tee');
    expect(variantsOf(tee)).toEqual([
      ['Small', {}, null, 2500, 'USD'],
      ['Medium', {}, null, 2750, 'USD'],
      ['Large', {}, null, 2500, 'USD'],
    ]);
    expect(tee?.images.map((i) => i.url)).toEqual([
      'https://images.bigcartel.test/tee-front.jpg',
      'https://images.bigcartel.test/tee-back.jpg',
    ]);
    expect(tee?.description).toBe('Heavyweight cotton.');
    expect(pathOf(document, tee)).toEqual(['Shirts']);
    const stickers = itemNamed(document, 'Sticker Pack');
    expect(variantsOf(stickers)).toEqual([[null, {}, null, 600, 'USD']]);
    expect(stickers?.images.map((i) => i.url)).toEqual(['https://images.bigcartel.test/stickers.jpg']);
    expect(variantsOf(itemNamed(document, 'Zine'))).toEqual([['Issue 2', {}, null, 800, 'USD']]);
    expect(document.items).toHaveLength(3);
    expect(results.warnings).toEqual([
      expect.objectContaining({ row: 5, column: 'Name', code: 'missing_name' }),
    ]);
    expect(results.sources?.[0]?.ignored_columns).toEqual([
      'Status',
      'On sale',
      'Option 1 Quantity',
      'Option 2 Quantity',
      'Option 3 Quantity',
      'Permalink',
    ]);
  });

  test('a product without options is one variant at its price', async () => {
    const csv = csvOf([
      ['Name', 'Description', 'Price', 'Category', 'Option 1', 'Option 1 Quantity', 'Image 1'],
      ['Print', '<p>A3 <b>giclée</b></p>', '40', '', '', '', ''],
    ]);
    const { document } = await buildRetail(csv, 'en_ca');
    const print = itemNamed(document, 'Print');
    expect(variantsOf(print)).toEqual([[null, {}, null, 4000, 'CAD']]);
    expect(print).toMatchObject({ category_id: null, description: 'A3 giclée', images: [] });
  });
});
