import type { Price } from '../document';
import {
  AMOUNT_NUMBER,
  CURRENCY_MARK,
  DEAL_BEFORE,
  isMarketPrice,
  MARKET_PRICE_AT_END,
  PER_UNIT,
  parsePrice,
  withoutAllergens,
} from '../prices';

/**
 * Prices at the end of a menu line (SPEC 5.2 price rules, applied to text read from a PDF or a photo):
 * `Garlic Bread ....... $5.50`, `Margherita  12,50 €`, `Pizza  10 / 14 / 18`, `Oysters  MP`, `Soupe 8€50`.
 * The currency marks, the amounts, the market-price words and what is not a price are the one price
 * grammar's (prices.ts); this module only finds where they are on a line and what they look like.
 */

export interface PriceToken {
  /** The text as read (for warnings and review). */
  readonly text: string;
  /** Null for a market/variable price and for text that is not a price. */
  readonly price: Price | null;
  readonly variable: boolean;
}

export interface LinePrices {
  /** The line without its prices and leaders: the dish name (or a description). */
  readonly label: string;
  /** Left to right. */
  readonly prices: readonly PriceToken[];
  /**
   * True when every price is a bare whole number stuck to the text by one space (`Pizza 12`): that is only
   * a price if the rest of the menu writes prices the same way, which the drafter decides.
   */
  readonly weak: boolean;
  /** Set when the line ends in something price-like that is not one price (`2 for $5`, `$0.69/lb`). */
  readonly notAPrice: string | null;
}

/** A whole amount (`12.-`, `12,–`), `12€50` (French for 12.50 €), and `12,50 e` (a € the font lost). */
const SPECIAL = String.raw`(?:\d{1,2}\s?¢|\d{1,5}\s?€\s?\d{2}|\d{1,5}[.,][-–—]|(?:\d{1,3}(?:[.,]\d{3})*|\d{1,6})(?:[.,]\d{1,2})?\s?[eE](?![\p{L}\d]))`;
const AMOUNT = String.raw`(?:${SPECIAL}|${CURRENCY_MARK}?\s?${AMOUNT_NUMBER}(?:\s?${CURRENCY_MARK})?)`;

/**
 * One token at the very end, with what separates it from the text before it: dot leaders, spaced or not and
 * touching the price or not (`Soup ........ 4.50`, `Soup . . . . .$4.50`), a dash or bar, a slash, spaces.
 * One leader character is enough where it stands after a word or a space and right before an amount with
 * decimals (`Wonton .3.50`, `Soup…4.50`: OCR keeps the last dot of a leader, glued to the price); never after
 * a digit (`12.03.24`), nor before an amount without decimals (`Add bacon .75` is not 75).
 */
const TRAILING = new RegExp(
  String.raw`(^|\s*[.·…_](?:\s?[.·…_])+\s*|(?<=^|[\p{L})\s])[.·…_](?=\d{1,5}[.,]\d{1,2}\s*$)|\s+[|/–—-]\s*|\s*/\s*|\s+)(${MARKET_PRICE_AT_END}|${AMOUNT})\s*$`,
  'u',
);
const UNIT_PRICE = new RegExp(String.raw`${AMOUNT}\s?${PER_UNIT.source}\s*$`, 'iu');

const WHOLE_TOKEN = new RegExp(`^(?:${AMOUNT})$`, 'u');
const MARK = new RegExp(CURRENCY_MARK, 'u');

const hasCurrency = (token: string): boolean => MARK.test(token) || /\d\s?[eE¢]$/.test(token);
const hasDecimals = (token: string): boolean => /\d[.,]\d{1,2}(?!\d)|€\s?\d{2}$/.test(token);

/**
 * Reads one price-like token: a market/variable price word, or an amount parsed in `currency` unless the
 * token names its own. Undefined when the token is not price-like at all.
 *
 * @example readPriceToken('12,50 €', 'USD') // { text: '12,50 €', price: { amount: 1250, currency: 'EUR' }, variable: false }
 */
export const readPriceToken = (token: string, currency: string): PriceToken | undefined => {
  const text = token.trim();
  if (isMarketPrice(text)) return { text, price: null, variable: true };
  if (!WHOLE_TOKEN.test(text)) return undefined;
  const parsed = parsePrice(text, currency);
  return parsed.ok ? { text, price: parsed.price, variable: false } : undefined;
};

/** True when the whole text is one or more prices (a price cell, or a column of prices). */
export const isPriceText = (text: string, currency = 'USD'): boolean => {
  const parsed = readLinePrices(text, currency);
  return parsed.prices.length > 0 && parsed.label === '';
};

/**
 * Splits a line into its label and the prices at its end, removing dot leaders and separators.
 *
 * @example readLinePrices('Garlic Bread ........ $5.50', 'USD') // label 'Garlic Bread', one price of 550
 * @example readLinePrices('Pizza  10 / 14 / 18', 'USD')          // three prices
 */
export const readLinePrices = (text: string, currency: string): LinePrices => {
  let rest = withoutAllergens(text.replace(/\s+/g, ' ').trim());
  const unit = UNIT_PRICE.exec(rest);
  if (unit) {
    return {
      label: stripLeaders(rest.slice(0, unit.index)),
      prices: [],
      weak: false,
      notAPrice: unit[0].trim(),
    };
  }
  const prices: PriceToken[] = [];
  let weak = true;
  for (let guard = 0; guard < 12; guard++) {
    const match = TRAILING.exec(rest);
    if (!match) break;
    const [whole, separator = '', token = ''] = match;
    const read = readPriceToken(token, currency);
    if (!read) break;
    const before = rest.slice(0, rest.length - whole.length);
    if (before !== '' && /[\p{L}\d]$/u.test(before) && separator === '') break;
    const strong = read.variable || hasCurrency(token) || hasDecimals(token) || separator.trim() !== '';
    const wideGap = /\s{2,}/.test(text.slice(Math.max(0, text.lastIndexOf(token) - 3)));
    // A bare number after a single space must not steal the end of a name (`Chicken 65`, `7 Up`).
    // A bare number right after another one is a list of prices only if both are short (`9 12 15`).
    if (!strong && /\d$/.test(before) && !(/^\d{1,3}$/.test(token) && /(?:^|\s)\d{1,3}$/.test(before))) break;
    if (strong || wideGap || before === '') weak = false;
    prices.unshift(read);
    rest = before;
    // Several prices only when they are separated like a list (`10 / 14`, `10  14  18`), not by words.
    if (!/^\s*\/?\s*$/.test(separator) && separator.trim() !== '/') break;
  }
  const label = stripLeaders(rest);
  if (prices.length > 0 && DEAL_BEFORE.test(label)) {
    const deal = DEAL_BEFORE.exec(label)!;
    return {
      label: stripLeaders(label.slice(0, deal.index)),
      prices: [],
      weak: false,
      notAPrice: `${deal[0].trim()} ${prices.map((p) => p.text).join(' ')}`,
    };
  }
  return { label, prices, weak: prices.length > 0 && weak, notAPrice: null };
};

/** Removes trailing dot leaders, dashes and separators (and leading bullets). */
export const stripLeaders = (text: string): string =>
  text
    .replace(/[\s.·…_|:–—-]+$/u, '')
    .replace(/^[\s•·*–—-]+/u, '')
    .trim();
