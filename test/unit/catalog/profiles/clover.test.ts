import ExcelJS from 'exceljs';
import type { CatalogDocument } from '../../../../lambdas/core/catalog/document';
import { normaliseHeader } from '../../../../lambdas/core/catalog/headers/normalise';
import { cloverProfile } from '../../../../lambdas/core/catalog/headers/profiles/clover';
import { buildCsv, buildFrom } from '../../../fixtures/catalog/build';

const workbook = async (sheets: Record<string, unknown[][]>): Promise<Buffer> => {
  const book = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = book.addWorksheet(name);
    for (const row of rows) sheet.addRow(row);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
};

const ITEMS_HEADER = [
  'Clover ID',
  'Name',
  'Alternate Name',
  'Price',
  'Price Type',
  'Price Unit',
  'Tax Rates',
  'Cost',
  'Product Code',
  'SKU',
  'Modifier Groups',
  'Quantity',
  'Printer Labels',
  'Hidden',
  'Non-revenue item',
];

const item = (
  name: string,
  price: number,
  type: string,
  more: { unit?: string; code?: string | number; sku?: string; groups?: string } = {},
) => [
  'ID',
  name,
  '',
  price,
  type,
  more.unit ?? '',
  'Sales Tax',
  0,
  more.code ?? '',
  more.sku ?? '',
  more.groups ?? '',
  0,
  '',
  'No',
  'No',
];

const categoryOf = (document: CatalogDocument, name: string) => {
  const found = document.items.find((i) => i.name === name);
  return document.categories.find((c) => c.id === found?.category_id)?.name ?? null;
};

const matches = (headers: readonly string[]) => cloverProfile.matches(new Set(headers.map(normaliseHeader)));

