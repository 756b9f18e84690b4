import { currencyDecimals, defaultCurrency, isCurrencyCode } from '../../../lambdas/core/catalog/money';
import { parsePrice } from '../../../lambdas/core/catalog/prices';
import { LANGUAGES } from '../../../lambdas/core/schemas/job';

describe('parsePrice', () => {
  test.each([
    ['$12.50', 'USD', 1250, 'USD'],
    ['12.5', 'USD', 1250, 'USD'],
    ['12,50', 'EUR', 1250, 'EUR'],
    ['12,5', 'EUR', 1250, 'EUR'],
    ['1.234,56', 'EUR', 123456, 'EUR'],
    ['1,234.56', 'USD', 123456, 'USD'],
    ['1,234', 'USD', 123400, 'USD'],
    ['1.234.567', 'EUR', 123456700, 'EUR'],
    ['1 234,56 €', 'EUR', 123456, 'EUR'],
    ['€9', 'USD', 900, 'EUR'],
    ['£3.99', 'USD', 399, 'GBP'],
    ['R$ 10,90', 'USD', 1090, 'BRL'],
    ['12.50 EUR', 'USD', 1250, 'EUR'],
    ['usd 7', 'EUR', 700, 'USD'],
    ['¥1,200', 'JPY', 1200, 'JPY'],
    ['1200', 'JPY', 1200, 'JPY'],
    ['1200.00', 'JPY', 1200, 'JPY'],
    ['₩15000', 'KRW', 15000, 'KRW'],
    ['0', 'USD', 0, 'USD'],
    ['.99', 'USD', 99, 'USD'],
    ['5.', 'USD', 500, 'USD'],
    ['+3', 'USD', 300, 'USD'],
    ['12.500', 'USD', 1250000, 'USD'],
    ['1.250', 'BHD', 1250, 'BHD'],
    ['  4.20  ', 'CAD', 420, 'CAD'],
  ])('%j (%s) → %i %s', (input, fallback, amount, currency) => {
    expect(parsePrice(input, fallback)).toEqual({ ok: true, price: { amount, currency } });
  });

  test.each([
    [12.5, 'USD', 1250],
    [12, 'USD', 1200],
    [0.1 + 0.2, 'USD', 30],
    [1200, 'JPY', 1200],
    [19.99, 'EUR', 1999],
  ])('number %d (%s) → %i', (input, currency, amount) => {
    expect(parsePrice(input, currency)).toEqual({ ok: true, price: { amount, currency } });
  });

  test.each([
    ['', 'is empty'],
    ['abc', 'is not a price'],
    ['twelve', 'is not a price'],
    ['-5', 'must not be negative'],
    ['(5.00)', 'must not be negative'],
    ['12.3456', 'more than 2 decimal places'],
    ['1,234.567', 'more than 2 decimal places'],
    ['1,2,3', 'is not a price'],
    ['12.50 XYZ', 'unknown currency code'],
    ['$', 'is not a price'],
    ['1.2.3,4', 'is not a price'],
    ['99999999999999999999', 'is too large'],
  ])('%j is refused (%s)', (input, message) => {
    const result = parsePrice(input, 'USD');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(message);
  });

  test('numbers: negative, non-finite and sub-cent amounts are refused', () => {
    expect(parsePrice(-1, 'USD').ok).toBe(false);
    expect(parsePrice(Number.NaN, 'USD').ok).toBe(false);
    expect(parsePrice(Number.POSITIVE_INFINITY, 'USD').ok).toBe(false);
    expect(parsePrice(1.005, 'USD').ok).toBe(false);
    expect(parsePrice(12.5, 'JPY').ok).toBe(false);
  });

  test('zero-decimal currencies refuse a fraction', () => {
    expect(parsePrice('1200.5', 'JPY')).toEqual({
      ok: false,
      message: 'has more than 0 decimal places for JPY',
    });
  });
});

describe('default currency by language', () => {
  test.each([
    ['en_us', 'USD'],
    ['en_gb', 'GBP'],
    ['en_ca', 'CAD'],
    ['fr_ca', 'CAD'],
    ['en_au', 'AUD'],
    ['fr_fr', 'EUR'],
    ['es_es', 'EUR'],
    ['de_de', 'EUR'],
    ['it_it', 'EUR'],
    ['nl_nl', 'EUR'],
    ['es_us', 'USD'],
    ['es_mx', 'MXN'],
    ['pt_br', 'BRL'],
    ['ja_jp', 'JPY'],
    ['ko_kr', 'KRW'],
    ['zh_cn', 'CNY'],
    ['zh_tw', 'TWD'],
    ['sv_se', 'SEK'],
    ['es_cl', 'CLP'],
    ['en_nz', 'NZD'],
  ] as const)('%s → %s', (language, currency) => {
    expect(defaultCurrency(language)).toBe(currency);
  });

  test('every documented language has a real ISO 4217 currency', () => {
    for (const language of LANGUAGES)
      expect({ language, known: isCurrencyCode(defaultCurrency(language)) }).toEqual({
        language,
        known: true,
      });
    // The check itself can fail: a well-formed code that is no currency is not known.
    expect(isCurrencyCode('QQQ')).toBe(false);
  });

  test('minor units', () => {
    expect(currencyDecimals('USD')).toBe(2);
    expect(currencyDecimals('JPY')).toBe(0);
    expect(currencyDecimals('KRW')).toBe(0);
    expect(currencyDecimals('BHD')).toBe(3);
  });
});
