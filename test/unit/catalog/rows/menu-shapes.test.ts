import type { CatalogDocument } from '../../../../lambdas/core/catalog/document';
import { subHeader } from '../../../../lambdas/core/catalog/headers/sub-header';
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

const variantsOf = (document: CatalogDocument) =>
  document.items.map((i) => [i.name, i.variants.map((v) => [v.name, v.price?.amount ?? null])]);

describe('sizes as letters and sizes in one cell', () => {
  test('S, M, L price columns are one variant per size', async () => {
    const { document, results } = await buildCsv(
      'Category,Item,S,M,L\nCoffee,Latte,3.50,4.00,4.50\nCoffee,Mocha,3.75,,4.75\n',
    );
    expect(variantsOf(document)).toEqual([
      [
        'Latte',
        [
          ['S', 350],
          ['M', 400],
          ['L', 450],
        ],
      ],
      [
        'Mocha',
        [
          ['S', 375],
          ['L', 475],
        ],
      ],
    ]);
    expect(results.sources?.[0]?.columns).toMatchObject({ S: 'price (S)', M: 'price (M)', L: 'price (L)' });
    expect(results.warning_count).toBe(0);
  });

  test('a lone letter column is not a size', async () => {
    const { document, results } = await buildCsv('Item,Price,M\nLatte,4,x\n');
    expect(variantsOf(document)).toEqual([['Latte', [[null, 400]]]]);
    expect(results.sources?.[0]?.ignored_columns).toEqual(['M']);
  });

  test('`S / M / L` in the size cell names the prices `10 / 12 / 14` of the row', async () => {
    const { document, results } = await buildCsv(
      'Category,Item,Size,Price\nPizza,Margherita,S / M / L,10 / 12 / 14\nPizza,Pepperoni,Small/Large,11/15\n',
    );
    expect(variantsOf(document)).toEqual([
      [
        'Margherita',
        [
          ['S', 1000],
          ['M', 1200],
          ['L', 1400],
        ],
      ],
      [
        'Pepperoni',
        [
          ['Small', 1100],
          ['Large', 1500],
        ],
      ],
    ]);
    expect(document.items[0]?.variants.map((v) => [v.options, v.size])).toEqual([
      [{ Size: 'S' }, null],
      [{ Size: 'M' }, null],
      [{ Size: 'L' }, null],
    ]);
    expect(results.warning_count).toBe(0);
  });

  test('a size cell whose labels do not match the prices leaves them numbered, with a warning', async () => {
    const { document, results } = await buildCsv('Item,Size,Price\nPizza,S / L,10 / 12 / 14\n');
    expect(variantsOf(document)).toEqual([
      [
        'Pizza',
        [
          ['1', 1000],
          ['2', 1200],
          ['3', 1400],
        ],
      ],
    ]);
    expect(results.warnings?.map((w) => w.code)).toEqual(['unlabelled_prices']);
  });
});

describe('abbreviated sizes', () => {
  test('Reg and Lg price columns are sizes (not only the one the list knew)', async () => {
    const { document, results } = await buildCsv('Drink,Reg,Lg\nLatte,3.50,4.25\n');
    expect(variantsOf(document)).toEqual([
      [
        'Latte',
        [
          ['Reg', 350],
          ['Lg', 425],
        ],
      ],
    ]);
    expect(results.sources?.[0]?.ignored_columns).toEqual([]);
  });

  test('a header made of size letters (S/M/L) names the prices of each cell', async () => {
    const { document, results } = await buildCsv('Item,S/M/L\nLatte,3/4/5\n');
    expect(variantsOf(document)).toEqual([
      [
        'Latte',
        [
          ['S', 300],
          ['M', 400],
          ['L', 500],
        ],
      ],
    ]);
    expect(results.warning_count).toBe(0);
  });
});

describe('a header on two rows (Price merged over the sizes)', () => {
  test('subHeader takes the size labels of the row below', () => {
    expect(subHeader(['Pizza', 'Price', '', ''], ['', 'Small', 'Medium', 'Large'])).toEqual([
      'Pizza',
      'Small',
      'Medium',
      'Large',
    ]);
    expect(subHeader(['Item', 'Price', ''], ['', 'S', 'L'])).toEqual(['Item', 'S', 'L']);
    // A data row, a lone label, or labels that are not sizes: not a second header row.
    expect(subHeader(['Item', 'Price', ''], ['Latte', '4', '5'])).toBeNull();
    expect(subHeader(['Item', 'Price', ''], ['', 'Small', ''])).toBeNull();
    expect(subHeader(['Item', 'Price', ''], ['', 'Hot', 'Iced drinks menu'])).toBeNull();
  });

  test('every size column is read, the label row is neither an item nor a warning', async () => {
    const { document, results } = await buildCsv(
      'Pizza,Price,,\n,Small,Medium,Large\nMargherita,10,12,14\nPepperoni,11,,15\n',
    );
    expect(variantsOf(document)).toEqual([
      [
        'Margherita',
        [
          ['Small', 1000],
          ['Medium', 1200],
          ['Large', 1400],
        ],
      ],
      [
        'Pepperoni',
        [
          ['Small', 1100],
          ['Large', 1500],
        ],
      ],
    ]);
    expect(results.warning_count).toBe(0);
    expect(results.sources?.[0]).toMatchObject({ header_row: 1, rows: 2, ignored_columns: [] });
  });
});
