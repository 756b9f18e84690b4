import { buildRetail, csvOf, itemNamed, pathOf, profileOf, variantsOf } from './helpers';

// Inventory > Items > Export / the Item Imports template of Lightspeed Retail R-Series (a subset).
const R_SERIES = [
  'System ID',
  'UPC',
  'EAN',
  'Custom SKU',
  'Manufact. SKU',
  'Description',
  'Vendor ID',
  'Qty.',
  'Default Cost',
  'Price',
  'MSRP',
  'Online Price',
  'Tax',
  'Brand',
  'Publish to eCom',
  'Department',
  'Category',
  'Subcategory 1',
  'Subcategory 2',
  'Matrix Description',
  'Matrix Attribute Set',
  'Attribute 1',
  'Attribute 2',
];
const row = (cells: Partial<Record<(typeof R_SERIES)[number], string>>) =>
  R_SERIES.map((h) => cells[h] ?? '');

describe('Lightspeed Retail R-Series item export', () => {
  test.each([
    [R_SERIES, 'lightspeed_retail'],
    [['System ID', 'Custom SKU', 'Description', 'Price', 'Category', 'Subcategory 1'], 'lightspeed_retail'],
    [
      ['System ID', 'Manufact. SKU', 'Item', 'Price', 'Matrix Description', 'Attribute 1'],
      'lightspeed_retail',
    ],
    // The Items list naming items `Item`, without matrices, reads the same generically.
    [['System ID', 'UPC', 'Custom SKU', 'Manufact. SKU', 'Item', 'Price', 'Category'], 'generic'],
    // Ordinary spreadsheets with an id and a description are not Lightspeed's.
    [['ID', 'SKU', 'Description', 'Price'], 'generic'],
    [['System ID', 'Description', 'Price'], 'generic'],
    // X-Series stays X-Series.
    [['handle', 'sku', 'name', 'supply_price', 'retail_price'], 'lightspeed'],
  ])('%j is recognised as %s', (headers, profile) => {
    expect(profileOf(headers)).toBe(profile);
  });

  test('Description names the item, not System ID; Custom SKU then Manufact. SKU; UPC then EAN; Price, not MSRP', async () => {
    const csv = csvOf([
      R_SERIES,
      row({
        'System ID': '210000000101',
        UPC: '012345678905',
        'Custom SKU': 'MUG-01',
        'Manufact. SKU': 'AC-77',
        Description: 'Enamel Mug',
        'Default Cost': '4.00',
        Price: '16.00',
        MSRP: '18.00',
        'Online Price': '15.00',
        Brand: 'Harbor',
        Department: 'Housewares',
        Category: 'Home',
        'Subcategory 1': 'Kitchen',
      }),
      row({
        'System ID': '210000000102',
        EAN: '4006381333931',
        'Manufact. SKU': 'PEN-9',
        Description: 'Fine Pen',
        Price: '$3.50',
        Category: 'Office',
        'Subcategory 2': 'Pens',
      }),
      row({ 'System ID': '210000000103', Price: '9.00' }),
    ]);
    const { document, results } = await buildRetail(csv);
    expect(document.items.map((i) => i.name)).toEqual(['Enamel Mug', 'Fine Pen']);
    const mug = itemNamed(document, 'Enamel Mug');
    expect(variantsOf(mug)).toEqual([[null, {}, 'MUG-01', 1600, 'USD']]);
    expect(mug?.variants[0]?.gtin).toBe('012345678905');
    expect(mug?.brand).toBe('Harbor');
    expect(mug?.description).toBeNull();
    expect(pathOf(document, mug)).toEqual(['Home', 'Kitchen']);
    const pen = itemNamed(document, 'Fine Pen');
    expect(variantsOf(pen)).toEqual([[null, {}, 'PEN-9', 350, 'USD']]);
    expect(pen?.variants[0]?.gtin).toBe('4006381333931');
    // An empty level is skipped, not a category named ''.
    expect(pathOf(document, pen)).toEqual(['Office', 'Pens']);
    expect(results.warnings).toEqual([expect.objectContaining({ row: 4, code: 'missing_name' })]);
    expect(results.sources?.[0]?.profile).toBe('lightspeed_retail');
    expect(results.sources?.[0]?.ignored_columns).toEqual(
      expect.arrayContaining(['System ID', 'Default Cost', 'MSRP', 'Online Price', 'Department']),
    );
  });

  test('the items of a matrix are one product with a variant each, options named by the attribute set', async () => {
    const tee = {
      'Matrix Description': 'Plain Tee',
      'Matrix Attribute Set': 'Color/Size',
      Brand: 'Acme',
      Category: 'Apparel',
    };
    const csv = csvOf([
      R_SERIES,
      row({
        ...tee,
        'Custom SKU': 'T-R-S',
        Description: 'Plain Tee Red S',
        'Attribute 1': 'Red',
        'Attribute 2': 'S',
        Price: '20',
      }),
      row({ 'Custom SKU': 'CAP', Description: 'Cap', Price: '12', Category: 'Apparel' }),
      row({
        ...tee,
        'Custom SKU': 'T-R-M',
        Description: 'Plain Tee Red M',
        'Attribute 1': 'Red',
        'Attribute 2': 'M',
        Price: '22',
      }),
      // A custom set whose name does not name its attributes; no attribute columns filled: the rest of the description.
      row({
        'Matrix Description': 'Gift Card',
        'Matrix Attribute Set': 'Amounts',
        'Custom SKU': 'GC-25',
        Description: 'Gift Card $25',
        Price: '25',
      }),
      row({
        'Matrix Description': 'Gift Card',
        'Matrix Attribute Set': 'Amounts',
        'Custom SKU': 'GC-50',
        Description: 'Gift Card $50',
        Price: '50',
      }),
    ]);
    const { document, results } = await buildRetail(csv);
    expect(document.items.map((i) => i.name)).toEqual(['Plain Tee', 'Cap', 'Gift Card']);
    const shirt = itemNamed(document, 'Plain Tee');
    expect(shirt?.option_names).toEqual(['Color', 'Size']);
    expect(variantsOf(shirt)).toEqual([
      ['Red / S', { Color: 'Red', Size: 'S' }, 'T-R-S', 2000, 'USD'],
      ['Red / M', { Color: 'Red', Size: 'M' }, 'T-R-M', 2200, 'USD'],
    ]);
    expect(pathOf(document, shirt)).toEqual(['Apparel']);
    expect(variantsOf(itemNamed(document, 'Gift Card'))).toEqual([
      ['$25', {}, 'GC-25', 2500, 'USD'],
      ['$50', {}, 'GC-50', 5000, 'USD'],
    ]);
    expect(results.warnings).toEqual([]);
  });

  test('a custom attribute set with one name for two attributes numbers the second', async () => {
    const csv = csvOf([
      R_SERIES,
      row({
        'Matrix Description': 'Bike',
        'Matrix Attribute Set': 'Frame',
        'Attribute 1': '54 cm',
        'Attribute 2': 'Blue',
        Price: '900',
      }),
    ]);
    const { document } = await buildRetail(csv);
    expect(variantsOf(itemNamed(document, 'Bike'))).toEqual([
      ['54 cm / Blue', { Frame: '54 cm', 'Attribute 2': 'Blue' }, null, 90000, 'USD'],
    ]);
  });
});

describe('a generic list with an id column and no name column', () => {
  test.each([
    [
      ['System ID', 'Description', 'Qty.', 'Price'],
      ['210000000101', 'Wool Socks', '4', '12.00'],
    ],
    [
      ['ID', 'Quantity', 'Description', 'Price'],
      ['17', '4', 'Wool Socks', '12.00'],
    ],
  ])('%j reads the description as the name, not the id or the stock', async (headers, cells) => {
    const { document, results } = await buildRetail(csvOf([headers, cells]));
    expect(results.sources?.[0]?.profile).toBe('generic');
    expect(document.items.map((i) => [i.name, i.variants[0]?.price?.amount])).toEqual([['Wool Socks', 1200]]);
  });
});
