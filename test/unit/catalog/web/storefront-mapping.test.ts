import { mapShopifyProducts, shopifyProductsOf } from '../../../../lambdas/core/catalog/web/shopify';
import {
  mapWooProducts,
  wooCategoriesOf,
  wooPrice,
  wooProductsOf,
  wooVariationIds,
} from '../../../../lambdas/core/catalog/web/woocommerce';
import {
  shopifyPage,
  shopifyProduct,
  wooCategories,
  wooSimple,
  wooVariable,
} from '../../../fixtures/web/stores';

const store = { currency: 'CAD', storeUrl: 'https://leaf.example/' };

describe('Shopify /products.json → catalog items', () => {
  it('maps products, variants, decimal-string prices in minor units, images, type, vendor and tags', () => {
    const products = shopifyProductsOf(shopifyPage(3, 1, 250)) ?? [];
    const { items, warnings } = mapShopifyProducts(products, store);
    expect(warnings).toEqual([]);
    expect(items).toHaveLength(3);
    expect(items[1]).toEqual({
      kind: 'item',
      categoryPath: ['Green Tea'],
      name: 'Organic Tea No. 2',
      description: 'Loose leaf tea No. 2.\nSteep 3–4 minutes.',
      brand: 'Leaf & Co',
      tags: ['organic', 'green'],
      calories: null,
      images: [
        {
          url: 'https://cdn.shopify.com/s/files/1/0599/7114/1819/files/tea-2.jpg?v=1714572000',
          width: 1200,
          height: 1200,
        },
      ],
      optionNames: ['Weight'],
      variants: [
        {
          name: '50 g',
          options: { Weight: '50 g' },
          price: { amount: 850, currency: 'CAD' },
          pricing: 'fixed',
          sku: 'TEA-2-50',
          gtin: null,
          images: [],
        },
        {
          name: '250 g',
          options: { Weight: '250 g' },
          price: { amount: 3200, currency: 'CAD' },
          pricing: 'fixed',
          sku: 'TEA-2-250',
          gtin: null,
          images: [],
        },
      ],
    });
  });

  it('reads a Default Title product as one unnamed variant, comma tags, barcodes, variant images', () => {
    const product = {
      ...shopifyProduct(1),
      tags: 'gift, tea,  gift',
      options: [{ name: 'Title', position: 1, values: ['Default Title'] }],
      variants: [
        {
          ...shopifyProduct(1).variants[0],
          title: 'Default Title',
          option1: 'Default Title',
          barcode: '036000291452',
          price: '1200',
        },
      ],
    };
    const jpy = mapShopifyProducts([product], { currency: 'JPY', storeUrl: 'https://leaf.example/' });
    expect(jpy.items[0]?.tags).toEqual(['gift', 'tea']);
    expect(jpy.items[0]?.optionNames).toEqual([]);
    expect(jpy.items[0]?.variants).toEqual([
      {
        name: null,
        options: {},
        price: { amount: 1200, currency: 'JPY' },
        pricing: 'fixed',
        sku: 'TEA-1-50',
        gtin: '036000291452',
        images: [],
      },
    ]);

    const linked = shopifyProduct(5);
    const withImages = {
      ...linked,
      images: [
        ...linked.images,
        {
          ...linked.images[0],
          id: 1,
          src: '//cdn.shopify.com/s/files/tea-5-big.jpg',
          variant_ids: [linked.variants[1]?.id],
        },
      ],
      variants: [linked.variants[0], { ...linked.variants[1], barcode: '12345' }],
    };
    const mapped = mapShopifyProducts([withImages], store);
    expect(mapped.items[0]?.variants[1]?.images?.map((i) => i.url)).toEqual([
      'https://cdn.shopify.com/s/files/tea-5-big.jpg',
    ]);
    expect(mapped.items[0]?.variants[1]?.gtin).toBeNull();
    expect(mapped.warnings).toEqual([expect.objectContaining({ code: 'invalid_gtin', field: 'barcode' })]);
  });

  it('recognises the endpoint by its shape and skips untitled products with a warning', () => {
    expect(shopifyProductsOf([{ id: 1 }])).toBeUndefined();
    expect(shopifyProductsOf({ products: 'x' })).toBeUndefined();
    const { items, warnings } = mapShopifyProducts([{ id: 9, title: '  ', variants: [] }], store);
    expect(items).toEqual([]);
    expect(warnings.map((w) => w.code)).toEqual(['missing_name']);
  });
});

