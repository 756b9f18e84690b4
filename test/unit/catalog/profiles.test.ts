import type { CatalogDocument } from '../../../lambdas/core/catalog/document';
import { buildCsv } from '../../fixtures/catalog/build';
import { aCatalogJob } from '../../fixtures/catalog/jobs';

const retail = aCatalogJob({ job_type: 'new_retail_catalog' });
const variants = (document: CatalogDocument) =>
  document.items.map((i) => [
    i.name,
    i.option_names,
    i.variants.map((v) => [v.name, v.options, v.sku, v.price?.amount ?? null, v.pricing]),
  ]);

describe('Shopify product CSV', () => {
  const csv = [
    'Handle,Title,Body (HTML),Vendor,Product Category,Type,Tags,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Variant SKU,Variant Price,Variant Barcode,Image Src,Image Position,Variant Image,Status',
    'tee,Classic Tee,<p>Soft <b>cotton</b>.</p>,Acme,Apparel > Shirts,Shirts,"basic, cotton",Size,S,Color,Black,T-S-B,20.00,036000291452,https://cdn.test/tee-2.jpg,2,https://cdn.test/tee-sb.jpg,active',
    'tee,,,,,,,,M,,Black,T-M-B,22.00,,https://cdn.test/tee-1.jpg,1,,',
    'tee,,,,,,,,,,,,,,https://cdn.test/tee-3.jpg,3,,',
    'mug,Mug,,Acme,Home,,,Title,Default Title,,,MUG-1,8.50,,,,,active',
    ',,,,,,,,,,,,,,,,,',
  ].join('\r\n');

  test('rows sharing a Handle are one product; image rows add images in position order; Default Title is no option', async () => {
    const { document, results } = await buildCsv(csv, retail);
    expect(variants(document)).toEqual([
      [
        'Classic Tee',
        ['Size', 'Color'],
        [
          ['S / Black', { Size: 'S', Color: 'Black' }, 'T-S-B', 2000, 'fixed'],
          ['M / Black', { Size: 'M', Color: 'Black' }, 'T-M-B', 2200, 'fixed'],
        ],
      ],
      ['Mug', [], [[null, {}, 'MUG-1', 850, 'fixed']]],
    ]);
    const tee = document.items[0];
    expect(tee?.images.map((i) => i.url)).toEqual([
      'https://cdn.test/tee-1.jpg',
      'https://cdn.test/tee-2.jpg',
      'https://cdn.test/tee-3.jpg',
    ]);
    expect(tee?.variants[0]?.images.map((i) => i.url)).toEqual(['https://cdn.test/tee-sb.jpg']);
    expect(tee).toMatchObject({ description: 'Soft cotton.', brand: 'Acme', tags: ['basic', 'cotton'] });
    expect(tee?.variants[0]?.gtin).toBe('036000291452');
    expect(document.categories.map((c) => c.name)).toEqual(['Apparel', 'Shirts', 'Home']);
    expect(results.warning_count).toBe(0);
    expect(results.sources?.[0]?.ignored_columns).toEqual(['Status']);
  });
});

describe('Square item library export', () => {
  test('Item Name groups variations; Regular alone is no name; variable price; location columns ignored', async () => {
    const csv = [
      '\ufeffToken,Item Name,Variation Name,SKU,Description,Categories,Price,Option Name 1,Option Value 1,Enabled [Main St],Current Quantity [Main St],Price [Main St],Tax - Sales (8%)',
      'T1,Latte,Small,LAT-S,Espresso and milk,Coffee,4.00,Size,Small,Y,,4.25,Y',
      'T2,Latte,Large,LAT-L,,Coffee,5.00,Size,Large,Y,,,Y',
      'T3,Muffin,Regular,MUF,,"Bakery, Breakfast",3.25,,,Y,12,,N',
      'T4,Catch of the day,Regular,,,Food,variable,,,Y,,,Y',
    ].join('\n');
    const { document, results } = await buildCsv(csv);
    expect(variants(document)).toEqual([
      [
        'Latte',
        ['Size'],
        [
          ['Small', { Size: 'Small' }, 'LAT-S', 400, 'fixed'],
          ['Large', { Size: 'Large' }, 'LAT-L', 500, 'fixed'],
        ],
      ],
      ['Muffin', [], [[null, {}, 'MUF', 325, 'fixed']]],
      ['Catch of the day', [], [[null, {}, null, null, 'variable']]],
    ]);
    expect(results.sources?.[0]).toMatchObject({
      profile: 'square',
      ignored_columns: [
        'Token',
        'Enabled [Main St]',
        'Current Quantity [Main St]',
        'Price [Main St]',
        'Tax - Sales (8%)',
      ],
    });
    expect(results.warnings).toEqual([expect.objectContaining({ row: 4, code: 'several_categories' })]);
  });
});

describe('WooCommerce product CSV', () => {
  test('variations attach to their parent by SKU or id:N; A > B, C categories; grouped products skipped', async () => {
    const csv = [
      'ID,Type,SKU,Name,Published,Short description,Description,Regular price,Sale price,Categories,Tags,Images,Parent,Attribute 1 name,Attribute 1 value(s),Attribute 1 visible,Attribute 1 global',
      '10,variable,hoodie,Hoodie,1,,Warm\\nand soft,,,"Clothing, Clothing > Hoodies",winter,"https://w.test/h1.jpg, https://w.test/h2.jpg",,Color,"Blue, Red",1,1',
      '11,variation,hoodie-blue,Hoodie - Blue,1,,,45,40,,,https://w.test/hb.jpg,hoodie,Color,Blue,,1',
      '12,variation,,Hoodie - Red,1,,,47,,,,,id:10,Color,Red,,1',
      '13,"simple, virtual",album,Album,1,,,15,,Music,,,,,,,',
      '14,grouped,set,Gift set,1,,,,,Gifts,,,,,,,',
      '15,variation,x-1,Orphan - Green,1,,,9,,,,,missing-parent,Color,Green,,1',
    ].join('\n');
    const { document, results } = await buildCsv(csv, retail);
    const byName = new Map(document.items.map((i) => [i.name, i]));
    expect(variants(document).find(([name]) => name === 'Hoodie')).toEqual([
      'Hoodie',
      ['Color'],
      [
        ['Blue', { Color: 'Blue' }, 'hoodie-blue', 4500, 'fixed'],
        ['Red', { Color: 'Red' }, null, 4700, 'fixed'],
      ],
    ]);
    expect(byName.get('Hoodie')?.description).toBe('Warm\nand soft');
    expect(byName.get('Hoodie')?.variants[0]?.images.map((i) => i.url)).toEqual(['https://w.test/hb.jpg']);
    expect(byName.get('Album')?.variants).toHaveLength(1);
    expect(byName.has('Gift set')).toBe(false);
    expect(byName.get('Orphan - Green')?.variants[0]?.sku).toBe('x-1');
    const hoodie = byName.get('Hoodie');
    const category = document.categories.find((c) => c.id === hoodie?.category_id);
    expect(category?.name).toBe('Hoodies');
    expect(results.warnings?.map((w) => w.code).sort()).toEqual(['invalid_value', 'orphan_variant']);
    expect(results.sources?.[0]?.ignored_columns).toEqual([
      'Published',
      'Sale price',
      'Attribute 1 visible',
      'Attribute 1 global',
    ]);
  });
});
