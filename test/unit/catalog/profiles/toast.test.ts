import type { CatalogDocument } from '../../../../lambdas/core/catalog/document';
import { normaliseHeader } from '../../../../lambdas/core/catalog/headers/normalise';
import { toastProfile } from '../../../../lambdas/core/catalog/headers/profiles/toast';
import { buildCsv } from '../../../fixtures/catalog/build';

const HEADER =
  'Master ID,Item ID,Parent ID,Menu Name,Menu Group,Subgroup,Menu Item,Tags,Avg Price,Item Qty,Gross Amount,Net Amount,# Orders,% Qty (Group)';

const row = (menu: string, group: string, subgroup: string, name: string, avg: string) =>
  `1,2,3,${menu},${group},${subgroup},${name},,${avg},4.00000,56.00,56.00,4,25.00000`;

const pathOf = (document: CatalogDocument, id: string | null): string[] => {
  const byId = new Map(document.categories.map((c) => [c.id, c]));
  const names: string[] = [];
  for (
    let c = id === null ? undefined : byId.get(id);
    c;
    c = c.parent_id === null ? undefined : byId.get(c.parent_id)
  )
    names.unshift(c.name);
  return names;
};

const matches = (header: string) => toastProfile.matches(new Set(header.split(',').map(normaliseHeader)));

describe('Toast all items report', () => {
  test('recognised by its header; a menu sheet with a menu group and a price is read generically', async () => {
    expect(matches(HEADER)).toBe(true);
    expect(matches('Menu Group,Menu Item,Avg Price')).toBe(true);
    expect(matches('Menu Item,Menu Group,Price')).toBe(false);
    expect(matches('Menu Item,Category,Avg Price')).toBe(false);
    const generic = await buildCsv('Menu Item,Menu Group,Price\nSoup,Starters,6\n');
    expect(generic.results.sources?.[0]?.profile).toBe('generic');
    expect(generic.document.items.map((i) => i.name)).toEqual(['Soup']);
  });

  test('menus, groups and subgroups are the categories; Avg Price is the price when it is one price', async () => {
    const csv = [
      HEADER,
      row('Dinner', 'Starters', '', 'Burrata', '16.00000'),
      row('Dinner', 'Pizza', 'Red', 'Margherita', '14.00000'),
      row('Lunch', 'Pizza', 'Red', 'Margherita', '12.00000'),
      row('Dinner', 'Mains', '', 'Ribeye', '41.66667'),
      row('Dinner', 'Mains', '', 'Off-menu special', '0.00000'),
      row('Dinner', 'Mains', '', '', '10.00000'),
      row('Dinner', 'Mains', '', 'Total', '99.00000'),
      row('Bar', 'Cocktails', '', 'Negroni', '$14'),
    ].join('\r\n');
    const { document, results } = await buildCsv(csv);
    expect(
      document.items.map((i) => [
        i.name,
        pathOf(document, i.category_id),
        i.variants.map((v) => [v.name, v.price?.amount ?? null, v.pricing]),
      ]),
    ).toEqual([
      ['Burrata', ['Dinner', 'Starters'], [[null, 1600, 'fixed']]],
      ['Margherita', ['Dinner', 'Pizza', 'Red'], [[null, 1400, 'fixed']]],
      ['Margherita', ['Lunch', 'Pizza', 'Red'], [[null, 1200, 'fixed']]],
      ['Ribeye', ['Dinner', 'Mains'], [[null, null, 'fixed']]],
      ['Off-menu special', ['Dinner', 'Mains'], [[null, null, 'fixed']]],
      ['Negroni', ['Bar', 'Cocktails'], [[null, 1400, 'fixed']]],
    ]);
    expect(results.warnings?.map((w) => [w.row, w.column, w.code])).toEqual([
      [5, 'Avg Price', 'not_a_price'],
      [6, 'Avg Price', 'no_price'],
      [7, 'Menu Item', 'missing_name'],
      [8, 'Menu Item', 'not_an_item'],
    ]);
    expect(results.sources?.[0]).toMatchObject({
      profile: 'toast',
      columns: {
        'Menu Name': 'menu',
        'Menu Group': 'group',
        Subgroup: 'subgroup',
        'Menu Item': 'name',
        Tags: 'tags',
        'Avg Price': 'price',
      },
      ignored_columns: [
        'Master ID',
        'Item ID',
        'Parent ID',
        'Item Qty',
        'Gross Amount',
        'Net Amount',
        '# Orders',
        '% Qty (Group)',
      ],
    });
  });

  test('a report with a list price reads it before the average', async () => {
    const csv = ['Menu Name,Menu Group,Menu Item,Price,Avg Price', 'Dinner,Mains,Ribeye,42.00,41.66667'].join(
      '\n',
    );
    const { document, results } = await buildCsv(csv);
    expect(document.items[0]?.variants[0]?.price?.amount).toBe(4200);
    expect(results.warning_count).toBe(0);
  });
});
