import { odooCategoryPath, odooValues } from '../../../../lambdas/core/catalog/headers/profiles/odoo';
import { buildRetail, csvOf, itemNamed, pathOf, profileOf, variantsOf } from './helpers';

// Inventory > Products > Export of Odoo (field labels as headers).
const ODOO = [
  'ID',
  'Name',
  'Internal Reference',
  'Barcode',
  'Sales Price',
  'Cost',
  'Product Category',
  'Product Type',
  'Quantity On Hand',
];
// Product Variants > Export: the same, with the variant's values.
const VARIANTS = [...ODOO, 'Variant Values'];
const row = (headers: readonly string[], cells: Record<string, string>) => headers.map((h) => cells[h] ?? '');

describe('Odoo product export', () => {
  test.each([
    [ODOO, 'odoo'],
    [VARIANTS, 'odoo'],
    // Import-compatible: the field names.
    [
      ['id', 'name', 'default_code', 'barcode', 'list_price', 'standard_price', 'categ_id', 'detailed_type'],
      'odoo',
    ],
    [['Name', 'Internal Reference', 'Product Category'], 'odoo'],
    // Ordinary spreadsheets are not Odoo's.
    [['Name', 'SKU', 'Barcode', 'Sales Price', 'Product Category'], 'generic'],
    [['Name', 'Reference', 'Price', 'Category'], 'generic'],
    [['Name', 'Internal Reference', 'Price'], 'generic'],
  ])('%j is recognised as %s', (headers, profile) => {
    expect(profileOf(headers)).toBe(profile);
  });

  test.each([
    ['All / Saleable / Office', ['Saleable', 'Office']],
    ['All', null],
    ['Furniture / Chairs', ['Furniture', 'Chairs']],
    ['All / Cables/Adapters', ['Cables/Adapters']],
  ])('category %j is the path %j', (text, path) => {
    expect(odooCategoryPath(text)).toEqual(path);
  });

  test('values as Odoo writes them', () => {
    expect(odooValues('Color: Red, Size: L')).toEqual({ Color: 'Red', Size: 'L' });
    expect(odooValues('Legs: Steel')).toEqual({ Legs: 'Steel' });
    expect(odooValues('Red')).toEqual({ 'Attribute 1': 'Red' });
  });

  test('Internal Reference is the SKU, Barcode the GTIN, Sales Price the price, the category path without All', async () => {
    const csv = csvOf([
      ODOO,
      row(ODOO, {
        ID: '__export__.product_template_12_3f1a2b',
        Name: 'Office Chair',
        'Internal Reference': 'FURN_7777',
        Barcode: '4006381333931',
        'Sales Price': '70.0',
        Cost: '55.0',
        'Product Category': 'All / Saleable / Office',
        'Product Type': 'Storable Product',
        'Quantity On Hand': '12.0',
      }),
      row(ODOO, {
        Name: 'Delivery',
        'Sales Price': '0.0',
        'Product Category': 'All',
        'Product Type': 'Service',
      }),
      row(ODOO, { 'Internal Reference': 'X-1', 'Sales Price': '3.0' }),
    ]);
    const { document, results } = await buildRetail(csv);
    expect(document.items.map((i) => i.name)).toEqual(['Office Chair', 'Delivery']);
    const chair = itemNamed(document, 'Office Chair');
    expect(variantsOf(chair)).toEqual([[null, {}, 'FURN_7777', 7000, 'USD']]);
    expect(chair?.variants[0]?.gtin).toBe('4006381333931');
    expect(pathOf(document, chair)).toEqual(['Saleable', 'Office']);
    expect(pathOf(document, itemNamed(document, 'Delivery'))).toEqual([]);
    expect(results.warnings).toEqual([expect.objectContaining({ row: 4, code: 'missing_name' })]);
    expect(results.sources?.[0]?.profile).toBe('odoo');
    expect(results.sources?.[0]?.ignored_columns).toEqual(
      expect.arrayContaining(['ID', 'Cost', 'Product Type', 'Quantity On Hand']),
    );
  });

  test('variant rows of one name are one product; further values on lines of their own; rows without values stay apart', async () => {
    const desk = { Name: 'Customizable Desk', 'Product Category': 'All / Saleable / Office' };
    const csv = csvOf([
      VARIANTS,
      row(VARIANTS, {
        ...desk,
        'Internal Reference': 'DESK-S-W',
        'Sales Price': '750.0',
        'Variant Values': 'Legs: Steel',
      }),
      row(VARIANTS, { 'Variant Values': 'Color: White' }),
      row(VARIANTS, { Name: 'Cable Tray', 'Internal Reference': 'TRAY', 'Sales Price': '12.0' }),
      row(VARIANTS, {
        ...desk,
        'Internal Reference': 'DESK-A-B',
        'Sales Price': '800.4',
        'Variant Values': 'Legs: Aluminium, Color: Black',
      }),
      // Two products that share a name but are not variants are not merged.
      row(VARIANTS, { Name: 'Cable Tray', 'Internal Reference': 'TRAY-XL', 'Sales Price': '15.0' }),
    ]);
    const { document, results } = await buildRetail(csv);
    expect(document.items.map((i) => i.name)).toEqual(['Customizable Desk', 'Cable Tray', 'Cable Tray']);
    const deskItem = itemNamed(document, 'Customizable Desk');
    expect(deskItem?.option_names).toEqual(['Legs', 'Color']);
    expect(variantsOf(deskItem)).toEqual([
      ['Steel / White', { Legs: 'Steel', Color: 'White' }, 'DESK-S-W', 75000, 'USD'],
      ['Aluminium / Black', { Legs: 'Aluminium', Color: 'Black' }, 'DESK-A-B', 80040, 'USD'],
    ]);
    expect(pathOf(document, deskItem)).toEqual(['Saleable', 'Office']);
    expect(document.items.filter((i) => i.name === 'Cable Tray').map((i) => i.variants[0]?.sku)).toEqual([
      'TRAY',
      'TRAY-XL',
    ]);
    expect(results.warnings).toEqual([]);
  });
});
