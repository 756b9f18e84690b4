import { buildFrom } from '../../../fixtures/catalog/build';
import { aCatalogJob, RETAIL_JOB_ID } from '../../../fixtures/catalog/jobs';

/** A Shopify store's /products.json saved as a file is read as the storefront reader reads it. */

const retail = (language: 'en_us' | 'fr_fr' = 'en_us') =>
  aCatalogJob({ id: RETAIL_JOB_ID, job_type: 'new_retail_catalog', job_data: { language } });

const productsJson = JSON.stringify({
  products: [
    {
      id: 1,
      title: 'Tee',
      body_html: '<p>Soft <b>cotton</b></p>',
      vendor: 'Acme',
      product_type: 'Shirts',
      tags: ['basics', 'cotton'],
      variants: [
        { id: 11, title: 'S', option1: 'S', sku: 'T-S', price: '20.00' },
        { id: 12, title: 'M', option1: 'M', sku: 'T-M', price: '22.50' },
      ],
      options: [{ name: 'Size', position: 1, values: ['S', 'M'] }],
      images: [{ src: 'https://cdn.shopify.com/t.jpg', variant_ids: [12] }],
    },
    {
      id: 2,
      title: 'Mug',
      vendor: 'Acme',
      product_type: '',
      tags: 'kitchen, gift',
      variants: [{ id: 21, title: 'Default Title', option1: 'Default Title', sku: 'MUG', price: '9.00' }],
      options: [{ name: 'Title', position: 1, values: ['Default Title'] }],
      images: [],
    },
  ],
});

describe('a saved Shopify /products.json', () => {
  test('products with their variants, options, prices in the job currency, images and tags', async () => {
    const { document, results } = await buildFrom(
      [{ source: 'products.json', body: productsJson, contentType: 'application/json' }],
      retail('fr_fr'),
    );
    expect(results.sources?.[0]).toMatchObject({ format: 'json', profile: 'shopify' });
    expect(
      document.items.map((i) => [
        i.name,
        i.brand,
        i.tags,
        i.option_names,
        i.variants.map((v) => [v.name, v.sku, v.price, v.images.map((m) => m.url)]),
      ]),
    ).toEqual([
      [
        'Tee',
        'Acme',
        ['basics', 'cotton'],
        ['Size'],
        [
          ['S', 'T-S', { amount: 2000, currency: 'EUR' }, []],
          ['M', 'T-M', { amount: 2250, currency: 'EUR' }, ['https://cdn.shopify.com/t.jpg']],
        ],
      ],
      ['Mug', 'Acme', ['kitchen', 'gift'], [], [[null, 'MUG', { amount: 900, currency: 'EUR' }, []]]],
    ]);
    expect(results.warning_count).toBe(0);
  });

  test('an object holding a "products" array of plain rows is still read as rows', async () => {
    const { document, results } = await buildFrom(
      [
        {
          source: 'rows.json',
          body: JSON.stringify({ products: [{ name: 'Mug', price: 9, category: 'Kitchen' }] }),
          contentType: 'application/json',
        },
      ],
      retail(),
    );
    expect(results.sources?.[0]?.profile).toBe('generic');
    expect(document.items.map((i) => [i.name, i.variants[0]?.price?.amount])).toEqual([['Mug', 900]]);
  });
});
