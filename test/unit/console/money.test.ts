import { formatAmount, minorDigits, parseAmount } from '../../../console/src/catalog/money';

describe('prices as typed', () => {
  it('knows each currency’s decimals', () => {
    expect([minorDigits('USD'), minorDigits('JPY'), minorDigits('KRW'), minorDigits('BHD')]).toEqual([
      2, 0, 0, 3,
    ]);
  });

  it.each([
    ['12.50', 'USD', 1250],
    ['12.5', 'USD', 1250],
    ['12,5', 'EUR', 1250],
    ['12', 'USD', 1200],
    [' 1 234.05 ', 'USD', 123405],
    ['1200', 'JPY', 1200],
    ['0', 'USD', 0],
    ['', 'USD', null],
    // As the service's readers accept them (lambdas/core/catalog/money.ts): symbols, codes, locales.
    ['7,00 €', 'EUR', 700],
    ['12,50 €', 'EUR', 1250],
    ['$12', 'USD', 1200],
    ['1.234,56', 'EUR', 123456],
    ['¥1,200', 'JPY', 1200],
    ['1300円', 'JPY', 1300],
    ['3,-', 'EUR', 300],
    ['Fr. 8.50', 'CHF', 850],
    ['USD 4', 'USD', 400],
  ])('%j in %s is %j minor units', (text, currency, amount) => {
    expect(parseAmount(text, currency)).toEqual({ ok: true, amount });
  });

  it.each([
    ['12.5', 'JPY', 'has more than 0 decimal places for JPY: enter a price such as 1200'],
    ['12.50.1', 'USD', 'not a price: enter a price such as 12.50'],
    ['-3', 'USD', 'must not be negative: enter a price such as 12.50'],
    ['1e3', 'USD', 'not a price: enter a price such as 12.50'],
    ['2 for $5', 'USD', 'not a price: enter a price such as 12.50'],
    ['99999999999999999', 'USD', 'is too large: enter a price such as 12.50'],
    ['7,00 €', 'USD', 'this catalog is in USD, that price in EUR: enter it in USD'],
  ])('%j in %s is refused: %s', (text, currency, message) => {
    expect(parseAmount(text, currency)).toEqual({ ok: false, message });
  });

  it('formats minor units back, round trip', () => {
    expect([formatAmount(1250, 'USD'), formatAmount(5, 'USD'), formatAmount(1200, 'JPY')]).toEqual([
      '12.50',
      '0.05',
      '1200',
    ]);
    for (const amount of [0, 1, 99, 100, 123456]) {
      expect(parseAmount(formatAmount(amount, 'USD'), 'USD')).toEqual({ ok: true, amount });
    }
  });
});
