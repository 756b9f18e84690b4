import { genericLookup } from '../../../../lambdas/core/catalog/headers/columns';
import { genericPlan } from '../../../../lambdas/core/catalog/headers/generic-plan';
import { normaliseHeader } from '../../../../lambdas/core/catalog/headers/normalise';
import { headerCurrencyOf, priceWordRank } from '../../../../lambdas/core/catalog/headers/price-words';
import { headerCurrency } from '../../../../lambdas/core/catalog/rows/row-cells';
import { buildCsv } from '../../../fixtures/catalog/build';
import { aCatalogJob } from '../../../fixtures/catalog/jobs';

/** Price columns named in a shop's own words (headers/price-words.ts), and the currency a header states. */

const fieldOf = (header: string) => genericLookup(normaliseHeader(header), header)?.[0];

describe('a header whose words contain a price word is a price column', () => {
  test.each([
    ['display_price', 'price'],
    ['Sale price', 'price'],
    ['Prix public', 'price'],
    ['Preis in EUR', 'price'],
    ['price_yen', 'price'],
    ['通常価格', 'price'],
    ['价格(元)', 'price'],
    ['Цена', 'price'],
    ['Price (in CAD)', 'price'],
    ['cost_price', undefined],
    ['price_kbn', undefined],
    ['Compare at price', undefined],
    ['Price - Large', undefined],
    ['Price (Large)', undefined],
    ['仕入価格', undefined],
    ['Notes', undefined],
  ])('%s → %s', (header, field) => {
    expect(fieldOf(header)).toBe(field);
  });

  test('the header with fewer other words is preferred, the other read only where it is empty', () => {
    expect(priceWordRank('display price')).toBeLessThan(priceWordRank('display special price') ?? 0);
    const plan = genericPlan(['product_id', 'name', 'display_special_price', 'display_price'], {
      sizeColumns: false,
    });
    expect(plan.map.fields.get('price')).toEqual([3, 2]);
  });

  test('a known alias is read before a header that only contains a price word', () => {
    const plan = genericPlan(['Name', 'member_price', 'Price'], { sizeColumns: false });
    expect(plan.map.fields.get('price')).toEqual([2, 1]);
  });
});

describe('the currency a price header states', () => {
  test.each([
    ['Price (CAD)', 'CAD'],
    ['price_yen', 'JPY'],
    ['Preis in EUR', 'EUR'],
    ['价格(元)', 'CNY'],
    ['PRICE_SEK', 'SEK'],
    ['Price', null],
    ['display_price', null],
    ['Price all items', null],
  ])('%s → %s', (header, currency) => {
    expect(headerCurrency(header, 'USD')).toBe(currency);
  });

  test('two different currencies in one header state none', () => {
    expect(headerCurrencyOf('Price EUR / USD', 'USD')).toBeUndefined();
  });

  test('a shop export with display_price in yen: prices read, in the header’s currency', async () => {
    const csv = [
      'product_id,name,price_yen,list_flg',
      'A-1,Green tea 100g,1200,1',
      'A-2,Roasted tea 100g,980,0',
    ].join('\n');
    const { document } = await buildCsv(csv, aCatalogJob({ job_type: 'new_retail_catalog' }), 'shop.csv');
    expect(document.items.map((i) => i.variants[0]?.price)).toEqual([
      { amount: 1200, currency: 'JPY' },
      { amount: 980, currency: 'JPY' },
    ]);
  });
});

describe('a record id column keeps products apart', () => {
  test('two products of one name under different product ids are two items, with a warning', async () => {
    const csv = [
      'product_id,name,display_price',
      'P-1,Gift set,3000',
      'P-2,Gift set,4500',
      'P-3,Hand cream,800',
    ].join('\n');
    const { document, results } = await buildCsv(
      csv,
      aCatalogJob({ job_type: 'new_retail_catalog' }),
      'shop.csv',
    );
    expect(document.items.map((i) => [i.name, i.variants[0]?.price?.amount])).toEqual([
      ['Gift set', 300000],
      ['Gift set', 450000],
      ['Hand cream', 80000],
    ]);
    expect((results.warnings ?? []).map((w) => w.code)).toContain('shared_name');
  });

  test('rows of one product in several sizes keep grouping even when each row has its own id', async () => {
    const csv = ['id,name,size,price', '1,Olive oil,250 ml,6.50', '2,Olive oil,500 ml,11.00'].join('\n');
    const { document } = await buildCsv(csv, aCatalogJob({ job_type: 'new_retail_catalog' }), 'shop.csv');
    expect(document.items).toHaveLength(1);
    expect(document.items[0]?.variants).toHaveLength(2);
  });
});
