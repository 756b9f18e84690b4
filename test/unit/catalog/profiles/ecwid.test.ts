import { buildRetail, csvOf, itemNamed, pathOf, profileOf, variantsOf } from './helpers';

// Catalog > Products > Export of an Ecwid (Lightspeed E-Series) store, the catalog format since 2023 (a subset).
const ECWID = [
  'type',
  'product_internal_id',
  'product_sku',
  'product_name',
  'product_price',
  'product_compare_to_price',
  'product_is_inventory_tracked',
  'product_quantity',
  'product_is_available',
  'product_media_main_image_url',
  'product_media_gallery_image_url_1',
  'product_media_gallery_image_url_2',
  'product_description',
  'product_category_1',
  'product_category_2',
  'product_brand',
  'product_upc',
  'product_weight',
  'product_option_name',
  'product_option_type',
  'product_option_is_required',
  'product_option_value',
  'product_option_markup',
  'product_variation_sku',
  'product_variation_option_{Size}',
  'product_variation_option_{Color}',
];
const row = (cells: Partial<Record<(typeof ECWID)[number], string>>) => ECWID.map((h) => cells[h] ?? '');

describe('Ecwid catalog export', () => {
  test.each([
    [ECWID, 'ecwid'],
    [['type', 'product_internal_id', 'product_sku', 'product_name', 'product_price'], 'ecwid'],
    [['type', 'product_name', 'product_price', 'product_category_1'], 'ecwid'],
    // Ordinary spreadsheets with a type and a product name are not Ecwid's.
    [['Type', 'Product Name', 'Product SKU', 'Price'], 'generic'],
    [['Product Name', 'Product ID', 'Price', 'Category'], 'generic'],
    [['type', 'product_name', 'product_price'], 'generic'],
  ])('%j is recognised as %s', (headers, profile) => {
    expect(profileOf(headers)).toBe(profile);
  });

  test('a product row: price, brand, UPC, HTML description, images, the deepest of its category paths', async () => {
    const csv = csvOf([
      ECWID,
      row({
        type: 'product',
        product_internal_id: '512734001',
        product_sku: 'TEA-01',
        product_name: 'Sencha Green Tea',
        product_price: '12.5',
        product_compare_to_price: '15',
        product_quantity: '40',
        product_is_available: 'true',
        product_media_main_image_url: 'https://d2j6dbq0eux0bg.cloudfront.net/images/1/a.jpg',
        product_media_gallery_image_url_1: 'https://d2j6dbq0eux0bg.cloudfront.net/images/1/b.jpg',
        product_description: '<p>Steamed <b>green</b> tea.</p>',
        product_category_1: 'Sale',
        product_category_2: 'Drinks/Tea',
        product_brand: 'Kyoto Leaf',
        product_upc: '012345678905',
      }),
      row({
        type: 'product',
        product_internal_id: '512734002',
        product_name: 'Gift Card',
        product_price: '25',
      }),
      row({ type: 'product', product_internal_id: '512734003', product_price: '9' }),
    ]);
    const { document, results } = await buildRetail(csv);
    expect(document.items.map((i) => i.name)).toEqual(['Sencha Green Tea', 'Gift Card']);
    const tea = itemNamed(document, 'Sencha Green Tea');
    expect(variantsOf(tea)).toEqual([[null, {}, 'TEA-01', 1250, 'USD']]);
    expect(tea?.variants[0]?.gtin).toBe('012345678905');
    expect(tea?.brand).toBe('Kyoto Leaf');
    expect(tea?.description).toBe('Steamed green tea.');
    expect(tea?.images.map((i) => i.url)).toEqual([
      'https://d2j6dbq0eux0bg.cloudfront.net/images/1/a.jpg',
      'https://d2j6dbq0eux0bg.cloudfront.net/images/1/b.jpg',
    ]);
    expect(pathOf(document, tea)).toEqual(['Drinks', 'Tea']);
    expect(pathOf(document, itemNamed(document, 'Gift Card'))).toEqual([]);
    expect(results.warnings).toEqual([expect.objectContaining({ row: 4, code: 'missing_name' })]);
    expect(results.sources?.[0]?.profile).toBe('ecwid');
    expect(results.sources?.[0]?.ignored_columns).toEqual(
      expect.arrayContaining(['product_compare_to_price', 'product_quantity', 'product_weight']),
    );
  });

  test('variation rows are the variants of the product they name, with their own SKU, price and image', async () => {
    const csv = csvOf([
      ECWID,
      row({
        type: 'product',
        product_internal_id: '700',
        product_sku: 'TEE',
        product_name: 'Logo Tee',
        product_price: '20',
        product_category_1: 'Apparel',
      }),
      row({
        type: 'product_option',
        product_internal_id: '700',
        product_option_name: 'Size',
        product_option_type: 'SIZE',
        product_option_value: 'M',
      }),
      row({
        type: 'product_option',
        product_internal_id: '700',
        product_option_name: 'Size',
        product_option_type: 'SIZE',
        product_option_value: 'L',
        product_option_markup: '2',
      }),
      row({ type: 'product', product_internal_id: '701', product_name: 'Mug', product_price: '8' }),
      // Rows of the tee after another product: they name it by its id.
      row({
        type: 'product_variation',
        product_internal_id: '700',
        product_sku: 'TEE',
        product_variation_sku: 'TEE-M-RED',
        'product_variation_option_{Size}': 'M',
        'product_variation_option_{Color}': 'Red',
        product_media_main_image_url: 'https://example.com/tee-red.jpg',
      }),
      row({
        type: 'product_variation',
        product_internal_id: '700',
        product_variation_sku: 'TEE-L-RED',
        product_price: '23',
        'product_variation_option_{Size}': 'L',
        'product_variation_option_{Color}': 'Red',
      }),
      row({
        type: 'product_variation',
        product_internal_id: '700',
        product_variation_sku: 'TEE-L-BLUE',
        'product_variation_option_{Size}': 'L',
        'product_variation_option_{Color}': 'Blue',
      }),
      row({ type: 'product_variation', product_internal_id: '999', product_variation_sku: 'X' }),
    ]);
    const { document, results } = await buildRetail(csv);
    expect(document.items.map((i) => i.name)).toEqual(['Logo Tee', 'Mug']);
    const tee = itemNamed(document, 'Logo Tee');
    expect(tee?.option_names).toEqual(['Size', 'Color']);
    // A variation without its own price has the product's plus its choices' markups.
    expect(variantsOf(tee)).toEqual([
      ['M / Red', { Size: 'M', Color: 'Red' }, 'TEE-M-RED', 2000, 'USD'],
      ['L / Red', { Size: 'L', Color: 'Red' }, 'TEE-L-RED', 2300, 'USD'],
      ['L / Blue', { Size: 'L', Color: 'Blue' }, 'TEE-L-BLUE', 2200, 'USD'],
    ]);
    expect(tee?.variants[0]?.images?.map((i) => i.url)).toEqual(['https://example.com/tee-red.jpg']);
    expect(pathOf(document, tee)).toEqual(['Apparel']);
    expect(results.warnings).toEqual([expect.objectContaining({ row: 9, code: 'orphan_variant' })]);
  });

  test('options without variation rows: every combination of the choices, with markups; check boxes are not forms', async () => {
    const option = (name: string, type: string, value: string, markup = '') =>
      row({
        type: 'product_option',
        product_internal_id: '800',
        product_option_name: name,
        product_option_type: type,
        product_option_value: value,
        product_option_markup: markup,
      });
    const csv = csvOf([
      ECWID,
      row({
        type: 'product',
        product_internal_id: '800',
        product_sku: 'CAKE',
        product_name: 'Cake',
        product_price: '30',
      }),
      option('Size', 'DROPDOWN', '6 inch'),
      option('Size', 'DROPDOWN', '8 inch', '10%'),
      option('Gift wrap', 'CHECKBOXES', 'Yes', '5'),
      option('Message', 'TEXTFIELD', ''),
      row({
        type: 'product',
        product_internal_id: '801',
        product_name: 'Old Cake',
        product_price: '1',
        product_is_available: 'false',
      }),
    ]);
    const { document, results } = await buildRetail(csv);
    expect(document.items.map((i) => i.name)).toEqual(['Cake']);
    expect(variantsOf(itemNamed(document, 'Cake'))).toEqual([
      ['6 inch', { Size: '6 inch' }, null, 3000, 'USD'],
      ['8 inch', { Size: '8 inch' }, null, 3300, 'USD'],
    ]);
    expect(results.warnings).toEqual([expect.objectContaining({ row: 7, code: 'not_an_item' })]);
  });
});