describe('WooCommerce Store API → catalog items', () => {
  const categories = wooCategoriesOf(wooCategories);

  it('converts the store minor units to ISO minor units', () => {
    expect(wooPrice({ price: '1250', currency_code: 'GBP', currency_minor_unit: 2 }, 'USD')).toEqual({
      amount: 1250,
      currency: 'GBP',
    });
    expect(wooPrice({ price: '18000', currency_code: 'USD', currency_minor_unit: 3 }, 'USD')).toEqual({
      amount: 1800,
      currency: 'USD',
    });
    expect(wooPrice({ price: '120000', currency_code: 'JPY', currency_minor_unit: 2 }, 'USD')).toEqual({
      amount: 1200,
      currency: 'JPY',
    });
    expect(wooPrice({ price: '1500', currency_code: 'KWD', currency_minor_unit: 2 }, 'USD')).toEqual({
      amount: 15000,
      currency: 'KWD',
    });
    expect(wooPrice({ price: '18005', currency_code: 'USD', currency_minor_unit: 3 }, 'USD')).toEqual({
      error: expect.stringContaining('not a whole amount'),
    });
    expect(wooPrice({ price: '' }, 'USD')).toBeNull();
  });

  it('maps a simple product: entities decoded, category path through the tree, tags, images', () => {
    const { items, warnings } = mapWooProducts(wooProductsOf([wooSimple(1)]) ?? [], {
      currency: 'USD',
      storeUrl: 'https://kettle-and-co.example/',
      categories,
      variations: new Map(),
    });
    expect(warnings).toEqual([]);
    expect(items).toEqual([
      {
        kind: 'item',
        categoryPath: ['Kitchen', 'Textiles'],
        name: 'Tea Towel – Pattern 1',
        description: 'Cotton tea towel, pattern 1.',
        brand: null,
        tags: ['Cotton'],
        calories: null,
        images: [
          {
            url: 'https://kettle-and-co.example/wp-content/uploads/2024/03/towel-1.jpg',
            width: null,
            height: null,
          },
        ],
        optionNames: [],
        variants: [
          {
            name: null,
            options: {},
            price: { amount: 1250, currency: 'GBP' },
            pricing: 'fixed',
            sku: 'TT-1',
            gtin: null,
            images: [],
          },
        ],
      },
    ]);
  });

  it('maps a variable product: term names for attribute slugs, variation prices, SKUs and images', () => {
    const { product, variations } = wooVariable();
    expect(wooVariationIds([product])).toEqual(['901', '902']);
    const { items, warnings } = mapWooProducts([product], {
      currency: 'USD',
      storeUrl: 'https://kettle-and-co.example/',
      categories,
      variations: new Map(variations.map((v) => [String(v.id), v])),
    });
    expect(warnings).toEqual([]);
    expect(items[0]).toMatchObject({
      name: 'Enamel Mug',
      brand: 'Falcon',
      categoryPath: ['Kitchen', 'Mugs'],
      description: 'Enamel mug.',
      optionNames: ['Colour', 'Size'],
    });
    expect(
      items[0]?.variants.map((v) => [v.name, v.options, v.price?.amount, v.sku, v.images?.map((i) => i.url)]),
    ).toEqual([
      [
        'Pigeon Grey / 350 ml',
        { Colour: 'Pigeon Grey', Size: '350 ml' },
        900,
        'MUG-GRY',
        ['https://kettle-and-co.example/wp-content/uploads/2024/03/mug-grey.jpg'],
      ],
      ['Black / 350 ml', { Colour: 'Black', Size: '350 ml' }, 1100, 'MUG-BLK', []],
    ]);
  });

  it('keeps variations whose entries could not be read, without prices, and says so', () => {
    const { product } = wooVariable();
    const { items, warnings } = mapWooProducts([product], {
      currency: 'USD',
      storeUrl: 'https://kettle-and-co.example/',
      categories: new Map(),
      variations: new Map(),
    });
    expect(items[0]?.variants.map((v) => v.price)).toEqual([null, null]);
    expect(items[0]?.categoryPath).toEqual(['Mugs']);
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'variation_unread', message: expect.stringContaining('2 of 2') }),
    ]);
  });

  it('skips grouped products and recognises the endpoint by its shape', () => {
    expect(wooProductsOf({ products: [] })).toBeUndefined();
    expect(wooProductsOf([{ foo: 1 }])).toBeUndefined();
    const grouped = { ...wooSimple(2), type: 'grouped', grouped_products: [1001] };
    expect(
      mapWooProducts([grouped, wooSimple(1)], {
        currency: 'USD',
        storeUrl: 'https://k.example/',
        categories,
        variations: new Map(),
      }).items.map((i) => i.name),
    ).toEqual(['Tea Towel – Pattern 1']);
  });
});
