import { normaliseHeader } from '../../../../lambdas/core/catalog/headers/normalise';
import {
  exportShape,
  type HeaderTable,
  languagesOf,
  namesOfRole,
  roleNames,
  signatureFits,
} from '../../../../lambdas/core/catalog/headers/profiles/header-table';
import { odooCategoryPath } from '../../../../lambdas/core/catalog/headers/profiles/odoo';
import { HEADER_TABLES } from '../../../../lambdas/core/catalog/headers/profiles/tables';
import { buildRetail, csvOf, itemNamed, pathOf, profileOf, variantsOf } from './helpers';

/** A made-up platform: the engine's behaviour, independent of any real table. */
type Role = 'name' | 'price' | 'code' | 'marker';
const TOY: HeaderTable<Role> = {
  profile: 'toy',
  columns: {
    name: { en: ['name', 'title'], fr: ['nom'] },
    price: { en: ['price'], fr: ['prix'], de: ['preis'] },
    code: { en: ['code'] },
    marker: { en: ['toy marker'], fr: ['marqueur toy'] },
  },
  signature: [['name'], ['price', 'code'], ['marker']],
  ignored: ['marker'],
  sources: { en: 'invented for this test' },
};
const normalised = (headers: readonly string[]) => new Set(headers.map(normaliseHeader));

describe('header tables: the engine', () => {
  test('languages English first; a role’s names in language order; ignored roles are not columns', () => {
    expect(languagesOf(TOY)).toEqual(['en', 'fr', 'de']);
    expect(namesOfRole(TOY, 'name')).toEqual(['name', 'title', 'nom']);
    expect(roleNames(TOY)).toEqual({
      name: ['name', 'title', 'nom'],
      price: ['price', 'prix', 'preis'],
      code: ['code'],
    });
  });

  test('the signature needs one role of every group, each group in any language', () => {
    expect(signatureFits(TOY, normalised(['Nom', 'Preis', 'Toy Marker']))).toBe(true);
    expect(signatureFits(TOY, normalised(['Title', 'Code', 'Marqueur TOY', 'Other']))).toBe(true);
    expect(signatureFits(TOY, normalised(['Name', 'Price']))).toBe(false);
    expect(signatureFits(TOY, normalised(['Name', 'Toy marker']))).toBe(false);
  });

  test('signature names: only those of a role’s names identify the platform', () => {
    const strict: HeaderTable<Role> = { ...TOY, signatureNames: { name: ['name'] } };
    expect(signatureFits(strict, normalised(['Name', 'Code', 'Toy marker']))).toBe(true);
    expect(signatureFits(strict, normalised(['Title', 'Code', 'Toy marker']))).toBe(false);
    expect(roleNames(strict).name).toEqual(['name', 'title', 'nom']);
  });

  test('an export shape in one language, English where that language names nothing', () => {
    expect(exportShape(TOY, 'fr')).toEqual(['nom', 'prix', 'code', 'marqueur toy']);
    expect(exportShape(TOY, 'de')).toEqual(['name', 'preis', 'code', 'toy marker']);
  });
});

describe('header tables: every platform table', () => {
  test.each(HEADER_TABLES.map((t) => [t.profile, t] as const))(
    '%s: every language’s export shape is recognised as the platform; unconfirmed names are its own',
    (profile, table) => {
      const all = new Set(Object.values(roleNamesOf(table)).flat());
      for (const name of table.unconfirmed ?? []) expect(all).toContain(name);
      expect(Object.keys(table.sources)).toContain('en');
      for (const language of languagesOf(table)) {
        const shape = exportShape(table, language);
        // Etsy's download numbers its images: the first is part of every real download.
        expect([language, profileOf(shape)]).toEqual([language, profile]);
      }
    },
  );
});

const roleNamesOf = (table: HeaderTable<string>): Record<string, readonly string[]> =>
  Object.fromEntries(Object.keys(table.columns).map((role) => [role, namesOfRole(table, role)]));

