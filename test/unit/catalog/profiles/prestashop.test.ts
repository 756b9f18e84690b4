import { buildRetail, csvOf, itemNamed, profileOf, variantsOf } from './helpers';

// PrestaShop exports are read by the generic aliases: their headers are ordinary ones, their prices
// ordinary `23,90 €` cells.
describe('PrestaShop product exports', () => {
  test('the back office product list (1.7): Final price (tax included) is the price, Base price its fallback', async () => {
    const csv = csvOf(
      [
        ['ID', 'Image', 'Name', 'Reference', 'Category', 'Base price', 'Final price', 'Quantity', 'Status'],
        [
          '1',
          'https://shop.example.fr/1-home_default/tee.jpg',
          'T-shirt colibri',
          'demo_1',
          'Hommes',
          '19,92 €',
          '23,90 €',
          '300',
          '1',
        ],
        ['2', '', 'Mug Aventure', 'demo_12', 'Maison', '9,90 €', '', '12', '0'],
      ],
      ';',
    );
    expect(profileOf(csv.split('\n')[0]?.split(';') ?? [])).toBe('generic');
    const { document, results } = await buildRetail(csv, 'de_de');
    expect(variantsOf(itemNamed(document, 'T-shirt colibri'))).toEqual([[null, {}, 'demo_1', 2390, 'EUR']]);
    expect(variantsOf(itemNamed(document, 'Mug Aventure'))).toEqual([[null, {}, 'demo_12', 990, 'EUR']]);
    expect(itemNamed(document, 'T-shirt colibri')?.images.map((i) => i.url)).toEqual([
      'https://shop.example.fr/1-home_default/tee.jpg',
    ]);
    expect(results.warnings).toEqual([]);
    expect(results.sources?.[0]?.ignored_columns).toEqual(['ID', 'Quantity', 'Status']);
  });

  test('the product grid (8.x): Price (tax incl.) before Price (tax excl.), whatever their order', async () => {
    const csv = csvOf(
      [
        ['ID', 'Name', 'Reference', 'Category', 'Price (tax excl.)', 'Price (tax incl.)', 'Quantity'],
        ['1', 'Carnet ours brun', 'demo_9', 'Papeterie', '10,75 €', '12,90 €', '5'],
      ],
      ';',
    );
    const { document } = await buildRetail(csv, 'de_de');
    expect(variantsOf(itemNamed(document, 'Carnet ours brun'))).toEqual([[null, {}, 'demo_9', 1290, 'EUR']]);
  });

  test('the import template: Name *, Price tax included, Reference #, EAN13, Manufacturer, Image URLs (x,y,z...)', async () => {
    const csv = csvOf(
      [
        [
          'Product ID',
          'Active (0/1)',
          'Name *',
          'Price tax excluded',
          'Price tax included',
          'Reference #',
          'Manufacturer',
          'EAN13',
          'Image URLs (x,y,z...)',
        ],
        [
          '',
          '1',
          'Affiche encadrée',
          '24,08',
          '28,90',
          'demo_6',
          'Studio Design',
          '4006381333931',
          'https://shop.example.fr/img/a.jpg,https://shop.example.fr/img/b.jpg',
        ],
      ],
      ';',
    );
    const { document } = await buildRetail(csv, 'de_de');
    const poster = itemNamed(document, 'Affiche encadrée');
    expect(variantsOf(poster)).toEqual([[null, {}, 'demo_6', 2890, 'EUR']]);
    expect(poster?.brand).toBe('Studio Design');
    expect(poster?.variants[0]?.gtin).toBe('4006381333931');
    expect(poster?.images).toHaveLength(2);
  });

  test('a price column before tax is still the price when it is the only one', async () => {
    const { document } = await buildRetail(
      csvOf([
        ['Name', 'Price (ex VAT)'],
        ['Tea', '4.00'],
      ]),
    );
    expect(variantsOf(itemNamed(document, 'Tea'))).toEqual([[null, {}, null, 400, 'USD']]);
  });
});
