import { buildRetail, csvOf } from '../profiles/helpers';

/**
 * A profile's rules applied to a file they do not fit can leave out most of the SKUs and prices its
 * columns hold; the plain reading of the same columns says how many, and a `values_dropped` warning gives
 * the counts. A platform's parent rows (at most half of the rows) are no such loss.
 */
describe('values a profile reading drops', () => {
  const HEADER = ['ID', 'Type', 'SKU', 'Name', 'Regular price', 'Parent'];

  test('most SKUs and prices left out: one warning with counts', async () => {
    const csv = csvOf([
      HEADER,
      ['1', 'grouped', 'G-1', 'Gift set A', '30', ''],
      ['2', 'grouped', 'G-2', 'Gift set B', '35', ''],
      ['3', 'grouped', 'G-3', 'Gift set C', '40', ''],
      ['4', 'simple', 'S-1', 'Candle', '12', ''],
    ]);
    const { document, results } = await buildRetail(csv);
    expect(document.items.map((i) => i.name)).toEqual(['Candle']);
    const dropped = results.warnings?.filter((w) => w.code === 'values_dropped');
    expect(dropped).toHaveLength(1);
    expect(dropped?.[0]?.message).toMatch(/3 of its 4 SKUs \(G-1, G-2, G-3\) and 3 of the 4 prices/);
  });

  test('parent rows whose variants replace them are no loss', async () => {
    const csv = csvOf([
      HEADER,
      ['10', 'variable', 'TS', 'Tee', '25', ''],
      ['11', 'variation', 'TS-S', 'Tee - S', '20', 'id:10'],
      ['12', 'variation', 'TS-M', 'Tee - M', '22', 'id:10'],
      ['20', 'variable', 'HD', 'Hoodie', '45', ''],
      ['21', 'variation', 'HD-S', 'Hoodie - S', '40', 'id:20'],
      ['22', 'variation', 'HD-M', 'Hoodie - M', '42', 'id:20'],
    ]);
    const { document, results } = await buildRetail(csv);
    expect(document.items.map((i) => i.variants.length)).toEqual([2, 2]);
    expect(results.warnings?.map((w) => w.code)).not.toContain('values_dropped');
  });
});
