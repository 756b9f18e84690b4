import {
  cellStatesCurrency,
  codeStatesCurrency,
  headerStatesCurrency,
  storeCurrency,
  storeRegion,
} from '../../../lambdas/core/catalog/currency-source';
import { buildCsv } from '../../fixtures/catalog/build';
import { aCatalogJob } from '../../fixtures/catalog/jobs';

const retail = (csv: string, language: 'en_us' | 'de_de' = 'en_us') =>
  buildCsv(csv, aCatalogJob({ job_type: 'new_retail_catalog', job_data: { language } }), 'products.csv');

describe('where a price cell, column or header names a currency', () => {
  test.each([
    ['22.0 USD', true],
    ['€12,50', true],
    ['12.50 kr', true],
    ['$5', true],
    ['12.50', false],
    ['1,200', false],
    ['', false],
  ])('price cell %j states its currency: %s', (cell, expected) => {
    expect(cellStatesCurrency(cell)).toBe(expected);
  });

  test('a JSON price object, a currency code, a header', () => {
    expect(cellStatesCurrency({ amount: 500, currency: 'eur' })).toBe(true);
    expect(cellStatesCurrency({ amount: 500 })).toBe(false);
    expect(cellStatesCurrency(12.5)).toBe(false);
    expect(codeStatesCurrency(' SEK ')).toBe(true);
    expect(codeStatesCurrency('kronor')).toBe(false);
    expect(headerStatesCurrency('Price (CAD)')).toBe(true);
    expect(headerStatesCurrency('Preis [€]')).toBe(true);
    expect(headerStatesCurrency('Price')).toBe(false);
    expect(headerStatesCurrency('Weight (kg)')).toBe(false);
  });
});

describe("the store's region", () => {
  test('from a feed’s <language> with a region', () => {
    expect(storeRegion('<rss><channel><language>es-MX</language>')).toBe('MX');
    expect(storeRegion('<channel><language>en</language><link>https://a.example.com/</link>')).toBeNull();
  });

  test('from the one country-code domain the links share; generic and mixed ones say nothing', () => {
    expect(storeRegion('https://www.shop.example.se/p/1, https://cdn.example.com/i.jpg')).toBe('SE');
    expect(storeRegion('https://shop.example.co.uk/p/1')).toBe('GB');
    expect(storeRegion('https://shop.example.io/p/1 https://shop.example.tv/p/2')).toBeNull();
    expect(storeRegion('https://a.example.se/1 https://b.example.no/2')).toBeNull();
    expect(storeCurrency('https://a.example.se/1 https://a.example.se/2')).toBe('SEK');
    expect(storeCurrency('no links here')).toBeNull();
  });
});

describe('results.sources[].currency_source', () => {
  test('file: a header such as Price (CAD) prices every plain amount in its currency', async () => {
    const { document, results } = await retail('Name,Price (CAD)\nMug,12.50\nCup,8');
    expect(document.items.map((i) => i.variants[0]?.price)).toEqual([
      { amount: 1250, currency: 'CAD' },
      { amount: 800, currency: 'CAD' },
    ]);
    expect(results.sources?.[0]?.currency_source).toBe('file');
  });

  test('file: a price cell that names its currency', async () => {
    const { results } = await retail('Name,Price\nMug,12.50 EUR\nCup,8.00 EUR', 'de_de');
    expect(results.sources?.[0]?.currency_source).toBe('file');
  });

  test('store: plain amounts of a shop whose links are on a country-code domain', async () => {
    const csv =
      'Name,Price,URL\nMug,129,https://www.shop.example.se/mug\nCup,89,https://www.shop.example.se/cup';
    const { document, results } = await retail(csv);
    expect(document.items.map((i) => i.variants[0]?.price)).toEqual([
      { amount: 12900, currency: 'SEK' },
      { amount: 8900, currency: 'SEK' },
    ]);
    expect(results.sources?.[0]?.currency_source).toBe('store');
  });

  test("language: nothing says, the job language's currency is assumed", async () => {
    const { document, results } = await retail('Name,Price\nMug,12.50', 'de_de');
    expect(document.items[0]?.variants[0]?.price).toEqual({ amount: 1250, currency: 'EUR' });
    expect(results.sources?.[0]?.currency_source).toBe('language');
  });

  test('null: a source without prices', async () => {
    const { results } = await retail('Name,SKU\nMug,M-1');
    expect(results.sources?.[0]?.currency_source).toBeNull();
  });
});
