import { CatalogAssembler } from '../../../lambdas/core/catalog/assembly/assembler';
import { identifyingSku, retailIdentity } from '../../../lambdas/core/catalog/assembly/identity';
import type { DraftItem } from '../../../lambdas/core/catalog/draft';
import type { CatalogWarning } from '../../../lambdas/core/catalog/warnings';
import { RETAIL_JOB_ID } from '../../fixtures/catalog/jobs';

/**
 * Nothing merged that a merchant keeps (assembly/assembler.ts): rows of one source that share a barcode
 * or SKU but differ in name, price or id are different products, kept and reported once per identifier
 * with their number; across sources one barcode stays one product.
 */

const EUR = (amount: number) => ({ amount, currency: 'EUR' });
let nextRow = 2;
const product = (over: Partial<DraftItem> = {}, source = 'shop.csv'): DraftItem => ({
  kind: 'item',
  categoryPath: [],
  name: 'Blue mug',
  variants: [{ gtin: '4006381333931', price: EUR(1200) }],
  provenance: { source, row: nextRow++ },
  ...over,
});

const assemble = (drafts: DraftItem[]) => {
  const warnings: CatalogWarning[] = [];
  const assembler = new CatalogAssembler({
    jobId: RETAIL_JOB_ID,
    identity: retailIdentity,
    warn: (w) => warnings.push(w),
  });
  for (const d of drafts) assembler.add(d, 'shop.csv');
  return { ...assembler.finish(), warnings };
};

describe('products that share an identifier', () => {
  test('three products of one file under one barcode, with other names or prices: three items, one warning with the count', () => {
    const { items, warnings } = assemble([
      product(),
      product({ name: 'Green bowl' }),
      product({ variants: [{ gtin: '4006381333931', price: EUR(900) }] }),
    ]);
    expect(items.map((i) => [i.name, i.variants[0]?.price?.amount])).toEqual([
      ['Blue mug', 1200],
      ['Green bowl', 1200],
      ['Blue mug', 900],
    ]);
    expect(new Set(items.map((i) => i.id)).size).toBe(3);
    expect(warnings).toEqual([
      expect.objectContaining({
        code: 'shared_identifier',
        column: 'gtin',
        message: expect.stringMatching(/^3 products share the GTIN "4006381333931"/),
      }),
    ]);
  });

  test('the same row twice (same barcode and price, the name as written or with a word more) is one product', () => {
    const { items, warnings } = assemble([
      product(),
      product({ name: 'Blue Mug, 300 ml' }),
      product({ name: 'blue-mug' }),
    ]);
    expect(items).toHaveLength(1);
    expect(warnings.map((w) => w.code)).toEqual(['duplicate_product', 'duplicate_product']);
  });

  test('across two sources one barcode is one product, whatever each calls it', () => {
    const { items, warnings } = assemble([product(), product({ name: 'Mug, blue' }, 'supplier.csv')]);
    expect(items.map((i) => i.name)).toEqual(['Blue mug']);
    expect(warnings.map((w) => w.code)).toEqual(['duplicate_product']);
  });

  test('a SKU shared by variants of two different products: both kept', () => {
    const { items, warnings } = assemble([
      product({
        name: 'Tee',
        optionNames: ['Size'],
        variants: [
          { sku: 'T-S', options: { Size: 'S' }, price: EUR(1500) },
          { sku: 'T-M', options: { Size: 'M' }, price: EUR(1500) },
        ],
      }),
      product({
        name: 'Hoodie',
        optionNames: ['Size'],
        variants: [{ sku: 'T-S', options: { Size: 'S' }, price: EUR(4000) }],
      }),
    ]);
    expect(items.map((i) => [i.name, i.variants.map((v) => v.sku)])).toEqual([
      ['Tee', ['T-S', 'T-M']],
      ['Hoodie', ['T-S']],
    ]);
    expect(warnings).toEqual([expect.objectContaining({ code: 'shared_identifier', column: 'sku' })]);
  });

  test('different platform ids under one name are never one item', () => {
    const { items, warnings } = assemble([
      product({ name: 'Basket', sourceKey: 'basket', variants: [{ price: EUR(900) }] }),
      product({ name: 'Basket', sourceKey: 'basket-large', variants: [{ price: EUR(1900) }] }),
    ]);
    expect(items.map((i) => i.variants[0]?.price?.amount)).toEqual([900, 1900]);
    expect(warnings.map((w) => w.code)).toEqual(['shared_name']);
  });
});

describe('values a spreadsheet damaged are no identifiers', () => {
  test.each([
    ["'1", null],
    ['-', null],
    ['0', null],
    ['n/a', null],
    ['MUG-1', 'MUG-1'],
    ['0012', '0012'],
  ])('identifyingSku(%j) → %j', (sku, expected) => {
    expect(identifyingSku(sku)).toBe(expected);
  });

  test("two products whose SKU cell reads '1 are two items, kept without a duplicate warning", () => {
    const { items, warnings } = assemble([
      product({ name: 'Blue mug', variants: [{ sku: "'1", price: EUR(1200) }] }),
      product({ name: 'Green bowl', variants: [{ sku: "'1", price: EUR(1500) }] }),
    ]);
    expect(items.map((i) => i.name)).toEqual(['Blue mug', 'Green bowl']);
    expect(warnings).toEqual([]);
  });
});
