import { buildRetail, csvOf, itemNamed, pathOf, profileOf, variantsOf } from './helpers';

const X_SERIES = [
  'id',
  'handle',
  'sku',
  'composite_name',
  'composite_sku',
  'composite_quantity',
  'name',
  'description',
  'product_category',
  'variant_option_one_name',
  'variant_option_one_value',
  'variant_option_two_name',
  'variant_option_two_value',
  'tags',
  'supply_price',
  'retail_price',
  'tax_name',
  'brand_name',
  'supplier_name',
  'active',
  'inventory_Main_Outlet',
];
const row = (cells: Partial<Record<(typeof X_SERIES)[number], string>>) =>
  X_SERIES.map((h) => cells[h] ?? '');

describe('Lightspeed Retail X-Series product export', () => {
  test.each([
    [X_SERIES, 'lightspeed'],
    [['handle', 'sku', 'name', 'type', 'supply_price', 'retail_price', 'brand_name'], 'lightspeed'],
    // A spreadsheet that happens to have a handle column is not Lightspeed's.
    [['handle', 'name', 'price', 'sku'], 'generic'],
    [['Handle', 'Name', 'Category', 'Description', 'Retail price'], 'generic'],
    // Loyverse's export (also grouped by Handle) is not Lightspeed's either.
    [
      ['Handle', 'SKU', 'Name', 'Category', 'Option 1 name', 'Option 1 value', 'Cost', 'Price [Main]'],
      'generic',
    ],
  ])('%j is recognised as %s', (headers, profile) => {
    expect(profileOf(headers)).toBe(profile);
  });

  test('rows sharing a handle are one product; retail_price, not supply_price; composite lines are no variants', async () => {
    const csv = csvOf([
      X_SERIES,
      row({
        handle: 'tee',
        sku: 'T-S',
        name: 'Tee',
        description: '<p>Cotton</p>',
        product_category: 'Apparel',
        variant_option_one_name: 'Size',
        variant_option_one_value: 'S',
        tags: 'cotton,summer',
        supply_price: '9',
        retail_price: '28.00',
        brand_name: 'Harbor',
        supplier_name: 'Mill',
      }),
      row({
        handle: 'tee',
        sku: 'T-L',
        name: 'Tee',
        product_category: 'Apparel',
        variant_option_one_name: 'Size',
        variant_option_one_value: 'L',
        supply_price: '9',
        retail_price: '30',
      }),
      row({
        handle: 'kit',
        sku: 'KIT',
        name: 'Gift Kit',
        product_category: 'Gifts',
        composite_sku: 'T-S',
        composite_quantity: '1',
        retail_price: '45',
      }),
      row({
        handle: 'kit',
        sku: 'KIT',
        name: 'Gift Kit',
        product_category: 'Gifts',
        composite_sku: 'MUG',
        composite_quantity: '2',
        retail_price: '45',
      }),
      row({ handle: '', name: '', sku: 'LOST' }),
    ]);
    const { document, results } = await buildRetail(csv);
    const tee = itemNamed(document, 'Tee');
    expect(variantsOf(tee)).toEqual([
      ['S', { Size: 'S' }, 'T-S', 2800, 'USD'],
      ['L', { Size: 'L' }, 'T-L', 3000, 'USD'],
    ]);
    expect(tee).toMatchObject({ brand: 'Harbor', description: 'Cotton', tags: ['cotton', 'summer'] });
    expect(pathOf(document, tee)).toEqual(['Apparel']);
    expect(variantsOf(itemNamed(document, 'Gift Kit'))).toEqual([[null, {}, 'KIT', 4500, 'USD']]);
    expect(results.warnings).toEqual([expect.objectContaining({ row: 6, code: 'missing_name' })]);
    expect(results.sources?.[0]?.ignored_columns).toEqual([
      'id',
      'supply_price',
      'tax_name',
      'supplier_name',
      'active',
      'inventory_Main_Outlet',
    ]);
  });
});
