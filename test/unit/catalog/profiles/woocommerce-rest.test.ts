import { buildCsv } from '../../../fixtures/catalog/build';
import { aCatalogJob } from '../../../fixtures/catalog/jobs';
import { buildRetail, csvOf, itemNamed, pathOf, variantsOf } from './helpers';

/**
 * A dump of WooCommerce's REST API (`GET /wp-json/wc/v3/products`): one record per product, `type`,
 * `regular_price`, `sale_price` and `price` (the price the shop charges now), categories and tags as lists
 * of `{ id, name, slug }`, `variations` as a list of ids. It resembles the CSV export but holds no
 * variation rows: its variable products keep their own price and SKU.
 */

const HEADER = ['id', 'name', 'type', 'status', 'sku', 'price', 'regular_price', 'sale_price', 'categories'];

describe('WooCommerce REST API dumps', () => {
  test('CSV: a variable product without variation rows keeps its price and SKU, with one warning', async () => {
    const csv = csvOf([
      HEADER,
      ['501', 'Rain jacket', 'variable', 'publish', 'RJ-1', '54.90', '', '', 'Kids; Jackets'],
      ['502', 'Wool hat', 'simple', 'publish', 'WH-1', '12.00', '15.00', '12.00', 'Accessories'],
      ['503', 'Scarf', 'variable', 'publish', 'SC-1', '19.50', '', '', 'Accessories'],
    ]);
    const { document, results } = await buildRetail(csv);
    expect(results.sources?.[0]?.profile).toBe('woocommerce');
    expect(variantsOf(itemNamed(document, 'Rain jacket'))).toEqual([[null, {}, 'RJ-1', 5490, 'USD']]);
    expect(variantsOf(itemNamed(document, 'Scarf'))).toEqual([[null, {}, 'SC-1', 1950, 'USD']]);
    // The regular price is the price; the REST `price` is read when no regular price is given.
    expect(variantsOf(itemNamed(document, 'Wool hat'))).toEqual([[null, {}, 'WH-1', 1500, 'USD']]);
    expect(pathOf(document, itemNamed(document, 'Rain jacket'))).toEqual(['Kids']);
    const unread = results.warnings?.filter((w) => w.code === 'variation_unread') ?? [];
    expect(unread).toEqual([
      expect.objectContaining({ row: 2, message: expect.stringMatching(/^2 variable product\(s\)/) }),
    ]);
  });

  test('an export with its variation rows is grouped as before, with no variation_unread warning', async () => {
    const csv = csvOf([
      ['ID', 'Type', 'SKU', 'Name', 'Regular price', 'Parent', 'Attribute 1 name', 'Attribute 1 value(s)'],
      ['10', 'variable', 'TS', 'Tee', '', '', 'Size', 'S, M'],
      ['11', 'variation', 'TS-S', 'Tee - S', '20', 'id:10', 'Size', 'S'],
      ['12', 'variation', 'TS-M', 'Tee - M', '22', 'id:10', 'Size', 'M'],
    ]);
    const { document, results } = await buildRetail(csv);
    expect(variantsOf(itemNamed(document, 'Tee'))).toEqual([
      ['S', { Size: 'S' }, 'TS-S', 2000, 'USD'],
      ['M', { Size: 'M' }, 'TS-M', 2200, 'USD'],
    ]);
    expect(results.warnings?.map((w) => w.code)).not.toContain('variation_unread');
  });

  test('JSON: categories and tags as lists of { id, name, slug }, images as { src }', async () => {
    const products = [
      {
        id: 77,
        name: 'Canvas tote',
        type: 'variable',
        sku: 'TOTE',
        price: '18.00',
        regular_price: '',
        sale_price: '',
        categories: [
          { id: 3, name: 'Bags', slug: 'bags' },
          { id: 4, name: 'Gifts', slug: 'gifts' },
        ],
        tags: [{ id: 8, name: 'cotton', slug: 'cotton' }],
        images: [{ id: 1, src: 'https://shop.example/tote.jpg', name: 'tote', alt: '' }],
        variations: [78, 79],
      },
    ];
    const { document, results } = await buildCsv(
      JSON.stringify(products),
      aCatalogJob({ job_type: 'new_retail_catalog' }),
      'products.json',
    );
    expect(results.sources?.[0]?.profile).toBe('woocommerce');
    const tote = itemNamed(document, 'Canvas tote');
    expect(variantsOf(tote)).toEqual([[null, {}, 'TOTE', 1800, 'USD']]);
    expect(pathOf(document, tote)).toEqual(['Bags']);
    expect(tote?.tags).toEqual(['cotton']);
    expect(results.warnings?.map((w) => w.code)).toEqual(
      expect.arrayContaining(['variation_unread', 'several_categories']),
    );
  });
});
