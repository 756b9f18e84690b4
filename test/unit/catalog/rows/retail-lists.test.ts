import type { CatalogDocument } from '../../../../lambdas/core/catalog/document';
import { genericPlan } from '../../../../lambdas/core/catalog/headers/generic-plan';
import { buildCsv } from '../../../fixtures/catalog/build';
import { aCatalogJob, RETAIL_JOB_ID } from '../../../fixtures/catalog/jobs';

/** Product lists as POS systems and suppliers lay them out (issue 11). */

const retail = aCatalogJob({ id: RETAIL_JOB_ID, job_type: 'new_retail_catalog' });

const pathOf = (document: CatalogDocument, id: string | null): string[] => {
  const byId = new Map(document.categories.map((c) => [c.id, c]));
  const names: string[] = [];
  for (let c = id === null ? undefined : byId.get(id); c; c = c.parent_id ? byId.get(c.parent_id) : undefined)
    names.unshift(c.name);
  return names;
};

const fieldsOf = (headers: string[]) =>
  Object.fromEntries(
    [...genericPlan(headers, { sizeColumns: false }).map.fields].map(([f, i]) => [
      f,
      i.map((n) => headers[n]),
    ]),
  );

describe('no column named like a name', () => {
  test('Code, Description, Price: the description names the product', async () => {
    const { document, results } = await buildCsv('Code,Description,Price\nA1,Widget,2.00\n', retail);
    expect(document.items.map((i) => [i.name, i.description, i.variants[0]?.sku])).toEqual([
      ['Widget', null, 'A1'],
    ]);
    expect(results.sources?.[0]?.columns).toEqual({ Code: 'sku', Description: 'name', Price: 'price' });
  });

  test('an unknown column before the description is still the name (Pizza, Description, Price)', () => {
    expect(fieldsOf(['Pizza', 'Description', 'Price'])).toMatchObject({
      name: ['Pizza'],
      description: ['Description'],
    });
  });

  test('an unknown column after the description is not the name', () => {
    expect(fieldsOf(['Item Code', 'Item Description', 'Colour', 'Price'])).toMatchObject({
      name: ['Item Description'],
      sku: ['Item Code'],
    });
  });
});

describe('headers qualified in brackets', () => {
  test('Barcode (EAN), SKU (internal) and Name (EN) keep their field; Price (ex VAT) is the price', () => {
    expect(fieldsOf(['Name (EN)', 'SKU (internal)', 'Barcode (EAN)', 'Price (ex VAT)'])).toEqual({
      name: ['Name (EN)'],
      sku: ['SKU (internal)'],
      gtin: ['Barcode (EAN)'],
      price: ['Price (ex VAT)'],
    });
  });

  test('a price qualified by a size is not taken for the plain price', () => {
    expect(fieldsOf(['Item', 'Price (Large)'])).toEqual({ name: ['Item'] });
  });
});

describe('marketplace listings', () => {
  test("Amazon's listings report: item-name, seller-sku, price, image-url", () => {
    expect(
      fieldsOf(['item-name', 'item-description', 'listing-id', 'seller-sku', 'price', 'image-url']),
    ).toEqual({
      name: ['item-name'],
      description: ['item-description'],
      sku: ['seller-sku'],
      price: ['price'],
      image_url: ['image-url'],
    });
  });
});

describe('category levels and POS SKU columns', () => {
  test('Subcategory columns continue the path, in header order', async () => {
    const { document, results } = await buildCsv(
      [
        'Item,Price,Category,Subcategory 1,Subcategory 2,Custom SKU,Manufact. SKU',
        'Tee,25,Apparel,Tops,Tees,TEE-1,',
        'Oat Drink,2.49,Grocery,Dairy Alternatives,,,OAT-1L',
        'Socks,12,,,,SOCK,',
      ].join('\n'),
      retail,
    );
    expect(
      document.items.map((i) => [i.name, pathOf(document, i.category_id).join(' > '), i.variants[0]?.sku]),
    ).toEqual([
      ['Tee', 'Apparel > Tops > Tees', 'TEE-1'],
      ['Oat Drink', 'Grocery > Dairy Alternatives', 'OAT-1L'],
      ['Socks', '', 'SOCK'],
    ]);
    expect(results.sources?.[0]?.ignored_columns).toEqual([]);
  });

  test('a menu category typed once carries down under per-row subcategories', async () => {
    const { document } = await buildCsv('Category,Sub Category,Dish,Price\nDrinks,Hot,Tea,2\n,Cold,Cola,2\n');
    expect(document.items.map((i) => pathOf(document, i.category_id).join(' > '))).toEqual([
      'Drinks > Hot',
      'Drinks > Cold',
    ]);
  });
});
