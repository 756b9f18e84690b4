import { buildRetail, csvOf, itemNamed, pathOf, profileOf, variantsOf } from './helpers';

const HEADER = [
  'sku',
  'store_view_code',
  'attribute_set_code',
  'product_type',
  'categories',
  'product_websites',
  'name',
  'description',
  'short_description',
  'weight',
  'product_online',
  'tax_class_name',
  'visibility',
  'price',
  'special_price',
  'url_key',
  'base_image',
  'additional_attributes',
  'qty',
  'additional_images',
  'configurable_variations',
  'configurable_variation_labels',
  'associated_skus',
];
const row = (cells: Partial<Record<(typeof HEADER)[number], string>>) =>
  HEADER.map((h) => cells[h] ?? (h === 'product_online' ? '1' : ''));

const HOODIE = 'Default Category/Men/Tops/Hoodies & Sweatshirts,Default Category/Collections/Eco Friendly';

const child = (sku: string, price: string, extra: Partial<Record<string, string>> = {}) =>
  row({
    sku,
    attribute_set_code: 'Top',
    product_type: 'simple',
    categories: HOODIE,
    product_websites: 'base',
    name: `Chaz Kangeroo Hoodie-${sku.slice(5)}`,
    visibility: 'Not Visible Individually',
    price,
    base_image: `/m/h/${sku.toLowerCase()}_main.jpg`,
    qty: '100',
    ...extra,
  });

