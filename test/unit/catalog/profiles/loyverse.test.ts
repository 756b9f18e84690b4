import type { CatalogDocument } from '../../../../lambdas/core/catalog/document';
import { normaliseHeader } from '../../../../lambdas/core/catalog/headers/normalise';
import { loyverseProfile } from '../../../../lambdas/core/catalog/headers/profiles/loyverse';
import { buildCsv } from '../../../fixtures/catalog/build';
import { aCatalogJob } from '../../../fixtures/catalog/jobs';

const gb = aCatalogJob({ job_data: { language: 'en_gb' } });

const variants = (document: CatalogDocument) =>
  document.items.map((i) => [
    i.name,
    i.option_names,
    i.variants.map((v) => [v.name, v.sku, v.price?.amount ?? null, v.pricing, v.unit]),
  ]);

/** A header and rows from objects, the way Loyverse writes them (quotes doubled inside quoted cells). */
const csvOf = (header: readonly string[], rows: readonly Record<string, string>[]) => {
  const quote = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  return [
    header.map(quote).join(','),
    ...rows.map((r) => header.map((h) => quote(r[h] ?? '')).join(',')),
  ].join('\n');
};

const BASE = [
  'Handle',
  'SKU',
  'Name',
  'Category',
  'Description',
  'Sold by weight',
  'Option 1 name',
  'Option 1 value',
  'Option 2 name',
  'Option 2 value',
  'Option 3 name',
  'Option 3 value',
  'Cost',
  'Barcode',
  'SKU of included item',
  'Quantity of included item',
  'Track stock',
];

const matches = (header: readonly string[]) => loyverseProfile.matches(new Set(header.map(normaliseHeader)));

