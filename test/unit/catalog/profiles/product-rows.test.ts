import { FIELD_LIMITS } from '../../../../lambdas/core/catalog/document';
import {
  categoryList,
  optionCombinations,
  primaryCategory,
  signedAmount,
  splitEscaped,
} from '../../../../lambdas/core/catalog/headers/profiles/product-rows';

describe('what the storefront profiles share', () => {
  test('lists split on a separator a backslash does not escape', () => {
    expect(splitEscaped('Shop All/Kitchen;Sale;', ';')).toEqual(['Shop All/Kitchen', 'Sale']);
    expect(splitEscaped('Tools\\/Hardware/Saws', '/')).toEqual(['Tools/Hardware', 'Saws']);
    expect(splitEscaped('  ', ';')).toEqual([]);
    expect(categoryList('Shop All/Kitchen;Sale', { list: ';', path: '/' })).toEqual([
      ['Shop All', 'Kitchen'],
      ['Sale'],
    ]);
    expect(categoryList('Bags > Totes, Gifts', { list: ',' })).toEqual([['Bags', 'Totes'], ['Gifts']]);
  });

  test('of several categories, the most specific, the first among equals; ancestors are not others', () => {
    expect(primaryCategory([['Sale'], ['Shop All', 'Kitchen']])).toEqual(['Shop All', 'Kitchen']);
    expect(primaryCategory([['Mugs'], ['Sale']])).toEqual(['Mugs']);
    expect(primaryCategory([['Clothing'], ['clothing', 'Hoodies']])).toEqual(['clothing', 'Hoodies']);
    expect(primaryCategory([])).toBeNull();
  });

  test('every combination of option values, first option outermost, within the variant limit', () => {
    expect(
      optionCombinations([
        { name: 'Size', values: ['S', 'L'] },
        { name: 'Color', values: [] },
        { name: 'Fit', values: ['Slim', 'Loose'] },
      ]),
    ).toEqual([
      { Size: 'S', Fit: 'Slim' },
      { Size: 'S', Fit: 'Loose' },
      { Size: 'L', Fit: 'Slim' },
      { Size: 'L', Fit: 'Loose' },
    ]);
    expect(optionCombinations([{ name: 'Size', values: [] }])).toEqual([]);
    const many = Array.from({ length: 40 }, (_, i) => String(i));
    expect(
      optionCombinations([
        { name: 'A', values: many },
        { name: 'B', values: many },
      ]).length,
    ).toBeLessThanOrEqual(FIELD_LIMITS.variants + 1);
  });

  test('signed amounts (surcharges) in minor units', () => {
    expect(signedAmount('-8.5', 'USD')).toEqual({ kind: 'amount', amount: -850 });
    expect(signedAmount('+2.00', 'USD')).toEqual({ kind: 'amount', amount: 200 });
    expect(signedAmount(4, 'JPY')).toEqual({ kind: 'amount', amount: 4 });
    expect(signedAmount(-1.25, 'EUR')).toEqual({ kind: 'amount', amount: -125 });
    expect(signedAmount('', 'USD')).toEqual({ kind: 'empty' });
    expect(signedAmount('extra', 'USD')).toMatchObject({ kind: 'invalid' });
  });
});
