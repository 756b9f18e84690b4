import { wixMediaUrl } from '../../../../lambdas/core/catalog/headers/profiles/wix';
import { buildRetail, csvOf, itemNamed, pathOf, profileOf, variantsOf } from './helpers';

const CLASSIC = [
  'handleId',
  'fieldType',
  'name',
  'description',
  'productImageUrl',
  'collection',
  'sku',
  'ribbon',
  'price',
  'surcharge',
  'visible',
  'discountMode',
  'discountValue',
  'inventory',
  'productOptionName1',
  'productOptionType1',
  'productOptionDescription1',
  'productOptionName2',
  'productOptionType2',
  'productOptionDescription2',
  'brand',
];
const classic = (cells: Partial<Record<(typeof CLASSIC)[number], string>>) =>
  CLASSIC.map((h) => cells[h] ?? '');

describe('Wix Stores product CSV', () => {
  test.each([
    [CLASSIC, 'wix'],
    [
      ['handle', 'fieldType', 'name', 'visible', 'plainDescription', 'media', 'price', 'sku', 'barcode'],
      'wix',
    ],
    [['handle', 'name', 'price', 'sku'], 'generic'],
    [['name', 'type', 'price'], 'generic'],
  ])('%j is recognised as %s', (headers, profile) => {
    expect(profileOf(headers)).toBe(profile);
  });

  test('media names become the URLs Wix serves them from; URLs and other text stay', () => {
    expect(wixMediaUrl('7a3f21_5e0c4b1d9f2a4c8e~mv2.jpg')).toBe(
      'https://static.wixstatic.com/media/7a3f21_5e0c4b1d9f2a4c8e~mv2.jpg',
    );
    expect(wixMediaUrl('https://cdn.test/a.jpg')).toBe('https://cdn.test/a.jpg');
    expect(wixMediaUrl('not a file')).toBe('not a file');
  });

  test('Variant rows by handleId: surcharges on the product price, hidden combinations left out', async () => {
    const csv = csvOf([
      CLASSIC,
      classic({
        handleId: 'product_1',
        fieldType: 'Product',
        name: 'Linen Shirt',
        description: '<p>Breezy</p>',
        productImageUrl: 'ab12_c3~mv2.jpg;https://cdn.test/shirt-2.jpg',
        collection: 'Shirts;Summer Sale',
        sku: 'LS',
        price: '50',
        visible: 'true',
        discountMode: 'PERCENT',
        discountValue: '10',
        productOptionName1: 'Color',
        productOptionType1: 'COLOR',
        // A swatch's colour is written as hex or as a CSS function; neither is part of the choice's name.
        productOptionDescription1: '#FFFFFF:White;rgb(0, 0, 0):Black',
        productOptionName2: 'Size',
        productOptionType2: 'DROP_DOWN',
        productOptionDescription2: 'S;L',
        brand: 'Acme',
      }),
      classic({
        handleId: 'product_1',
        fieldType: 'Variant',
        sku: 'LS-W-S',
        surcharge: '0',
        visible: 'true',
        productOptionDescription1: '#FFFFFF:White',
        productOptionDescription2: 'S',
      }),
      classic({
        handleId: 'product_1',
        fieldType: 'Variant',
        sku: 'LS-W-L',
        surcharge: '5.5',
        visible: 'true',
        productOptionDescription1: '#FFFFFF:White',
        productOptionDescription2: 'L',
      }),
      classic({
        handleId: 'product_1',
        fieldType: 'Variant',
        sku: 'LS-B-S',
        surcharge: '-10',
        visible: 'false',
        productOptionDescription1: '#000000:Black',
        productOptionDescription2: 'S',
      }),
      classic({
        handleId: 'product_1',
        fieldType: 'Variant',
        sku: 'LS-B-L',
        surcharge: '-60',
        visible: 'true',
        productOptionDescription1: 'rgb(0,0,0):Black',
        productOptionDescription2: 'L',
      }),
      classic({ handleId: 'product_9', fieldType: 'Variant', sku: 'STRAY' }),
    ]);
    const { document, results } = await buildRetail(csv);
    const shirt = itemNamed(document, 'Linen Shirt');
    expect(variantsOf(shirt)).toEqual([
      ['White / S', { Color: 'White', Size: 'S' }, 'LS-W-S', 5000, 'USD'],
      ['White / L', { Color: 'White', Size: 'L' }, 'LS-W-L', 5550, 'USD'],
      // A surcharge below the price leaves no price rather than a negative one.
      ['Black / L', { Color: 'Black', Size: 'L' }, 'LS-B-L', null, null],
    ]);
    expect(shirt?.images.map((i) => i.url)).toEqual([
      'https://static.wixstatic.com/media/ab12_c3~mv2.jpg',
      'https://cdn.test/shirt-2.jpg',
    ]);
    expect(shirt).toMatchObject({ brand: 'Acme', description: 'Breezy' });
    expect(pathOf(document, shirt)).toEqual(['Shirts']);
    expect(results.warnings).toEqual([
      expect.objectContaining({ row: 6, column: 'surcharge', code: 'invalid_price' }),
      expect.objectContaining({ row: 7, column: 'handleId', code: 'orphan_variant' }),
    ]);
    expect(results.sources?.[0]?.ignored_columns).toEqual([
      'ribbon',
      'discountMode',
      'discountValue',
      'inventory',
      'productOptionType1',
      'productOptionType2',
    ]);
  });

  test('a product with options and no variant rows is sold in every combination of its choices', async () => {
    const csv = csvOf([
      CLASSIC,
      classic({
        handleId: 'p',
        fieldType: 'Product',
        name: 'Print',
        price: '20',
        productOptionName1: 'Size',
        productOptionDescription1: 'A4;A3',
        productOptionName2: 'Paper',
        productOptionDescription2: 'Matte;Gloss',
      }),
      classic({ handleId: 'q', fieldType: 'Product', name: 'Card', sku: 'CARD', price: '4' }),
      classic({
        handleId: 'r',
        fieldType: 'Product',
        name: 'Old Mug',
        price: '9',
        productOptionName1: 'Glaze',
        productOptionDescription1: 'Ash',
      }),
      classic({
        handleId: 'r',
        fieldType: 'Variant',
        sku: 'OLD-ASH',
        visible: 'false',
        productOptionDescription1: 'Ash',
      }),
    ]);
    const { document } = await buildRetail(csv);
    expect(variantsOf(itemNamed(document, 'Print'))?.map(([name, , , amount]) => [name, amount])).toEqual([
      ['A4 / Matte', 2000],
      ['A4 / Gloss', 2000],
      ['A3 / Matte', 2000],
      ['A3 / Gloss', 2000],
    ]);
    expect(variantsOf(itemNamed(document, 'Card'))).toEqual([[null, {}, 'CARD', 400, 'USD']]);
    // Every variant hidden: they are what the product is, not nothing.
    expect(variantsOf(itemNamed(document, 'Old Mug'))).toEqual([
      ['Ash', { Glaze: 'Ash' }, 'OLD-ASH', 900, 'USD'],
    ]);
  });

  test('the new catalog (V3): PRODUCT, VARIANT with its own price and barcode, MEDIA rows', async () => {
    const csv = csvOf([
      [
        'handle',
        'fieldType',
        'name',
        'visible',
        'plainDescription',
        'media',
        'brand',
        'price',
        'strikethroughPrice',
        'sku',
        'barcode',
        'productOptionName1',
        'productOptionType1',
        'productOptionChoices1',
      ],
      [
        'mug',
        'PRODUCT',
        'Mug',
        'TRUE',
        'Stoneware',
        'https://cdn.test/mug.jpg',
        'Clay',
        '20',
        '25',
        '',
        '',
        'Glaze',
        'TEXT_CHOICES',
        'Oat;Slate',
      ],
      ['mug', 'VARIANT', '', 'TRUE', '', '', '', '20', '', 'MUG-OAT', '036000291452', '', '', 'Oat'],
      ['mug', 'VARIANT', '', 'TRUE', '', '', '', '24', '', 'MUG-SLT', '', '', '', 'Slate'],
      ['mug', 'MEDIA', '', '', '', 'https://cdn.test/mug-2.jpg', '', '', '', '', '', '', '', ''],
    ]);
    const { document, results } = await buildRetail(csv);
    const mug = itemNamed(document, 'Mug');
    expect(variantsOf(mug)).toEqual([
      ['Oat', { Glaze: 'Oat' }, 'MUG-OAT', 2000, 'USD'],
      ['Slate', { Glaze: 'Slate' }, 'MUG-SLT', 2400, 'USD'],
    ]);
    expect(mug?.variants[0]?.gtin).toBe('036000291452');
    expect(mug?.images.map((i) => i.url)).toEqual(['https://cdn.test/mug.jpg', 'https://cdn.test/mug-2.jpg']);
    expect(mug).toMatchObject({ description: 'Stoneware', brand: 'Clay' });
    expect(results.warning_count).toBe(0);
    expect(results.sources?.[0]?.ignored_columns).toEqual(['strikethroughPrice', 'productOptionType1']);
  });
});