describe('translated exports read as the English ones', () => {
  test('WooCommerce in Dutch: Naam, Reguliere prijs, Categorieën, Afbeeldingen', async () => {
    const csv = csvOf([
      [
        'ID',
        'Type',
        'SKU',
        'Naam',
        'Gepubliceerd',
        'Korte beschrijving',
        'Beschrijving',
        'Actieprijs',
        'Reguliere prijs',
        'Categorieën',
        'Tags',
        'Afbeeldingen',
      ],
      [
        '7',
        'simple',
        'KOP-1',
        'Koffiekop',
        '1',
        'Steengoed',
        '<p>Handgemaakt</p>',
        '',
        '14,50',
        'Keuken > Servies',
        'klei',
        'https://shop.example/kop.jpg',
      ],
      ['8', 'simple', 'BORD-2', 'Ontbijtbord', '1', '', '', '9,00', '11,00', 'Keuken', '', ''],
    ]);
    const { document, results } = await buildRetail(csv, 'de_de');
    expect(results.sources?.[0]?.profile).toBe('woocommerce');
    const cup = itemNamed(document, 'Koffiekop');
    expect(variantsOf(cup)).toEqual([[null, {}, 'KOP-1', 1450, 'EUR']]);
    expect(pathOf(document, cup)).toEqual(['Keuken', 'Servies']);
    expect(cup?.images.map((i) => i.url)).toEqual(['https://shop.example/kop.jpg']);
    // The sale price (Actieprijs) is a promotion: the regular price is the price.
    expect(variantsOf(itemNamed(document, 'Ontbijtbord'))).toEqual([[null, {}, 'BORD-2', 1100, 'EUR']]);
  });

  test('Odoo in Spanish: Nombre, Referencia interna, Precio de venta, Categoría de producto under Todos', async () => {
    const headers = [
      'Nombre',
      'Referencia interna',
      'Código de barras',
      'Precio de venta',
      'Coste',
      'Categoría de producto',
    ];
    expect(profileOf(headers)).toBe('odoo');
    const csv = csvOf([
      headers,
      ['Silla plegable', 'SIL-01', '', '45.00', '20.00', 'Todos / Muebles / Sillas'],
      ['Mesa baja', 'MES-02', '', '120.50', '60.00', 'Todos / Muebles'],
    ]);
    const { document } = await buildRetail(csv, 'de_de');
    const chair = itemNamed(document, 'Silla plegable');
    expect(variantsOf(chair)).toEqual([[null, {}, 'SIL-01', 4500, 'EUR']]);
    expect(pathOf(document, chair)).toEqual(['Muebles', 'Sillas']);
    expect(odooCategoryPath('Todos')).toBeNull();
  });

  test('Odoo in French: Nom, Référence interne, Prix de vente, Étiquettes', async () => {
    const headers = ['Nom', 'Référence interne', 'Prix de vente', 'Coût', 'Étiquettes'];
    expect(profileOf(headers)).toBe('odoo');
    const { document } = await buildRetail(
      csvOf([headers, ['Tabouret', 'TAB-3', '35.00', '12.00', 'bois']]),
      'de_de',
    );
    expect(variantsOf(itemNamed(document, 'Tabouret'))).toEqual([[null, {}, 'TAB-3', 3500, 'EUR']]);
    expect(itemNamed(document, 'Tabouret')?.tags).toEqual(['bois']);
  });

  test('Square in Catalan: Nom de l’article and Nom de la variant group the variations of one item', async () => {
    const headers = ['Testimoni', 'Nom de l’article', 'Nom de la variant', 'SKU', 'Descripció', 'Categoria'];
    expect(profileOf(headers)).toBe('square');
    const csv = csvOf([
      headers,
      ['', 'Cafè amb llet', 'Petit', 'CAF-P', 'Amb llet fresca', 'Begudes'],
      ['', 'Cafè amb llet', 'Gran', 'CAF-G', '', 'Begudes'],
      ['', 'Croissant', 'Regular', 'CRO', '', 'Pastisseria'],
    ]);
    const { document } = await buildRetail(csv, 'de_de');
    expect(document.items.map((i) => [i.name, i.variants.map((v) => [v.name, v.sku])])).toEqual([
      [
        'Cafè amb llet',
        [
          ['Petit', 'CAF-P'],
          ['Gran', 'CAF-G'],
        ],
      ],
      ['Croissant', [[null, 'CRO']]],
    ]);
    expect(pathOf(document, itemNamed(document, 'Croissant'))).toEqual(['Pastisseria']);
  });
});
