import { relationshipOptions } from '../../../../lambdas/core/catalog/headers/profiles/ebay';
import { buildRetail, csvOf, itemNamed, profileOf, variantsOf } from './helpers';

const ACTION = '*Action(SiteID=UK|Country=GB|Currency=GBP|Version=1193|CC=UTF-8)';
const FILE_EXCHANGE = [
  ACTION,
  'CustomLabel',
  '*Category',
  'StoreCategory',
  '*Title',
  'Relationship',
  'RelationshipDetails',
  '*ConditionID',
  '*C:Brand',
  'C:Colour',
  'Product:EAN',
  'PicURL',
  '*Description',
  '*Format',
  '*Duration',
  '*StartPrice',
  '*Quantity',
  '*Location',
];
const row = (cells: Partial<Record<(typeof FILE_EXCHANGE)[number], string>>) =>
  FILE_EXCHANGE.map((h) => cells[h] ?? '');

describe('eBay File Exchange / Seller Hub Reports listings', () => {
  test.each([
    [FILE_EXCHANGE, 'ebay'],
    [['*Action(SiteID=US|Country=US|Currency=USD|Version=1193)', '*Title', '*StartPrice'], 'ebay'],
    [['Action(SiteID=US|Country=US|Currency=USD|Version=941)', 'ItemID', 'Title', 'Relationship'], 'ebay'],
    // A spreadsheet with an action column (a to-do list) and a title is not eBay's.
    [['Action', 'Title', 'Price'], 'generic'],
    [['Title', 'StartPrice', 'CustomLabel'], 'generic'],
  ])('%j is recognised as %s', (headers, profile) => {
    expect(profileOf(headers)).toBe(profile);
  });

  test.each([
    ['Colour=Red|Size=M', { Colour: 'Red', Size: 'M' }],
    ['Colour=Red;Size=M', { Colour: 'Red', Size: 'M' }],
    ['Colour=Red;Blue|Size=S;M', { Colour: 'Red;Blue', Size: 'S;M' }],
    ['', {}],
    ['=x|Size=', {}],
  ])('RelationshipDetails %j', (text, options) => {
    expect(relationshipOptions(text)).toEqual(options);
  });

  test('CustomLabel, StartPrice in the Action header currency, C:Brand, PicURL; the numeric category is not read', async () => {
    const csv = csvOf([
      FILE_EXCHANGE,
      row({
        [ACTION]: 'Add',
        CustomLabel: 'LAMP-01',
        '*Category': '112581',
        StoreCategory: '1',
        '*Title': 'Brass Desk Lamp',
        '*ConditionID': '1000',
        '*C:Brand': 'Lumen',
        'Product:EAN': 'Does not apply',
        PicURL: 'https://i.example.com/lamp-1.jpg|https://i.example.com/lamp-2.jpg',
        '*Description': '<p>Solid brass.</p>',
        '*Format': 'FixedPrice',
        '*Duration': 'GTC',
        '*StartPrice': '45.00',
        '*Quantity': '3',
      }),
    ]);
    const { document, results } = await buildRetail(csv);
    const lamp = itemNamed(document, 'Brass Desk Lamp');
    expect(variantsOf(lamp)).toEqual([[null, {}, 'LAMP-01', 4500, 'GBP']]);
    expect(lamp).toMatchObject({ brand: 'Lumen', description: 'Solid brass.', category_id: null });
    expect(lamp?.variants[0]?.gtin).toBeNull();
    expect(lamp?.images.map((i) => i.url)).toEqual([
      'https://i.example.com/lamp-1.jpg',
      'https://i.example.com/lamp-2.jpg',
    ]);
    expect(document.categories).toEqual([]);
    expect(results.warnings).toEqual([]);
    expect(results.sources?.[0]?.profile).toBe('ebay');
    expect(results.sources?.[0]?.ignored_columns).toEqual(
      expect.arrayContaining(['*Category', 'StoreCategory', '*ConditionID', '*Quantity', 'C:Colour']),
    );
  });

  test('variation rows are the variants of the listing above them; compatibility rows are not', async () => {
    const csv = csvOf([
      FILE_EXCHANGE,
      row({
        [ACTION]: 'Add',
        '*Title': 'Linen Shirt',
        RelationshipDetails: 'Size=S;M|Colour=White;Blue',
        '*C:Brand': 'Coast',
        '*StartPrice': '',
      }),
      row({
        Relationship: 'Variation',
        RelationshipDetails: 'Colour=White|Size=S',
        CustomLabel: 'LS-W-S',
        '*StartPrice': '30',
      }),
      row({
        Relationship: 'Variation',
        RelationshipDetails: 'Colour=Blue|Size=M',
        CustomLabel: 'LS-B-M',
        'Product:EAN': '4006381333931',
        '*StartPrice': '32.50',
      }),
      row({ [ACTION]: 'Add', '*Title': 'Brake Pads', CustomLabel: 'BP-1', '*StartPrice': '19.99' }),
      row({ Relationship: 'Compatibility', RelationshipDetails: 'Make=Ford|Model=Focus' }),
      row({ Relationship: 'Variation', RelationshipDetails: 'Size=L', CustomLabel: 'BP-L' }),
    ]);
    const { document, results } = await buildRetail(csv);
    expect(document.items.map((i) => i.name)).toEqual(['Linen Shirt', 'Brake Pads']);
    const shirt = itemNamed(document, 'Linen Shirt');
    expect(shirt?.option_names).toEqual(['Size', 'Colour']);
    expect(variantsOf(shirt)).toEqual([
      ['S / White', { Size: 'S', Colour: 'White' }, 'LS-W-S', 3000, 'GBP'],
      ['M / Blue', { Size: 'M', Colour: 'Blue' }, 'LS-B-M', 3250, 'GBP'],
    ]);
    expect(shirt?.variants[1]?.gtin).toBe('4006381333931');
    // A variation row belongs to the listing above it, past other relationship rows.
    expect(variantsOf(itemNamed(document, 'Brake Pads'))).toEqual([
      ['L', { Size: 'L' }, 'BP-L', 1999, 'GBP'],
    ]);
    expect(results.warnings).toEqual([]);
  });

  test('a variation row before any listing is reported and skipped', async () => {
    const csv = csvOf([
      FILE_EXCHANGE,
      row({ Relationship: 'Variation', RelationshipDetails: 'Size=L', '*StartPrice': '5' }),
    ]);
    const { document, results } = await buildRetail(csv);
    expect(document.items).toEqual([]);
    expect(results.warnings).toEqual([
      expect.objectContaining({ row: 2, code: 'missing_name', column: '*Title' }),
    ]);
  });
});

describe("eBay's Seller Hub active listings report (no Action column)", () => {
  test('is read generically: Custom label (SKU), Current price, P:UPC', async () => {
    const csv = csvOf([
      [
        'Item number',
        'Title',
        'Custom label (SKU)',
        'Available quantity',
        'Currency',
        'Start price',
        'Current price',
        'P:UPC',
      ],
      ['296012345678', 'Brass Desk Lamp', 'LAMP-01', '3', 'USD', '45.00', '42.00', '012345678905'],
    ]);
    const { document, results } = await buildRetail(csv);
    expect(results.sources?.[0]?.profile).toBe('generic');
    const lamp = itemNamed(document, 'Brass Desk Lamp');
    expect(variantsOf(lamp)).toEqual([[null, {}, 'LAMP-01', 4200, 'USD']]);
    expect(lamp?.variants[0]?.gtin).toBe('012345678905');
  });
});
