import { genericLookup, mapColumns } from '../../../lambdas/core/catalog/headers/columns';
import { genericPlan } from '../../../lambdas/core/catalog/headers/generic-plan';
import { normaliseHeader } from '../../../lambdas/core/catalog/headers/normalise';
import { PROFILES } from '../../../lambdas/core/catalog/headers/profiles';
import {
  priceLabels,
  sizeColumn,
  sizeLabelsHeader,
} from '../../../lambdas/core/catalog/headers/size-columns';
import { buildCsv } from '../../fixtures/catalog/build';
import { aCatalogJob } from '../../fixtures/catalog/jobs';

const fieldsOf = (headers: string[]) =>
  Object.fromEntries(
    [...mapColumns(headers, genericLookup).fields].map(([f, i]) => [f, i.map((n) => headers[n])]),
  );

describe('normaliseHeader', () => {
  test.each([
    ['Price ($)', 'price'],
    ['PRICE (USD)', 'price'],
    ['Price [€]', 'price'],
    ['Body (HTML)', 'body'],
    ['Weight (kg)', 'weight'],
    ['Image_URL', 'image url'],
    ['  Item-Name ', 'item name'],
    ['\ufeffName', 'name'],
    ['Current Quantity [Main St]', 'current quantity main st'],
    ['Ｎａｍｅ', 'name'],
    // Accents on Latin letters are not told apart; other scripts keep their marks.
    ['Categoría', 'categoria'],
    ['Código de barras', 'codigo de barras'],
    ['Preço padrão', 'preco padrao'],
    ['Catégorie', 'categorie'],
    ['Größe', 'große'],
    ['ガイド', 'ガイド'],
  ])('%j → %j', (header, normalised) => {
    expect(normaliseHeader(header)).toBe(normalised);
  });
});

describe('aliases', () => {
  test('case, space, punctuation and bracketed units do not matter', () => {
    expect(
      fieldsOf([
        'Dish',
        'SECTION',
        'Price ($)',
        'Body (HTML)',
        'UPC',
        'Vendor',
        'Item Number',
        'Image Src',
        'Notes',
      ]),
    ).toEqual({
      name: ['Dish'],
      category: ['SECTION'],
      price: ['Price ($)'],
      description: ['Body (HTML)'],
      gtin: ['UPC'],
      brand: ['Vendor'],
      sku: ['Item Number'],
      image_url: ['Image Src'],
    });
  });

  test('ambiguous headers: several columns of one field, the preferred first (then left to right)', () => {
    expect(fieldsOf(['Title', 'Name', 'EAN', 'Barcode', 'Short description', 'Description'])).toEqual({
      name: ['Name', 'Title'],
      gtin: ['Barcode', 'EAN'],
      description: ['Description', 'Short description'],
    });
  });

  test('a per-location column never passes for the base column', () => {
    expect(fieldsOf(['Price', 'Price [Main St]', 'Enabled [Main St]'])).toEqual({ price: ['Price'] });
  });

  test('`product` or `item` and a known alias is that field, after a header naming it as it is', () => {
    expect(
      fieldsOf(['product_name', 'product_price', 'product_brand', 'item_image', 'product_weight']),
    ).toEqual({
      name: ['product_name'],
      price: ['product_price'],
      brand: ['product_brand'],
      image_url: ['item_image'],
    });
    expect(fieldsOf(['item_price', 'Price', 'product_id', 'product_compare_to_price', 'Item Tax'])).toEqual({
      price: ['Price', 'item_price'],
    });
    // A whole header that is an alias keeps its field: `Product Type` stays a category, `Item Number` a SKU.
    expect(fieldsOf(['Product Type', 'Item Number'])).toEqual({
      category: ['Product Type'],
      sku: ['Item Number'],
    });
  });

  test('headers in other languages', () => {
    expect(fieldsOf(['Nom', 'Catégorie', 'Prix'])).toEqual({
      name: ['Nom'],
      category: ['Catégorie'],
      price: ['Prix'],
    });
    expect(fieldsOf(['Bezeichnung', 'Warengruppe', 'VK-Preis', 'Hersteller'])).toEqual({
      name: ['Bezeichnung'],
      category: ['Warengruppe'],
      price: ['VK-Preis'],
      brand: ['Hersteller'],
    });
    expect(fieldsOf(['品名', 'カテゴリ', '税込価格'])).toEqual({
      name: ['品名'],
      category: ['カテゴリ'],
      price: ['税込価格'],
    });
  });
});

