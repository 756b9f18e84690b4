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
  ])('%j in %s is %j minor units', (text, currency, amount) => {
    expect(parseAmount(text, currency)).toEqual({ ok: true, amount });
  });

  it.each([
    ['12.505', 'USD', 'USD has 2 decimals at most'],
    ['12.5', 'JPY', 'JPY has no decimals'],
    ['$12', 'USD', 'enter a price such as 12.50'],
    ['12.50.1', 'USD', 'enter a price such as 12.50'],
    ['-3', 'USD', 'enter a price such as 12.50'],
    ['1e3', 'USD', 'enter a price such as 12.50'],
    ['99999999999999999', 'USD', 'this price is too large'],
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
