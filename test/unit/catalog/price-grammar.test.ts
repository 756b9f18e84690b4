import type { Price } from '../../../lambdas/core/catalog/document';
import { readLinePrices } from '../../../lambdas/core/catalog/drafts/line-prices';
import { parsePrice } from '../../../lambdas/core/catalog/prices';
import { parsePriceCell } from '../../../lambdas/core/catalog/rows/prices';
import { findPrices } from '../../../lambdas/core/catalog/web/price-text';

/**
 * One price grammar (prices.ts): every example is read by the three readers — a spreadsheet cell, a menu
 * line from a PDF or a photo, a line of a web page — and each must give the same one answer: a price, a
 * market price (`variable`), or no price (`none`). Examples are written for this test.
 */

type Answer = Price | 'variable' | 'none';

const price = (amount: number, currency: string): Price => ({ amount, currency });

const EXAMPLES: readonly (readonly [text: string, jobCurrency: string, expected: Answer])[] = [
  // symbol or code, before or after
  ['$12.50', 'USD', price(1250, 'USD')],
  ['$12.50', 'CAD', price(1250, 'CAD')],
  ['$12.50', 'EUR', price(1250, 'USD')],
  ['MX$90', 'USD', price(9000, 'MXN')],
  ['NZ$12.50', 'USD', price(1250, 'NZD')],
  ['US$8', 'CAD', price(800, 'USD')],
  ['12,50 €', 'USD', price(1250, 'EUR')],
  ['€ 9', 'USD', price(900, 'EUR')],
  ['12.50 EUR', 'USD', price(1250, 'EUR')],
  ['CHF 12.50', 'EUR', price(1250, 'CHF')],
  ['Fr. 14.50', 'EUR', price(1450, 'CHF')],
  ['£3.99', 'USD', price(399, 'GBP')],
  ['R$ 10,90', 'USD', price(1090, 'BRL')],
  // thousands separators and decimal commas
  ['1.234,50 €', 'EUR', price(123450, 'EUR')],
  ['$1,234.50', 'USD', price(123450, 'USD')],
  ["CHF 1'234.50", 'CHF', price(123450, 'CHF')],
  ['1 234,50 €', 'EUR', price(123450, 'EUR')],
  // zero-decimal currencies
  ['¥1,200', 'JPY', price(1200, 'JPY')],
  ['1200円', 'USD', price(1200, 'JPY')],
  ['₩15,000', 'KRW', price(15000, 'KRW')],
  ['$12.900', 'CLP', price(12900, 'CLP')],
  // whole amounts, a lost € glyph
  ['12,-', 'EUR', price(1200, 'EUR')],
  ['12,50 e', 'EUR', price(1250, 'EUR')],
  ['9,80 E', 'USD', price(980, 'EUR')],
  // currency words and abbreviations
  ['45 TL', 'USD', price(4500, 'TRY')],
  ['89 kr', 'USD', price(8900, 'SEK')],
  ['89 kr', 'NOK', price(8900, 'NOK')],
  ['25 zł', 'USD', price(2500, 'PLN')],
  ['Rs 250', 'USD', price(25000, 'INR')],
  ['₹250', 'USD', price(25000, 'INR')],
  // market prices, in the job languages
  ['MP', 'USD', 'variable'],
  ['M.P.', 'USD', 'variable'],
  ['Market Price', 'USD', 'variable'],
  ['Tagespreis', 'EUR', 'variable'],
  ['prix du marché', 'EUR', 'variable'],
  ['precio de mercado', 'MXN', 'variable'],
  ['prezzo di mercato', 'EUR', 'variable'],
  ['時価', 'JPY', 'variable'],
  ['시가', 'KRW', 'variable'],
  // not prices
  ['2 for $5', 'USD', 'none'],
  ['$0.69/lb', 'USD', 'none'],
  ['4,90 € per kg', 'EUR', 'none'],
  ['(2)', 'EUR', 'none'],
  ['A,C,G', 'EUR', 'none'],
  ['N. 5,7', 'EUR', 'none'],
];

/** Allergen markers after a price leave the price as it is. */
const WITH_ALLERGENS: readonly (readonly [text: string, jobCurrency: string, expected: Answer])[] = [
  ['14,50 € (A,C,G)', 'EUR', price(1450, 'EUR')],
  ['14,50 € (1,3,7)', 'EUR', price(1450, 'EUR')],
  ['$9.50 (2)', 'USD', price(950, 'USD')],
];

const cell = (text: string, currency: string): Answer => {
  const read = parsePriceCell(text, currency);
  return read.kind === 'price' ? read.price : read.kind === 'variable' ? 'variable' : 'none';
};

const menuLine = (text: string, currency: string): Answer | 'several' => {
  const read = readLinePrices(`Grilled fish  ${text}`, currency);
  if (read.notAPrice !== null || read.prices.length === 0) return 'none';
  if (read.prices.length > 1) return 'several';
  const [only] = read.prices;
  return only!.variable ? 'variable' : (only!.price ?? 'none');
};

const webLine = (text: string, currency: string): Answer | 'several' => {
  const tokens = findPrices(`Grilled fish ${text}`, currency);
  if (tokens.length === 0) return 'none';
  if (tokens.length > 1) return 'several';
  return tokens[0]!.kind === 'variable' ? 'variable' : (tokens[0]!.price ?? 'none');
};

describe('one price grammar, three readers', () => {
  test.each([...EXAMPLES, ...WITH_ALLERGENS])('%j (job currency %s)', (text, jobCurrency, expected) => {
    expect({
      cell: cell(text, jobCurrency),
      menuLine: menuLine(text, jobCurrency),
      webLine: webLine(text, jobCurrency),
    }).toEqual({ cell: expected, menuLine: expected, webLine: expected });
  });
});

describe('parsePrice', () => {
  it('reads a dollar sign as the job’s currency when that is a dollar, else as US dollars', () => {
    expect(['USD', 'CAD', 'AUD', 'NZD', 'MXN', 'EUR', 'JPY'].map((c) => parsePrice('$5', c))).toEqual(
      ['USD', 'CAD', 'AUD', 'NZD', 'MXN', 'USD', 'USD'].map((currency) => ({
        ok: true,
        price: { amount: 500, currency },
      })),
    );
  });

  it('reads cents (`75¢`) as a fraction of a dollar: the job’s dollar, else US dollars', () => {
    expect(parsePrice('75¢', 'USD')).toEqual({ ok: true, price: { amount: 75, currency: 'USD' } });
    expect(parsePrice('5 ¢', 'CAD')).toEqual({ ok: true, price: { amount: 5, currency: 'CAD' } });
    expect(parsePrice('75¢', 'EUR')).toEqual({ ok: true, price: { amount: 75, currency: 'USD' } });
    expect(parsePrice('175¢', 'USD').ok).toBe(false);
  });

  it('takes a code beside a shared mark as the mark’s currency, and refuses one that is not', () => {
    expect(parsePrice('$12 CAD', 'USD')).toEqual({ ok: true, price: { amount: 1200, currency: 'CAD' } });
    expect(parsePrice('$12 EUR', 'USD')).toMatchObject({ ok: false });
  });

  it('refuses more decimals than a zero-decimal currency has', () => {
    expect(parsePrice('¥12.50', 'JPY')).toEqual({
      ok: false,
      message: 'has more than 0 decimal places for JPY',
    });
  });
});