describe('Loyverse items export', () => {
  test('recognised by its header; Shopify, Lightspeed and a plain handle sheet are not Loyverse', async () => {
    expect(matches([...BASE, 'Available for sale [Shop]', 'Price [Shop]'])).toBe(true);
    expect(matches(['Handle', 'Name', 'Sold by weight', 'Default price'])).toBe(true);
    expect(matches(['Handle', 'Title', 'Variant SKU', 'Variant Price'])).toBe(false);
    expect(matches(['handle', 'name', 'sku', 'composite_handle', 'composite_sku', 'retail_price'])).toBe(
      false,
    );
    expect(matches(['Handle', 'Name', 'Price'])).toBe(false);
    const generic = await buildCsv('Handle,Name,Price\ntea,Tea,2\n');
    expect(generic.results.sources?.[0]?.profile).toBe('generic');
  });

  test('several stores: the price where the item is sold, a store that charges more said, unsold variants kept and said', async () => {
    const header = [
      ...BASE,
      'Available for sale [High St]',
      'Price [High St]',
      'In stock [High St]',
      'Available for sale [Station]',
      'Price [Station]',
      'In stock [Station]',
      'Modifier - "Milk"',
      'Modifier - "Syrups"',
      'Tax - "VAT" (20%)',
    ];
    const csv = csvOf(header, [
      {
        Handle: 'latte',
        SKU: '1',
        Name: 'Latte',
        Category: 'Coffee',
        'Option 1 name': 'Size',
        'Option 1 value': 'Small',
        'Option 2 name': 'Temperature',
        'Option 2 value': 'Hot',
        'Available for sale [High St]': 'Y',
        'Price [High St]': '3.00',
        'Available for sale [Station]': 'Y',
        'Price [Station]': '3.40',
        'Modifier - "Milk"': 'Y',
        'Modifier - "Syrups"': 'N',
        'Tax - "VAT" (20%)': 'Y',
      },
      {
        Handle: 'latte',
        SKU: '2',
        'Option 1 value': 'Large',
        'Option 2 value': 'Iced',
        'Available for sale [High St]': 'N',
        'Price [High St]': '3.50',
        'Available for sale [Station]': 'Y',
        'Price [Station]': '3.90',
      },
      {
        Handle: 'latte',
        SKU: '3',
        'Option 1 value': 'Kids',
        'Option 2 value': 'Hot',
        'Available for sale [High St]': 'N',
        'Price [High St]': '2.00',
        'Available for sale [Station]': 'N',
      },
      {
        Handle: 'oat-milk',
        SKU: '9',
        Name: 'Oat milk 1L',
        Category: 'Ingredients',
        'Available for sale [High St]': 'N',
        'Available for sale [Station]': 'N',
        'Price [High St]': '2.10',
      },
    ]);
    const { document, results } = await buildCsv(csv, gb);
    expect(variants(document)).toEqual([
      [
        'Latte',
        ['Size', 'Temperature'],
        [
          ['Small / Hot', '1', 300, 'fixed', null],
          ['Large / Iced', '2', 390, 'fixed', null],
          // Sold nowhere: still the merchant's, at the price the file lists.
          ['Kids / Hot', '3', 200, 'fixed', null],
        ],
      ],
      ['Oat milk 1L', [], [[null, '9', 210, 'fixed', null]]],
    ]);
    expect(document.items[0]?.variants[1]?.options).toEqual({ Size: 'Large', Temperature: 'Iced' });
    expect(document.modifier_groups.map((g) => [g.name, g.modifiers.length])).toEqual([['Milk', 0]]);
    expect(results.warnings?.map((w) => [w.row, w.column, w.code])).toEqual([
      [2, 'Price [Station]', 'conflicting_values'],
      [4, 'Available for sale [High St]', 'not_for_sale'],
      [5, 'Available for sale [High St]', 'not_for_sale'],
    ]);
    expect(results.sources?.[0]).toMatchObject({
      profile: 'loyverse',
      ignored_columns: [
        'Cost',
        'Track stock',
        'In stock [High St]',
        'In stock [Station]',
        'Tax - "VAT" (20%)',
      ],
    });
    expect(results.sources?.[0]?.columns).toMatchObject({
      'Price [High St]': 'price',
      'Price [Station]': 'price',
      'Available for sale [Station]': 'available',
      'Modifier - "Syrups"': 'modifier_group',
    });
  });

  test('rows sorted in a spreadsheet: variant rows apart from their item row still join it by Handle', async () => {
    const header = [...BASE, 'Price [Shop]', 'Modifier - "Milk"'];
    const csv = csvOf(header, [
      { Handle: 'tea', SKU: '2', 'Option 1 value': 'Pot', 'Price [Shop]': '4.00' },
      { Handle: 'cake', SKU: '5', Name: 'Cake', Category: 'Bakery', 'Price [Shop]': '3.00' },
      {
        Handle: 'tea',
        SKU: '1',
        Name: 'Tea',
        Category: 'Drinks',
        'Option 1 name': 'Serving',
        'Option 1 value': 'Cup',
        'Price [Shop]': '2.00',
        'Modifier - "Milk"': 'Y',
      },
    ]);
    const { document, results } = await buildCsv(csv, gb);
    expect(variants(document)).toEqual([
      [
        'Tea',
        ['Serving'],
        [
          ['Pot', '2', 400, 'fixed', null],
          ['Cup', '1', 200, 'fixed', null],
        ],
      ],
      ['Cake', [], [[null, '5', 300, 'fixed', null]]],
    ]);
    expect(document.items[0]?.variants.map((v) => v.options)).toEqual([
      { Serving: 'Pot' },
      { Serving: 'Cup' },
    ]);
    expect(document.modifier_groups.map((g) => g.name)).toEqual(['Milk']);
    expect(results.warning_count).toBe(0);
  });

  test('one store named by no column suffix: Price and Available for sale read, Default price then not', async () => {
    const header = [...BASE, 'Default price', 'Available for sale', 'Price', 'In stock'];
    const csv = csvOf(header, [
      {
        Handle: 'bun',
        SKU: '1',
        Name: 'Bun',
        'Default price': '1.00',
        'Available for sale': 'Y',
        Price: '1.20',
      },
      {
        Handle: 'flour',
        SKU: '2',
        Name: 'Flour',
        'Default price': '1.00',
        'Available for sale': 'N',
        Price: '0.90',
      },
    ]);
    const { document, results } = await buildCsv(csv, gb);
    expect(variants(document)).toEqual([
      ['Bun', [], [[null, '1', 120, 'fixed', null]]],
      ['Flour', [], [[null, '2', 90, 'fixed', null]]],
    ]);
    expect(results.warnings?.map((w) => [w.row, w.column, w.code])).toEqual([
      [3, 'Available for sale', 'not_for_sale'],
    ]);
    expect(results.sources?.[0]?.columns).toMatchObject({
      Price: 'price',
      'Available for sale': 'available',
    });
    expect(results.sources?.[0]?.ignored_columns).toEqual([
      'Cost',
      'Track stock',
      'Default price',
      'In stock',
    ]);
  });

  test('composite rows, sold by weight, prices at the till, a default price, a row without a handle', async () => {
    const header = [...BASE, 'Default price', 'Available for sale [Shop]'];
    const csv = csvOf(header, [
      {
        Handle: 'deal',
        SKU: '50',
        Name: 'Lunch Deal',
        'SKU of included item': '1',
        'Quantity of included item': '1',
        'Default price': '8.50',
        'Available for sale [Shop]': 'Y',
      },
      { Handle: 'deal', 'SKU of included item': '2', 'Quantity of included item': '2' },
      { Handle: 'deal', 'SKU of included item': '3', 'Quantity of included item': '1' },
      {
        Handle: 'cheddar',
        SKU: '60',
        Name: 'Cheddar',
        'Sold by weight': 'Y',
        'Default price': '21.00',
        'Available for sale [Shop]': 'Y',
      },
      { Handle: 'soup', SKU: '70', Name: 'Soup', 'Available for sale [Shop]': 'Y' },
      { SKU: '80', Name: 'Scone', 'Default price': '£2.20', 'Available for sale [Shop]': 'Y' },
      { SKU: '81', Name: 'Tea', 'Default price': 'two pounds', 'Available for sale [Shop]': 'Y' },
      { Handle: 'ghost', SKU: '90', 'Default price': '1', 'Available for sale [Shop]': 'Y' },
    ]);
    const { document, results } = await buildCsv(csv, gb);
    expect(variants(document)).toEqual([
      ['Lunch Deal', [], [[null, '50', 850, 'fixed', null]]],
      ['Cheddar', [], [[null, '60', 2100, 'fixed', 'weight']]],
      ['Soup', [], [[null, '70', null, 'variable', null]]],
      ['Scone', [], [[null, '80', 220, 'fixed', null]]],
      ['Tea', [], [[null, '81', null, 'fixed', null]]],
    ]);
    expect(results.warnings?.map((w) => [w.row, w.column, w.code])).toEqual([
      [8, 'Default price', 'not_a_price'],
      [9, 'Name', 'missing_name'],
    ]);
    expect(document.currency).toBe('GBP');
  });
});

