import {
  isOptionLabel,
  titleOptions,
  withoutColourCode,
  withoutOptionLabel,
} from '../../../../lambdas/core/catalog/headers/profiles/feed-titles';
import { buildRetail, csvOf, variantsOf } from './helpers';

describe('feed offer titles and option values', () => {
  test.each([
    ['Shirt - Color', 'Shirt', 'Color'],
    ['Camiseta - Talla', 'Camiseta', 'Talla'],
    ['Kleid – Farbe', 'Kleid', 'Farbe'],
    ['Robe | Couleur', 'Robe', 'Couleur'],
    ['Brand | Tee - Color Black - Talla', 'Brand | Tee - Color Black', 'Talla'],
    ['T-shirt - サイズ', 'T-shirt', 'サイズ'],
  ])('%j loses its dangling option label', (title, name, label) => {
    expect(withoutOptionLabel(title)).toEqual({ name, label });
  });

  test.each(['Tee - Classic', 'Rain Jacket', 'Color', 'Sunset - Pink', 'Shirt Color'])(
    '%j keeps its words (no dangling label after a separator)',
    (title) => {
      expect(withoutOptionLabel(title)).toEqual({ name: title, label: null });
    },
  );

  test('a label the feed itself names (Meta additional_variant_attribute) is one too', () => {
    expect(withoutOptionLabel('Candle - Scent')).toEqual({ name: 'Candle', label: 'Scent' });
    expect(withoutOptionLabel('Candle - Wick')).toEqual({ name: 'Candle - Wick', label: null });
    expect(withoutOptionLabel('Candle - Wick', ['wick'])).toEqual({ name: 'Candle', label: 'Wick' });
    expect(isOptionLabel('GRÖSSE')).toBe(true);
    expect(isOptionLabel('Classic')).toBe(false);
  });

  test('labelled values after the name are options; anything else is not', () => {
    expect(titleOptions('Color Black - Talla M')).toEqual({ Color: 'Black', Talla: 'M' });
    expect(titleOptions('Farbe: Rot / Größe: 38')).toEqual({ Farbe: 'Rot', Größe: '38' });
    expect(titleOptions('Large')).toBeNull();
    expect(titleOptions('Color Black - Limited edition')).toBeNull();
  });

  test.each([
    ['#B81616:Red', 'Red'],
    ['#abc: Navy', 'Navy'],
    ['rgb(193,180,123):Cream', 'Cream'],
    ['hsla(0, 0%, 75%, 1):Grey', 'Grey'],
    ['Red', 'Red'],
    ['#B81616', '#B81616'],
  ])('colour value %j is read as %j', (value, expected) => {
    expect(withoutColourCode(value)).toBe(expected);
  });
});

describe('feed items named without the option label', () => {
  const HEADER = ['id', 'title', 'price', 'link', 'availability', 'item_group_id', 'color', 'size'];

  test('offers whose titles carry labelled options: the name loses the label, colour codes go', async () => {
    const csv = csvOf(
      [
        HEADER,
        [
          'T1',
          'Studio | Tee - Color Black - Talla S',
          '22.0 USD',
          'https://s.test/t',
          'in stock',
          'T',
          '#000000:Black',
          'S',
        ],
        [
          'T2',
          'Studio | Tee - Color White - Talla S',
          '22.0 USD',
          'https://s.test/t',
          'in stock',
          'T',
          'rgb(255,255,255):White',
          'S',
        ],
        ['K1', 'Kleid – Farbe Rot', '49.00 EUR', 'https://s.test/k', 'in stock', 'K', '', ''],
        ['K2', 'Kleid – Farbe Blau', '49.00 EUR', 'https://s.test/k', 'in stock', 'K', '', ''],
        ['C1', 'Camiseta - Talla: M', '15.00 EUR', 'https://s.test/c', 'in stock', 'C', '', ''],
        ['C2', 'Camiseta - Talla: L', '15.00 EUR', 'https://s.test/c', 'in stock', 'C', '', ''],
      ],
      '\t',
    );
    const { document } = await buildRetail(csv);
    expect(document.items.map((i) => i.name)).toEqual(['Studio | Tee', 'Kleid', 'Camiseta']);
    const [tee, dress, shirt] = document.items;
    expect(variantsOf(tee)).toEqual([
      ['Black', { Color: 'Black' }, 'T1', 2200, 'USD'],
      ['White', { Color: 'White' }, 'T2', 2200, 'USD'],
    ]);
    expect(variantsOf(dress)).toEqual([
      ['Rot', { Farbe: 'Rot' }, 'K1', 4900, 'EUR'],
      ['Blau', { Farbe: 'Blau' }, 'K2', 4900, 'EUR'],
    ]);
    expect(variantsOf(shirt)).toEqual([
      ['M', { Talla: 'M' }, 'C1', 1500, 'EUR'],
      ['L', { Talla: 'L' }, 'C2', 1500, 'EUR'],
    ]);
  });

  test('a single offer keeps its whole title', async () => {
    const csv = csvOf(
      [HEADER, ['S1', 'Scarf - Color', '10.00 USD', 'https://s.test/s', 'in stock', 'S', '', '']],
      '\t',
    );
    const { document } = await buildRetail(csv);
    expect(document.items.map((i) => i.name)).toEqual(['Scarf - Color']);
  });
});