describe('Clover inventory export', () => {
  test('its Items header is recognised; a menu with a price type or a plain Name/Price sheet is not', () => {
    expect(matches(ITEMS_HEADER)).toBe(true);
    expect(matches(['Name', 'Price', 'Price Type', 'Product Code', 'SKU'])).toBe(true);
    expect(matches(['Name', 'Price', 'Price Type'])).toBe(false);
    expect(matches(['Name', 'Price', 'Category', 'Description'])).toBe(false);
    expect(matches(['Clover ID', 'Name', 'Quantity'])).toBe(false);
  });

  test('the workbook: categories across their sheet, modifier groups with their limits, price types, tax sheet skipped', async () => {
    const bytes = await workbook({
      Items: [
        ITEMS_HEADER,
        item('Margherita', 12, 'Fixed', { sku: 'PZ-M', groups: 'Toppings, Crust' }),
        item('Catch of the Day', 0, 'Variable'),
        item('Prosciutto', 21.5, 'Per Unit', { unit: 'lb', code: 36000291452 }),
        item('Espresso', 3, 'FIXED', { code: '5012345678900', groups: 'Extras' }),
        item('Tiramisu', 7, 'Per Piece'),
      ],
      'Modifier Groups': [
        ['Modifier Group Name', 'Pop-up Automatically', 'Modifier', 'Price', 'Min Required', 'Max Allowed'],
        ['Toppings', 'Yes', 'Basil', 0, '', 2],
        ['', '', 'Burrata', 3.5, '', ''],
        ['', '', 'basil', 1, '', ''],
        ['Crust', 'No', 'Thin', 0, 1, 1],
        ['', '', 'Thick', 'two dollars', '', ''],
      ],
      Categories: [
        ['Category Name', 'Pizza', 'Mains', 'Coffee', 'Desserts'],
        ['Items in Category', 'Margherita', 'Catch of the Day', 'Espresso', 'Tiramisu'],
        ['', '', 'Prosciutto', '', 'Espresso'],
      ],
      'Tax Rates': [
        ['Name', 'Tax Rate'],
        ['Sales Tax', '8%'],
      ],
    });
    const { document, results } = await buildFrom([{ source: 'inventory.xlsx', body: bytes }]);
    expect(
      document.items.map((i) => [
        i.name,
        categoryOf(document, i.name),
        i.variants.map((v) => [v.price?.amount ?? null, v.pricing, v.unit, v.sku, v.gtin]),
      ]),
    ).toEqual([
      ['Margherita', 'Pizza', [[1200, 'fixed', null, 'PZ-M', null]]],
      ['Catch of the Day', 'Mains', [[null, 'variable', null, null, null]]],
      ['Prosciutto', 'Mains', [[2150, 'fixed', 'lb', null, '036000291452']]],
      ['Espresso', 'Coffee', [[300, 'fixed', null, null, '5012345678900']]],
      ['Tiramisu', 'Desserts', [[700, 'fixed', null, null, null]]],
    ]);
    const groups = new Map(document.modifier_groups.map((g) => [g.id, g]));
    const margherita = document.items[0];
    expect(
      margherita?.modifier_group_ids.map((id) => {
        const group = groups.get(id);
        return [
          group?.name,
          group?.min,
          group?.max,
          group?.modifiers.map((m) => [m.name, m.price?.amount ?? null]),
        ];
      }),
    ).toEqual([
      [
        'Toppings',
        0,
        2,
        [
          ['Basil', 0],
          ['Burrata', 350],
        ],
      ],
      [
        'Crust',
        1,
        1,
        [
          ['Thin', 0],
          ['Thick', null],
        ],
      ],
    ]);
    // Extras is named on the item but not on the Modifier Groups sheet: kept, empty, and said.
    const espresso = document.items.find((i) => i.name === 'Espresso');
    expect(espresso?.modifier_group_ids.map((id) => groups.get(id)?.name)).toEqual(['Extras']);
    expect(
      results.warnings
        ?.map((w) => [w.sheet, w.row, w.column, w.code])
        .sort((a, b) => String(a).localeCompare(String(b))),
    ).toEqual(
      [
        ['Modifier Groups', 4, 'Modifier', 'duplicate_modifier'],
        ['Modifier Groups', 6, 'Price', 'not_a_price'],
        ['Items', 5, 'Name', 'several_categories'],
        ['Items', 5, 'Modifier Groups', 'incomplete_modifier'],
        ['Items', 6, 'Price Type', 'invalid_value'],
      ].sort((a, b) => String(a).localeCompare(String(b))),
    );
    expect(results.sources?.[0]).toMatchObject({
      profile: 'clover',
      sheets: [
        { name: 'Items', header_row: 1, items: 5 },
        {
          name: 'Modifier Groups',
          header_row: 1,
          items: 0,
          rows: 5,
          columns: {
            'Modifier Group Name': 'modifier_group',
            Modifier: 'modifier',
            Price: 'modifier_price',
            'Min Required': 'modifier_min',
            'Max Allowed': 'modifier_max',
          },
          ignored_columns: ['Pop-up Automatically'],
        },
        {
          name: 'Categories',
          header_row: 1,
          items: 0,
          columns: { 'Category Name': 'category', Pizza: 'name', Desserts: 'name' },
        },
        { name: 'Tax Rates', header_row: null, items: 0 },
      ],
    });
    expect(results.sources?.[0]?.columns.Price).toBe('price');
  });

  test('the Items sheet saved alone as CSV: no categories to join, groups kept by name', async () => {
    const csv = [
      ITEMS_HEADER.join(','),
      item('Margherita', 12, 'Fixed', { groups: 'Toppings' }).join(','),
      item('Soup', 0, 'variable').join(','),
    ].join('\r\n');
    const { document, results } = await buildCsv(csv);
    expect(results.sources?.[0]?.profile).toBe('clover');
    expect(document.items.map((i) => [i.name, i.category_id, i.variants[0]?.pricing])).toEqual([
      ['Margherita', null, 'fixed'],
      ['Soup', null, 'variable'],
    ]);
    expect(document.modifier_groups.map((g) => [g.name, g.modifiers])).toEqual([['Toppings', []]]);
    expect(results.warning_count).toBe(0);
    expect(results.sources?.[0]?.ignored_columns).toEqual([
      'Clover ID',
      'Alternate Name',
      'Tax Rates',
      'Cost',
      'Quantity',
      'Printer Labels',
      'Hidden',
      'Non-revenue item',
    ]);
  });

  test('a workbook without a Clover Items sheet is read sheet by sheet as before', async () => {
    const bytes = await workbook({
      Menu: [
        ['Name', 'Price', 'Category'],
        ['Soup', 6, 'Starters'],
      ],
      Categories: [
        ['Category Name', 'Items in Category'],
        ['Starters', 'Soup'],
      ],
    });
    const { document, results } = await buildFrom([{ source: 'menu.xlsx', body: bytes }]);
    expect(results.sources?.[0]?.profile).toBe('generic');
    expect(document.items.map((i) => i.name)).toEqual(['Soup']);
    expect(results.sources?.[0]?.sheets?.map((s) => [s.name, s.header_row])).toEqual([
      ['Menu', 1],
      ['Categories', null],
    ]);
  });
});
