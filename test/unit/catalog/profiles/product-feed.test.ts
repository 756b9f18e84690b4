import { commonTitle } from '../../../../lambdas/core/catalog/headers/profiles/product-feed';
import { buildRetail, csvOf, itemNamed, pathOf, profileOf, variantsOf } from './helpers';

const GOOGLE = [
  'id',
  'title',
  'description',
  'link',
  'image_link',
  'additional_image_link',
  'availability',
  'price',
  'sale_price',
  'brand',
  'gtin',
  'mpn',
  'condition',
  'item_group_id',
  'color',
  'size',
  'product_type',
  'google_product_category',
];
const row = (cells: Partial<Record<(typeof GOOGLE)[number], string>>) => GOOGLE.map((h) => cells[h] ?? '');

describe('product feeds (Google Merchant Center, Meta)', () => {
  test.each([
    [GOOGLE, 'google_merchant'],
    [['g:id', 'g:title', 'g:price', 'g:link', 'g:image_link', 'g:availability'], 'google_merchant'],
    [['ID', 'Title', 'Price', 'Image link', 'Condition', 'Item group ID'], 'google_merchant'],
    [
      [
        'id',
        'title',
        'description',
        'availability',
        'condition',
        'price',
        'link',
        'image_link',
        'brand',
        'fb_product_category',
      ],
      'meta',
    ],
    [['id', 'title', 'price', 'link', 'quantity_to_sell_on_facebook', 'condition'], 'meta'],
    [['id', 'title', 'price', 'link'], 'generic'],
    [['title', 'price', 'availability', 'brand'], 'generic'],
  ])('%j is recognised as %s', (headers, profile) => {
    expect(profileOf(headers)).toBe(profile);
  });

  test('the common title of a group, cut at a word', () => {
    expect(commonTitle(['Tee - Black / M', 'Tee - White / M'])).toBe('Tee');
    expect(commonTitle(['Organic Tee', 'Organic Tee'])).toBe('Organic Tee');
    expect(commonTitle(['Wool Beanie Red', 'Wool Beanie Blue'])).toBe('Wool Beanie');
    expect(commonTitle(['Mug', 'Plate'])).toBe('Mug');
  });

  test('offers sharing item_group_id are one item, wherever they are; its options are what varies', async () => {
    const csv = csvOf(
      [
        GOOGLE,
        row({
          id: 'SK-1',
          title: 'Ski Sock - Red / M',
          description: 'Merino',
          image_link: 'https://img.test/red.jpg',
          availability: 'in_stock',
          price: '15.00 EUR',
          brand: 'Alp',
          gtin: '036000291452',
          item_group_id: 'SK',
          color: 'Red',
          size: 'M',
          product_type: 'Sports > Winter',
        }),
        row({
          id: 'BT-1',
          title: 'Bottle',
          image_link: 'https://img.test/b.jpg',
          additional_image_link: 'https://img.test/b2.jpg,https://img.test/b3.jpg',
          price: '9.50 EUR',
          color: 'Steel',
          product_type: 'Outdoor',
        }),
        row({
          id: 'SK-2',
          title: 'Ski Sock - Blue / M',
          image_link: 'https://img.test/blue.jpg',
          availability: 'in_stock',
          price: '16.00 EUR',
          item_group_id: 'SK',
          color: 'Blue',
          size: 'M',
        }),
        row({ id: 'NO-TITLE', price: '1.00 EUR' }),
        row({
          id: 'CUP-S',
          title: 'Cup - Small',
          price: '3.00 EUR',
          item_group_id: 'CUP',
          link: 'https://shop.test/cup',
        }),
        row({
          id: 'CUP-L',
          title: 'Cup - Large',
          price: '4.00 EUR',
          item_group_id: 'CUP',
          link: 'https://shop.test/cup',
        }),
      ],
      '\t',
    );
    const { document, results } = await buildRetail(csv, 'de_de');
    const sock = itemNamed(document, 'Ski Sock');
    expect(variantsOf(sock)).toEqual([
      ['Red', { Color: 'Red' }, 'SK-1', 1500, 'EUR'],
      ['Blue', { Color: 'Blue' }, 'SK-2', 1600, 'EUR'],
    ]);
    expect(sock?.variants.map((v) => v.images.map((i) => i.url))).toEqual([
      ['https://img.test/red.jpg'],
      ['https://img.test/blue.jpg'],
    ]);
    expect(sock).toMatchObject({ brand: 'Alp', description: 'Merino' });
    expect(pathOf(document, sock)).toEqual(['Sports', 'Winter']);
    const bottle = itemNamed(document, 'Bottle');
    expect(variantsOf(bottle)).toEqual([[null, {}, 'BT-1', 950, 'EUR']]);
    expect(bottle?.images.map((i) => i.url)).toEqual([
      'https://img.test/b.jpg',
      'https://img.test/b2.jpg',
      'https://img.test/b3.jpg',
    ]);
    expect(variantsOf(itemNamed(document, 'Cup'))).toEqual([
      ['Small', {}, 'CUP-S', 300, 'EUR'],
      ['Large', {}, 'CUP-L', 400, 'EUR'],
    ]);
    expect(results.warnings).toEqual([
      expect.objectContaining({ row: 5, column: 'title', code: 'missing_name' }),
    ]);
    expect(results.sources?.[0]).toMatchObject({ profile: 'google_merchant' });
    expect(results.sources?.[0]?.ignored_columns).toEqual([
      'link',
      'availability',
      'sale_price',
      'mpn',
      'condition',
      'google_product_category',
    ]);
  });

  test("Meta's feed: its spelling of availability names it, JSON-path images and additional_variant_attribute are read", async () => {
    const csv = csvOf([
      [
        'id',
        'title',
        'description',
        'availability',
        'condition',
        'price',
        'link',
        'image[0].url',
        'image[1].url',
        'item_group_id',
        'additional_variant_attribute',
      ],
      [
        'C-8',
        'Candle',
        'Soy',
        'in stock',
        'new',
        '20.00 USD',
        'https://shop.test/c',
        'https://img.test/c.jpg',
        'https://img.test/c2.jpg',
        'C',
        'Scent:Fig,Wick:Wood',
      ],
      [
        'C-9',
        'Candle',
        'Soy',
        'out of stock',
        'new',
        '22.00 USD',
        'https://shop.test/c',
        'https://img.test/c.jpg',
        '',
        'C',
        'Scent:Sea Salt,Wick:Wood',
      ],
    ]);
    const { document, results } = await buildRetail(csv);
    const candle = itemNamed(document, 'Candle');
    expect(variantsOf(candle)).toEqual([
      ['Fig', { Scent: 'Fig' }, 'C-8', 2000, 'USD'],
      ['Sea Salt', { Scent: 'Sea Salt' }, 'C-9', 2200, 'USD'],
    ]);
    expect(candle?.images.map((i) => i.url)).toEqual(['https://img.test/c.jpg', 'https://img.test/c2.jpg']);
    expect(results.sources?.[0]).toMatchObject({ profile: 'meta' });
  });
});
