import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { buildRetail, csvOf } from './helpers';

/**
 * A profile finds its columns by their headers: the same export with its columns in another order, or
 * without the columns it ignores, gives the same catalog (platforms reorder and add columns between
 * versions; merchants delete the ones they do not use).
 */

const DIR = join(__dirname, '../../../fixtures/merchant-files');

const FIXTURES: readonly (readonly [string, string, 'en_us' | 'en_ca'])[] = [
  ['bigcommerce-products.csv', ',', 'en_us'],
  ['wix-stores-products.csv', ',', 'en_us'],
  ['squarespace-products.csv', ',', 'en_us'],
  ['etsy-listings.csv', ',', 'en_ca'],
  ['lightspeed-x-series-products.csv', ',', 'en_us'],
  ['google-merchant-feed.tsv', '\t', 'en_us'],
  ['meta-catalog-template.csv', ',', 'en_us'],
];

const rowsOf = (file: string, delimiter: string): string[][] =>
  parse(readFileSync(join(DIR, file), 'utf8'), { delimiter, relax_column_count: true, bom: true });

describe.each(FIXTURES)('%s', (file, delimiter, language) => {
  const rows = rowsOf(file, delimiter);

  test('its columns in reverse order give the same catalog', async () => {
    const original = await buildRetail(csvOf(rows, delimiter), language);
    const reversed = await buildRetail(
      csvOf(
        rows.map((row) => [...row].reverse()),
        delimiter,
      ),
      language,
    );
    expect(original.document.items.length).toBeGreaterThan(0);
    expect(reversed.document.items).toEqual(original.document.items);
    expect(reversed.document.categories).toEqual(original.document.categories);
    expect(reversed.results.sources?.[0]?.profile).toBe(original.results.sources?.[0]?.profile);
  });

  test('without the columns it ignores, it gives the same catalog', async () => {
    const original = await buildRetail(csvOf(rows, delimiter), language);
    const ignored = new Set(original.results.sources?.[0]?.ignored_columns);
    const header = rows.find((row) => row.some((cell) => ignored.has(cell))) ?? [];
    const keep = header.map((cell) => !ignored.has(cell));
    const trimmed = await buildRetail(
      csvOf(
        rows.map((row) => row.filter((_, i) => keep[i] ?? true)),
        delimiter,
      ),
      language,
    );
    expect(ignored.size).toBeGreaterThan(0);
    expect(trimmed.document.items).toEqual(original.document.items);
    expect(trimmed.results.sources?.[0]?.ignored_columns).toEqual([]);
  });
});