describe('Loyverse items export in the Back Office languages', () => {
  // The same export with the interface in Spanish, Portuguese and French: the columns keep their order,
  // their names follow the interface (accents as the merchant's spreadsheet left them).
  const LANGUAGES = {
    es: {
      header: [
        'Handle',
        'REF',
        'Nombre',
        'Categoria',
        'Descripción',
        'Vendido por peso',
        'Opción 1 nombre',
        'Opción 1 valor',
        'Coste',
        'Codigo de barras',
        'REF del componente',
        'Cantidad del componente',
        'Disponible para la venta [Centro]',
        'Precio [Centro]',
        'En inventario [Centro]',
        'impuesto - "IVA" (10%)',
      ],
      names: [
        'Nombre',
        'Opción 1 nombre',
        'Opción 1 valor',
        'Disponible para la venta [Centro]',
        'Precio [Centro]',
        'Categoria',
        'REF',
        'Vendido por peso',
      ],
    },
    pt: {
      header: [
        'Handle',
        'REF',
        'Nome',
        'Categoria',
        'Descrição',
        'Vendido por peso',
        'Opção 1 nome',
        'Opção 1 valor',
        'Custo',
        'Código de barras',
        'REF do componente',
        'Quantidade do componente',
        'Disponível para venda [Centro]',
        'Preço [Centro]',
        'Em estoque [Centro]',
      ],
      names: [
        'Nome',
        'Opção 1 nome',
        'Opção 1 valor',
        'Disponível para venda [Centro]',
        'Preço [Centro]',
        'Categoria',
        'REF',
        'Vendido por peso',
      ],
    },
    fr: {
      header: [
        'Handle',
        'REF',
        'Nom',
        'Catégorie',
        'Description',
        'Vendu au poids',
        'Option 1 nom',
        'Option 1 valeur',
        'Coût',
        'Code-barres',
        'REF du composant',
        'Quantité du composant',
        'Disponible à la vente [Centro]',
        'Prix [Centro]',
        'En stock [Centro]',
      ],
      names: [
        'Nom',
        'Option 1 nom',
        'Option 1 valeur',
        'Disponible à la vente [Centro]',
        'Prix [Centro]',
        'Catégorie',
        'REF',
        'Vendu au poids',
      ],
    },
  } as const;

  test.each(Object.entries(LANGUAGES))(
    '%s: recognised, variants grouped by Handle, priced per store',
    async (_lang, { header, names }) => {
      const [NAME, OPTION_NAME, OPTION_VALUE, AVAILABLE, PRICE, CATEGORY, SKU, BY_WEIGHT] = names;
      expect(matches(header)).toBe(true);
      const csv = csvOf(header, [
        {
          Handle: 'pizza',
          [SKU]: '1',
          [NAME]: 'Pizza',
          [CATEGORY]: 'Pizzas',
          [BY_WEIGHT]: 'N',
          [OPTION_NAME]: 'Tamaño',
          [OPTION_VALUE]: 'Personal',
          [AVAILABLE]: 'Y',
          [PRICE]: '13000',
        },
        { Handle: 'pizza', [SKU]: '2', [OPTION_VALUE]: 'Familiar', [AVAILABLE]: 'Y', [PRICE]: '34000' },
        {
          Handle: 'agua',
          [SKU]: '3',
          [NAME]: 'Agua',
          [CATEGORY]: 'Bebidas',
          [BY_WEIGHT]: 'N',
          [AVAILABLE]: 'Y',
          [PRICE]: '2000',
        },
      ]);
      const { document, results } = await buildCsv(csv, aCatalogJob({ job_data: { language: 'es_mx' } }));
      expect(results.sources?.[0]?.profile).toBe('loyverse');
      expect(document.currency).toBe('MXN');
      expect(variants(document)).toEqual([
        [
          'Pizza',
          ['Tamaño'],
          [
            ['Personal', '1', 1300000, 'fixed', null],
            ['Familiar', '2', 3400000, 'fixed', null],
          ],
        ],
        ['Agua', [], [[null, '3', 200000, 'fixed', null]]],
      ]);
    },
  );
});