describe('Magento 2 product export', () => {
  test.each([
    [HEADER, 'magento'],
    [['sku', 'store_view_code', 'product_type', 'name', 'price', 'configurable_variations'], 'magento'],
    // A generic list with a categories column (and a product type) is not Magento's export.
    [['sku', 'name', 'categories', 'price', 'product_type'], 'generic'],
    [['SKU', 'Name', 'Categories', 'Description', 'Price', 'Images'], 'generic'],
  ])('%j is recognised as %s', (headers, profile) => {
    expect(profileOf(headers)).toBe(profile);
  });

  test('a configurable product is one item whose variants are its children; store-view rows are no items', async () => {
    const csv = csvOf([
      HEADER,
      child('MH01-XS-Black', '52.000000'),
      child('MH01-XS-Gray', ''),
      child('MH01-S-Black', '54.000000'),
      row({
        sku: 'MH01',
        attribute_set_code: 'Top',
        product_type: 'configurable',
        categories: HOODIE,
        product_websites: 'base',
        name: 'Chaz Kangeroo Hoodie',
        description: '<p>Ideal for cold-weather training &amp; work outdoors.</p>',
        visibility: 'Catalog, Search',
        price: '52.000000',
        special_price: '39.000000',
        base_image: '/m/h/mh01-black_main.jpg',
        additional_attributes: 'manufacturer=Chaz,material=Fleece',
        configurable_variations:
          'sku=MH01-XS-Black,size=XS,color=Black|sku=MH01-XS-Gray,size=XS,color=Gray|sku=MH01-S-Black,size=S,color=Black',
        configurable_variation_labels: 'size=Size,color=Color',
      }),
      row({ sku: 'MH01', store_view_code: 'de', name: 'Chaz Känguru-Kapuzenpullover', price: '59' }),
      row({ sku: 'MH01-XS-Black', store_view_code: 'de', name: 'Kapuzenpullover XS Schwarz' }),
    ]);
    const { document, results } = await buildRetail(csv);
    expect(document.items.map((i) => i.name)).toEqual(['Chaz Kangeroo Hoodie']);
    const hoodie = itemNamed(document, 'Chaz Kangeroo Hoodie');
    expect(hoodie?.option_names).toEqual(['Size', 'Color']);
    expect(variantsOf(hoodie)).toEqual([
      ['XS / Black', { Size: 'XS', Color: 'Black' }, 'MH01-XS-Black', 5200, 'USD'],
      // No price of its own: the parent's.
      ['XS / Gray', { Size: 'XS', Color: 'Gray' }, 'MH01-XS-Gray', 5200, 'USD'],
      ['S / Black', { Size: 'S', Color: 'Black' }, 'MH01-S-Black', 5400, 'USD'],
    ]);
    expect(hoodie).toMatchObject({
      brand: 'Chaz',
      description: 'Ideal for cold-weather training & work outdoors.',
      images: [],
    });
    // The root category is dropped; of two paths the most specific.
    expect(pathOf(document, hoodie)).toEqual(['Men', 'Tops', 'Hoodies & Sweatshirts']);
    const source = results.sources?.[0];
    expect(source?.profile).toBe('magento');
    // Relative media paths are no URLs: one warning per image column, the column listed as ignored.
    expect(results.warnings).toEqual([
      expect.objectContaining({ row: null, column: 'base_image', code: 'invalid_url' }),
    ]);
    expect(source?.ignored_columns).toEqual([
      'attribute_set_code',
      'product_websites',
      'weight',
      'tax_class_name',
      'visibility',
      'special_price',
      'url_key',
      'base_image',
      'qty',
      'additional_images',
      'associated_skus',
    ]);
  });

  test('labels default to the attribute code; a child without a row keeps the parent price and is reported', async () => {
    const csv = csvOf([
      HEADER,
      row({
        sku: 'WS03',
        product_type: 'configurable',
        categories: 'Default Category/Women/Tops/Tees',
        name: 'Iris Workout Top',
        price: '29',
        base_image: 'https://cdn.example.com/media/catalog/product/w/s/ws03.jpg',
        configurable_variations: 'sku=WS03-XS-Red,shoe_size=XS|sku=WS03-S-Red,shoe_size=S',
      }),
      child('WS03-XS-Red', '31', {
        base_image: 'https://cdn.example.com/media/catalog/product/w/s/ws03-red.jpg',
      }),
    ]);
    const { document, results } = await buildRetail(csv);
    const top = itemNamed(document, 'Iris Workout Top');
    expect(variantsOf(top)).toEqual([
      ['XS', { 'Shoe size': 'XS' }, 'WS03-XS-Red', 3100, 'USD'],
      ['S', { 'Shoe size': 'S' }, 'WS03-S-Red', 2900, 'USD'],
    ]);
    expect(top?.images.map((i) => i.url)).toEqual([
      'https://cdn.example.com/media/catalog/product/w/s/ws03.jpg',
    ]);
    expect(top?.variants[0]?.images.map((i) => i.url)).toEqual([
      'https://cdn.example.com/media/catalog/product/w/s/ws03-red.jpg',
    ]);
    expect(pathOf(document, top)).toEqual(['Women', 'Tops', 'Tees']);
    expect(results.warnings).toEqual([
      expect.objectContaining({ row: 2, column: 'configurable_variations', code: 'orphan_variant' }),
    ]);
    expect(results.sources?.[0]?.columns).toMatchObject({ base_image: 'image_url' });
  });

  test('a simple product alone, a disabled one, a grouped one and a bundle; categories listed with their ancestors', async () => {
    const csv = csvOf([
      HEADER,
      row({
        sku: '24-MB01',
        product_type: 'simple',
        categories: 'Default Category,Default Category/Gear,Default Category/Gear/Bags',
        name: 'Joust Duffle Bag',
        short_description: 'A roomy duffle.',
        visibility: 'Catalog, Search',
        price: '34.000000',
        additional_attributes: 'ean=4006381333931,activity=Gym',
      }),
      row({
        sku: '24-MB02',
        product_type: 'simple',
        categories: 'Default Category/Gear/Bags',
        name: 'Fusion Backpack',
        product_online: '2',
        price: '59',
      }),
      row({
        sku: '24-WG085_Group',
        product_type: 'grouped',
        categories: 'Default Category/Gear/Fitness Equipment',
        name: 'Set of Sprite Yoga Straps',
        associated_skus: '24-WG085=0.0000,24-WG086=0.0000',
      }),
      row({
        sku: '24-WG080',
        product_type: 'bundle',
        categories: 'Default Category/Gear/Fitness Equipment',
        name: 'Sprite Yoga Companion Kit',
        price: '61',
      }),
      row({ sku: 'VIRT-1', product_type: 'virtual', name: 'Gift Wrapping', price: '5' }),
    ]);
    const { document, results } = await buildRetail(csv);
    expect(document.items.map((i) => i.name)).toEqual([
      'Joust Duffle Bag',
      'Sprite Yoga Companion Kit',
      'Gift Wrapping',
    ]);
    const bag = itemNamed(document, 'Joust Duffle Bag');
    expect(variantsOf(bag)).toEqual([[null, {}, '24-MB01', 3400, 'USD']]);
    expect(bag?.variants[0]?.gtin).toBe('4006381333931');
    expect(bag?.description).toBe('A roomy duffle.');
    expect(pathOf(document, bag)).toEqual(['Gear', 'Bags']);
    expect(variantsOf(itemNamed(document, 'Sprite Yoga Companion Kit'))).toEqual([
      [null, {}, '24-WG080', 6100, 'USD'],
    ]);
    expect(pathOf(document, itemNamed(document, 'Gift Wrapping'))).toEqual([]);
    expect(results.warnings).toEqual([
      expect.objectContaining({ row: 3, column: 'product_online', code: 'not_an_item' }),
      expect.objectContaining({ row: 4, column: 'product_type', code: 'not_an_item' }),
    ]);
  });

  test('a disabled child is left out of its parent; a disabled parent takes its children with it', async () => {
    const csv = csvOf([
      HEADER,
      child('MJ01-S', '60'),
      child('MJ01-M', '60', { product_online: '2' }),
      row({
        sku: 'MJ01',
        product_type: 'configurable',
        name: 'Beaumont Summit Kit',
        configurable_variations: 'sku=MJ01-S,size=S|sku=MJ01-M,size=M',
      }),
      child('MJ02-S', '70'),
      row({
        sku: 'MJ02',
        product_type: 'configurable',
        name: 'Old Jacket',
        product_online: '2',
        configurable_variations: 'sku=MJ02-S,size=S',
      }),
    ]);
    const { document, results } = await buildRetail(csv);
    expect(document.items.map((i) => i.name)).toEqual(['Beaumont Summit Kit']);
    expect(variantsOf(itemNamed(document, 'Beaumont Summit Kit'))).toEqual([
      ['S', { Size: 'S' }, 'MJ01-S', 6000, 'USD'],
    ]);
    expect(results.warnings?.filter((w) => w.code === 'not_an_item')).toEqual([
      expect.objectContaining({ row: 3, column: 'product_online' }),
      expect.objectContaining({ row: 6, column: 'product_online' }),
    ]);
  });

  test('a store-view row of a product not in the file and a repeated sku are reported', async () => {
    const csv = csvOf([
      HEADER,
      row({ sku: 'A-1', product_type: 'simple', name: 'Alpha', price: '10' }),
      row({ sku: 'A-1', product_type: 'simple', name: 'Alpha again', price: '11' }),
      row({ sku: 'B-1', store_view_code: 'fr', name: 'Bêta' }),
      row({ sku: 'C-1', product_type: 'simple', price: '3' }),
    ]);
    const { document, results } = await buildRetail(csv);
    expect(document.items.map((i) => i.name)).toEqual(['Alpha']);
    expect(results.warnings).toEqual([
      expect.objectContaining({ row: 3, column: 'sku', code: 'duplicate_product' }),
      expect.objectContaining({ row: 5, column: 'name', code: 'missing_name' }),
      expect.objectContaining({ row: 4, column: 'store_view_code', code: 'orphan_variant' }),
    ]);
  });
});
