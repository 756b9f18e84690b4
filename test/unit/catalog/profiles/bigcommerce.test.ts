import {
  legacyOptions,
  modernOptions,
} from '../../../../lambdas/core/catalog/headers/profiles/bigcommerce-cells';
import { buildRetail, csvOf, itemNamed, pathOf, profileOf, variantsOf } from './helpers';

const LEGACY = [
  'Item Type',
  'Product ID',
  'Product Name',
  'Product Type',
  'Product Code/SKU',
  'Brand Name',
  'Option Set',
  'Product Description',
  'Price',
  'Cost Price',
  'Retail Price',
  'Sale Price',
  'Category',
  'Product Image ID - 1',
  'Product Image File - 1',
  'Product Image URL - 1',
  'Product UPC/EAN',
  'Current Stock Level',
];
const legacyRow = (cells: Partial<Record<(typeof LEGACY)[number], string>>) =>
  LEGACY.map((h) => cells[h] ?? '');

describe('BigCommerce product export', () => {
  test.each([
    [LEGACY, 'bigcommerce'],
    [['Product Name', 'Item Type', 'Price', 'Product SKU', 'Category String'], 'bigcommerce'],
    [
      [
        'Item',
        'ID',
        'Name',
        'Type',
        'SKU',
        'Options',
        'Inventory Tracking',
        'Price',
        'Categories',
        'Image URL (Import)',
      ],
      'bigcommerce',
    ],
    [['Item', 'Name', 'Price', 'Options'], 'generic'],
    [['Item Type', 'Name', 'Price', 'SKU'], 'generic'],
  ])('%j is recognised as %s', (headers, profile) => {
    expect(profileOf(headers)).toBe(profile);
  });

  test('option names of SKU and Rule rows: [S]Size=10 in, several options, no type marker', () => {
    expect(legacyOptions('[S]Size=10 in')).toEqual({ Size: '10 in' });
    expect(legacyOptions('[RB]Color= Black,[S]Size= M')).toEqual({ Color: 'Black', Size: 'M' });
    expect(legacyOptions('Size=Large, Extra')).toEqual({ Size: 'Large, Extra' });
    expect(legacyOptions('Chef knife')).toBeNull();
    expect(modernOptions('Type=Rectangle|Name=Color|Value=BlackType=Rectangle|Name=Size|Value=M')).toEqual({
      Color: 'Black',
      Size: 'M',
    });
    expect(
      modernOptions('Type=Swatch|Name=Color|Value=Red[#FF0000] || Type=Radio|Name=Size|Value=L'),
    ).toEqual({
      Color: 'Red',
      Size: 'L',
    });
  });

  test('SKU rows are the variants of the product above them; Rule rows set or change their prices', async () => {
    const csv = csvOf([
      LEGACY,
      legacyRow({
        'Item Type': 'Product',
        'Product ID': '7',
        'Product Name': 'Field Shirt',
        'Product Code/SKU': 'FS',
        'Brand Name': 'Acme',
        'Product Description': '<p>Oxford &amp; cotton</p>',
        Price: '40.0000',
        'Retail Price': '55.0000',
        Category: 'Clothing/Shirts;Sale',
        'Product Image File - 1': 'k/123/field-shirt__1.jpg',
        'Product Image URL - 1': 'https://cdn.test/field-shirt.jpg',
        'Product UPC/EAN': '036000291452',
      }),
      legacyRow({
        'Item Type': '  SKU',
        'Product ID': '7',
        'Product Name': '[RB]Color=Blue,[S]Size=M',
        'Product Code/SKU': 'FS-B-M',
      }),
      legacyRow({
        'Item Type': '  SKU',
        'Product ID': '7',
        'Product Name': '[RB]Color=Blue,[S]Size=XL',
        'Product Code/SKU': 'FS-B-XL',
      }),
      legacyRow({
        'Item Type': '  SKU',
        'Product ID': '7',
        'Product Name': '[RB]Color=Red,[S]Size=M',
        'Product Code/SKU': 'FS-R-M',
      }),
      legacyRow({
        'Item Type': '  Rule',
        'Product ID': '7',
        'Product Code/SKU': 'FS-B-XL',
        Price: '[ADD]5.0000',
      }),
      legacyRow({
        'Item Type': '  Rule',
        'Product ID': '7',
        'Product Name': '[RB]Color=Red',
        Price: '[REMOVE]2.5000',
      }),
      legacyRow({
        'Item Type': '  Rule',
        'Product ID': '7',
        'Product Code/SKU': 'FS-GONE',
        Price: '[FIXED]1.0000',
      }),
      legacyRow({
        'Item Type': 'Product',
        'Product ID': '8',
        'Product Name': 'Saw',
        'Product Code/SKU': 'SAW',
        Price: '19.5',
        Category: 'Tools\\/Hardware/Saws',
      }),
    ]);
    const { document, results } = await buildRetail(csv);
    const shirt = itemNamed(document, 'Field Shirt');
    expect(variantsOf(shirt)).toEqual([
      ['Blue / M', { Color: 'Blue', Size: 'M' }, 'FS-B-M', 4000, 'USD'],
      ['Blue / XL', { Color: 'Blue', Size: 'XL' }, 'FS-B-XL', 4500, 'USD'],
      ['Red / M', { Color: 'Red', Size: 'M' }, 'FS-R-M', 3750, 'USD'],
    ]);
    expect(shirt).toMatchObject({
      brand: 'Acme',
      description: 'Oxford & cotton',
      option_names: ['Color', 'Size'],
    });
    // The URL, not the file name the export writes beside it; the product's own SKU and UPC are no variant's.
    expect(shirt?.images.map((i) => i.url)).toEqual(['https://cdn.test/field-shirt.jpg']);
    expect(shirt?.variants.map((v) => v.gtin)).toEqual([null, null, null]);
    expect(pathOf(document, shirt)).toEqual(['Clothing', 'Shirts']);
    expect(variantsOf(itemNamed(document, 'Saw'))).toEqual([[null, {}, 'SAW', 1950, 'USD']]);
    expect(pathOf(document, itemNamed(document, 'Saw'))).toEqual(['Tools/Hardware', 'Saws']);
    expect(results.warnings).toEqual([
      expect.objectContaining({ row: 8, column: 'Item Type', code: 'orphan_variant' }),
    ]);
    expect(results.sources?.[0]).toMatchObject({ profile: 'bigcommerce' });
    expect(results.sources?.[0]?.ignored_columns).toEqual(
      expect.arrayContaining([
        'Product Type',
        'Cost Price',
        'Retail Price',
        'Sale Price',
        'Current Stock Level',
      ]),
    );
  });

  test('a rule price that is not one, or leaves a negative price, is reported; a SKU row with no product above it is skipped', async () => {
    const csv = csvOf([
      LEGACY,
      legacyRow({ 'Item Type': 'SKU', 'Product Name': '[S]Size=S', 'Product Code/SKU': 'X-S' }),
      legacyRow({ 'Item Type': 'Product', 'Product Name': 'Cap', Price: '12' }),
      legacyRow({ 'Item Type': 'SKU', 'Product Name': '[S]Size=S', 'Product Code/SKU': 'CAP-S' }),
      legacyRow({ 'Item Type': 'Rule', 'Product Code/SKU': 'CAP-S', Price: '[DOUBLE]3' }),
      legacyRow({ 'Item Type': 'Product', 'Product Name': 'Hat', Price: '10' }),
      legacyRow({ 'Item Type': 'SKU', 'Product Name': '[S]Size=S', 'Product Code/SKU': 'HAT-S' }),
      legacyRow({ 'Item Type': 'Rule', 'Product Code/SKU': 'HAT-S', Price: '[REMOVE]12' }),
      legacyRow({ 'Item Type': 'Bundle', 'Product Name': 'Hat + Cap' }),
    ]);
    const { document, results } = await buildRetail(csv);
    expect(variantsOf(itemNamed(document, 'Cap'))).toEqual([['S', { Size: 'S' }, 'CAP-S', 1200, 'USD']]);
    expect(variantsOf(itemNamed(document, 'Hat'))).toEqual([['S', { Size: 'S' }, 'HAT-S', null, null]]);
    // Rules are applied once the product's rows are read: their warnings come after the rows below.
    const byRow = [...(results.warnings ?? [])].sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
    expect(byRow.map((w) => [w.row, w.column, w.code])).toEqual([
      [2, 'Item Type', 'orphan_variant'],
      [5, 'Price', 'invalid_price'],
      [8, 'Price', 'invalid_price'],
      [9, 'Item Type', 'invalid_value'],
    ]);
  });

  test('the modern export: Product, Variant (Options, own or product price) and Image rows', async () => {
    const csv = csvOf([
      [
        'Item',
        'ID',
        'Name',
        'Type',
        'SKU',
        'Options',
        'Inventory Tracking',
        'Price',
        'Retail Price',
        'Categories',
        'Description',
        'Brand',
        'GTIN',
        'Variant Image URL',
        'Image URL (Import)',
        'Image is Thumbnail',
        'Internal Image URL (Export)',
      ],
      [
        'Product',
        '101',
        'Classic Tee',
        'physical',
        'TEE',
        '',
        'variant',
        '19.99',
        '25',
        'Men/Shirts',
        '<p>Soft</p>',
        'Acme',
        '',
        '',
        '',
        '',
      ],
      [
        'Variant',
        '',
        '',
        '',
        'TEE-BLK-M',
        'Type=Rectangle|Name=Color|Value=BlackType=Rectangle|Name=Size|Value=M',
        '',
        '',
        '',
        '',
        '',
        '',
        '036000291452',
        'https://cdn.test/tee-black.jpg',
        '',
        '',
      ],
      [
        'Variant',
        '',
        '',
        '',
        'TEE-WHT-L',
        'Type=Rectangle|Name=Color|Value=WhiteType=Rectangle|Name=Size|Value=L',
        '',
        '21.99',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
      ],
      ['Image', '', '', '', '', '', '', '', '', '', '', '', '', '', 'https://cdn.test/tee-1.jpg', 'TRUE'],
      [
        'Image',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        'FALSE',
        'https://cdn11.bigcommerce.test/tee-2.jpg',
      ],
      ['Video', '', '', '', '', '', '', '', '', '', '', '', '', '', '', ''],
      ['Product', '102', 'Mug', 'physical', 'MUG', '', 'none', '12', '', 'Home', '', '', '', '', '', ''],
    ]);
    const { document, results } = await buildRetail(csv);
    const tee = itemNamed(document, 'Classic Tee');
    expect(variantsOf(tee)).toEqual([
      ['Black / M', { Color: 'Black', Size: 'M' }, 'TEE-BLK-M', 1999, 'USD'],
      ['White / L', { Color: 'White', Size: 'L' }, 'TEE-WHT-L', 2199, 'USD'],
    ]);
    expect(tee?.variants[0]?.gtin).toBe('036000291452');
    expect(tee?.variants[0]?.images.map((i) => i.url)).toEqual(['https://cdn.test/tee-black.jpg']);
    expect(tee?.images.map((i) => i.url)).toEqual([
      'https://cdn.test/tee-1.jpg',
      'https://cdn11.bigcommerce.test/tee-2.jpg',
    ]);
    expect(tee).toMatchObject({ brand: 'Acme', description: 'Soft' });
    expect(pathOf(document, tee)).toEqual(['Men', 'Shirts']);
    expect(variantsOf(itemNamed(document, 'Mug'))).toEqual([[null, {}, 'MUG', 1200, 'USD']]);
    expect(results.warning_count).toBe(0);
    expect(results.sources?.[0]?.ignored_columns).toEqual([
      'ID',
      'Type',
      'Inventory Tracking',
      'Retail Price',
      'Image is Thumbnail',
    ]);
  });
});