describe('size columns and price labels', () => {
  test.each([
    ['Small (10")', { label: 'Small', size: '10"' }],
    ['Medium', { label: 'Medium', size: null }],
    ['Price - Large', { label: 'Large', size: null }],
    ['Large Price', { label: 'Large', size: null }],
    ['12"', { label: '12"', size: null }],
    ['Glass', { label: 'Glass', size: null }],
    ['Calice', { label: 'Calice', size: null }],
  ])('%j is a price column of one size', (header, expected) => {
    expect(sizeColumn(header, 3)).toEqual({ index: 3, ...expected });
  });

  test.each([['Notes'], ['Region'], ['2024'], ['Price']])('%j is not', (header) => {
    expect(sizeColumn(header, 0)).toBeNull();
  });

  test('labels of several prices: from a price header in brackets, or a header made of sizes', () => {
    expect(priceLabels('Price (glass / bottle)')).toEqual(['glass', 'bottle']);
    expect(priceLabels('Price ($)')).toBeNull();
    expect(sizeLabelsHeader('Glass / Bottle')).toEqual(['Glass', 'Bottle']);
    expect(sizeLabelsHeader('Red / White')).toBeNull();
  });

  test('one size column beside a price column is not a size column; two are', () => {
    expect(genericPlan(['Name', 'Price', 'Large'], { sizeColumns: true }).sizes).toEqual([]);
    expect(genericPlan(['Name', 'Small', 'Large'], { sizeColumns: true }).sizes.map((s) => s.label)).toEqual([
      'Small',
      'Large',
    ]);
    expect(genericPlan(['Name', 'Small', 'Large'], { sizeColumns: false }).sizes).toEqual([]);
  });

  test('a table with prices but no name header reads its first other column as the name', () => {
    const plan = genericPlan(['Pizza', 'Small', 'Large'], { sizeColumns: true });
    expect(plan.map.fields.get('name')).toEqual([0]);
    expect(genericPlan(['Notes', 'Colour'], { sizeColumns: true }).map.fields.has('name')).toBe(false);
  });
});

describe('platform profiles by header signature', () => {
  const profileOf = (headers: string[]) =>
    PROFILES.find((p) => p.matches(new Set(headers.map(normaliseHeader))))?.name ?? 'generic';

  test.each([
    [
      ['Handle', 'Title', 'Body (HTML)', 'Option1 Name', 'Option1 Value', 'Variant SKU', 'Variant Price'],
      'shopify',
    ],
    [['Title', 'URL handle', 'Description', 'SKU', 'Price', 'Option1 name'], 'shopify'],
    [['Token', 'Item Name', 'Variation Name', 'SKU', 'Price', 'Enabled [Main]'], 'square'],
    [['ID', 'Type', 'SKU', 'Name', 'Regular price', 'Parent', 'Attribute 1 name'], 'woocommerce'],
    [['Name', 'Price', 'Type'], 'generic'],
    [['Handle', 'Name', 'Price'], 'generic'],
  ])('%j → %s', (headers, profile) => {
    expect(profileOf(headers)).toBe(profile);
  });

  test('the profile and the columns it read are in results.sources', async () => {
    const { results } = await buildCsv(
      'Handle,Title,Vendor,Option1 Name,Option1 Value,Variant SKU,Variant Price,Variant Inventory Qty,Gift Card\n' +
        'tee,Tee,Acme,Size,S,T-S,10,5,FALSE\n',
      aCatalogJob({ job_type: 'new_retail_catalog' }),
    );
    expect(results.sources?.[0]).toMatchObject({
      profile: 'shopify',
      columns: {
        Handle: 'handle',
        Title: 'name',
        Vendor: 'brand',
        'Option1 Name': 'option_name_1',
        'Option1 Value': 'option_value_1',
        'Variant SKU': 'sku',
        'Variant Price': 'price',
      },
      ignored_columns: ['Variant Inventory Qty', 'Gift Card'],
    });
  });
});
