import type { CatalogDocument } from '../../../../lambdas/core/catalog/document';
import { carriedCategory } from '../../../../lambdas/core/catalog/rows/carried-category';
import { buildCsv } from '../../../fixtures/catalog/build';
import { aCatalogJob, RETAIL_JOB_ID } from '../../../fixtures/catalog/jobs';

/** Menu spreadsheets as people lay them out (issue 11), read through the whole pipeline. */

const categoryOf = (document: CatalogDocument, name: string): string | null => {
  const item = document.items.find((i) => i.name === name);
  if (item === undefined) throw new Error(`no item ${name}`);
  return document.categories.find((c) => c.id === item.category_id)?.name ?? null;
};

describe('a category written once per group (merged cells)', () => {
  test('carriedCategory keeps the last category until another is named', () => {
    const carry = carriedCategory();
    expect(carry(null)).toBeNull();
    expect(carry(['Burgers'])).toEqual(['Burgers']);
    expect(carry(null)).toEqual(['Burgers']);
    expect(carry(['Sides'])).toEqual(['Sides']);
    expect(carry(null)).toEqual(['Sides']);
  });

  test('menu rows under a filled category cell are in that category', async () => {
    const { document, results } = await buildCsv(
      'Category,Dish,Price\nBurgers,Classic,12\n,Cheese,13\n,Bacon,14\nSides,Fries,4\n,Rings,5\n',
    );
    expect(document.items.map((i) => [i.name, categoryOf(document, i.name)])).toEqual([
      ['Classic', 'Burgers'],
      ['Cheese', 'Burgers'],
      ['Bacon', 'Burgers'],
      ['Fries', 'Sides'],
      ['Rings', 'Sides'],
    ]);
    expect(document.categories.map((c) => c.name)).toEqual(['Burgers', 'Sides']);
    expect(results.warning_count).toBe(0);
  });

  test('rows before the first category stay uncategorised', async () => {
    const { document } = await buildCsv('Category,Dish,Price\n,Water,1\nDrinks,Cola,2\n,Tea,2\n');
    expect(document.items.map((i) => [i.name, categoryOf(document, i.name)])).toEqual([
      ['Water', null],
      ['Cola', 'Drinks'],
      ['Tea', 'Drinks'],
    ]);
  });

  test('a retail list keeps an empty category cell uncategorised', async () => {
    const { document } = await buildCsv(
      'Name,Category,Price\nMilk,Dairy,1\nBatteries,,2\n',
      aCatalogJob({ id: RETAIL_JOB_ID, job_type: 'new_retail_catalog' }),
    );
    expect(categoryOf(document, 'Batteries')).toBeNull();
  });
});
