import { MARKET_PRICE_WORDS as MARKET_PRICE_WORDS_BY_LANGUAGE } from '../locale';
import type { Price } from './document-fields';
import { currencyDecimals, isCurrencyCode } from './money';

/**
 * The one price grammar (SPEC 5.2 price rules). A spreadsheet cell (rows/prices.ts), a menu line read from a
 * PDF or a photo (drafts/line-prices.ts) and a web page (web/price-text.ts, web/values.ts) all read prices
 * with what this module defines, so that `MX$90` is the same price wherever it is written:
 * - the currency marks: symbols and words from the runtime's ISO 4217 / CLDR data (`$`, `€`, `MX$`, `zł`,
 *   `kr`, …) plus the local spellings menus use (`US$`, `C$`, `Fr.`, `TL`, `Rs`, `円`, `euros`), and the
 *   ISO codes themselves, before or after the amount;
 * - `parsePrice`, the token grammar: decimal comma or point, thousands separators (`1.234,50`, `1,234.50`,
 *   `1 234,50`, `1'234.50`), zero-decimal currencies (`12.900` in CLP is 12900), `12,-` and `12.–` (no
 *   cents), `12€50`, and `e`/`E` after the amount for a € a menu's font lost;
 * - market-price words in every job language (`MP`, `Tagespreis`, `prix du marché`, `時価`, …);
 * - text that looks like a price and is not one: a deal (`2 for $5`), a price per unit (`$0.69/lb`), and
 *   allergen markers after a dish (`(2)`, `A,C,G`, `N. 5,7`).
 *
 * A mark several currencies share (`$`, `¥`, `£`, `kr`, `Rs`) takes the job's currency when it is one of
 * them, else the most common one (`$` → USD): one rule for every reader.
 */

// ---------------------------------------------------------------------------------------------------------
// Currency marks

/** The currency a shared mark stands for when the job's currency is none of its currencies. */
const PRIMARY: Readonly<Record<string, string>> = {
  $: 'USD',
  '¥': 'JPY',
  '£': 'GBP',
  kr: 'SEK',
  'kr.': 'DKK',
  Rs: 'INR',
  'Rs.': 'INR',
  '₩': 'KRW',
  C$: 'CAD',
};

/**
 * Spellings menus and merchants use that CLDR's English data does not give (or gives to another currency:
 * CLDR's `C$` is the córdoba, a Canadian menu's is the dollar).
 */
const LOCAL_MARKS: readonly (readonly [string, readonly string[]])[] = [
  ['US$', ['USD']],
  ['AU$', ['AUD']],
  ['C$', ['CAD', 'NIO']],
  ['S$', ['SGD']],
  ['Rs', ['INR', 'PKR', 'LKR', 'NPR', 'MUR']],
  ['Rs.', ['INR', 'PKR', 'LKR', 'NPR', 'MUR']],
  ['kr.', ['DKK', 'NOK', 'SEK', 'ISK']],
  ['円', ['JPY']],
  ['元', ['CNY']],
  ['원', ['KRW']],
  ['SFr.', ['CHF']],
  ['Fr.', ['CHF']],
  ['TL', ['TRY']],
  ['€', ['EUR']],
  ['euros', ['EUR']],
  ['eur', ['EUR']],
  ['Eur', ['EUR']],
  ['euro', ['EUR']],
  ['Euro', ['EUR']],
];

const markOf = (currency: string, display: 'symbol' | 'narrowSymbol'): string =>
  new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay: display })
    .formatToParts(1)
    .find((part) => part.type === 'currency')?.value ?? currency;

/**
 * Every currency mark → the currencies it may stand for: CLDR's English symbols and narrow symbols of every
 * ISO 4217 currency the runtime knows, then the local spellings. Single ASCII letters (`R`, `K`, `L`, `P`)
 * are left out: beside a number they are more often a size or an allergen than a currency.
 */
const buildMarks = (): ReadonlyMap<string, readonly string[]> => {
  const marks = new Map<string, string[]>();
  const add = (mark: string, currency: string) => {
    if (/^[A-Za-z]$/.test(mark) || mark === currency) return;
    const list = marks.get(mark) ?? [];
    if (!list.includes(currency)) list.push(currency);
    marks.set(mark, list);
  };
  for (const currency of Intl.supportedValuesOf('currency')) {
    add(markOf(currency, 'symbol'), currency);
    add(markOf(currency, 'narrowSymbol'), currency);
  }
  for (const [mark, currencies] of LOCAL_MARKS) {
    // A local spelling that CLDR gives to another currency is read the local way first (`C$`: CAD).
    marks.set(mark, [...new Set([...currencies, ...(marks.get(mark) ?? [])])]);
  }
  return marks;
};

const MARKS = buildMarks();

/** Marks longest first, so that `MX$` is not read as `$` nor `Rs.` as `Rs`. */
const MARKS_BY_LENGTH = [...MARKS.keys()].sort((a, b) => b.length - a.length);

/** The currency a mark names for a job whose currency is `jobCurrency`. */
export const currencyOfMark = (mark: string, jobCurrency: string): string | undefined => {
  const currencies = MARKS.get(mark);
  if (!currencies) return undefined;
  if (currencies.includes(jobCurrency)) return jobCurrency;
  return PRIMARY[mark] ?? currencies[0];
};

/** The currencies whose mark is `$` (CLDR): USD, CAD, AUD, NZD, MXN, CLP, … */
export const DOLLAR_CURRENCIES: readonly string[] = MARKS.get('$') ?? ['USD'];

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * ISO codes that count as a currency in running text (a menu line, a web page): common ones only, upper
 * case — a menu's `CUP 4.50` is a cup, and `ALL`, `TOP` are words before they are currencies. A whole cell
 * may name any ISO code (`parsePrice`).
 */
const TEXT_CODES = [
  'USD',
  'EUR',
  'GBP',
  'CAD',
  'AUD',
  'NZD',
  'CHF',
  'JPY',
  'CNY',
  'KRW',
  'MXN',
  'BRL',
  'TWD',
  'HKD',
  'SGD',
  'INR',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CZK',
  'HUF',
  'TRY',
  'ZAR',
  'RUB',
  'ARS',
  'CLP',
  'COP',
];

/** A letter mark must not be part of a word (`Rs` in `Drs`, `kr` in `krill`). */
const markPattern = (mark: string): string =>
  /^[A-Za-z]/.test(mark)
    ? `(?<![\\p{L}])${escapeRegex(mark)}${/[A-Za-z]$/.test(mark) ? '(?![\\p{L}])' : ''}`
    : escapeRegex(mark);

/** Regex source of a currency mark or common ISO code in running text (no capture groups). */
export const CURRENCY_MARK = `(?:${[...MARKS_BY_LENGTH.map(markPattern), ...TEXT_CODES.map((c) => `${c}(?![A-Za-z])`)].join('|')})`;

/**
 * Regex source of an amount in running text: grouped thousands (`1,234.50`, `1.234,50`, `1 234,50`,
 * `1'234.50`, `12.900`) or up to six digits with up to three decimals (no capture groups).
 */
export const AMOUNT_NUMBER = String.raw`(?:\d{1,3}(?:[,.'\u00a0\u202f ]\d{3})+(?:[.,]\d{1,2})?|\d{1,6}(?:[.,]\d{1,3})?)`;

// ---------------------------------------------------------------------------------------------------------
// The token grammar

export type PriceParseResult =
  | { readonly ok: true; readonly price: Price }
  | { readonly ok: false; readonly message: string };

const fail = (message: string): PriceParseResult => ({ ok: false, message });

/** Digits with at most two decimals after `.` (or `,` when fewer than three digits follow), optionally `$`. */
const PLAIN_DECIMAL = /^\s*\$?(\d{1,15})(?:[.,](\d{1,2}))?\s*$/;

/**
 * Decides which of `.` and `,` is the decimal separator of a digits-and-separators string and returns it
 * as `whole` and `fraction` digit strings.
 *
 * Both present: the last one is the decimal separator (`1.234,56`, `1,234.56`). One present once: it is
 * the decimal separator unless exactly three digits follow (`12,50` is 12.50, `1,234` is 1234) and the
 * currency does not have three decimals. One present several times: grouping (`1.234.567`).
 */
const splitDecimal = (digits: string, decimals: number): { whole: string; fraction: string } | undefined => {
  const lastDot = digits.lastIndexOf('.');
  const lastComma = digits.lastIndexOf(',');
  let decimalSeparator: '.' | ',' | null = null;
  if (lastDot >= 0 && lastComma >= 0) {
    decimalSeparator = lastDot > lastComma ? '.' : ',';
  } else if (lastDot >= 0 || lastComma >= 0) {
    const separator = lastDot >= 0 ? '.' : ',';
    const count = digits.split(separator).length - 1;
    const after = digits.length - digits.lastIndexOf(separator) - 1;
    decimalSeparator = count === 1 && (after !== 3 || decimals === 3) ? separator : null;
  }
  const [wholePart, fraction = '', ...rest] =
    decimalSeparator === null ? [digits] : digits.split(decimalSeparator);
  if (rest.length > 0 || wholePart === undefined) return undefined;
  const groupSeparator = decimalSeparator === '.' ? ',' : decimalSeparator === ',' ? '.' : /[.,]/;
  const groups = wholePart.split(groupSeparator);
  if (groups.length > 1 && (groups[0] === '' || groups.slice(1).some((g) => g.length !== 3)))
    return undefined;
  const whole = groups.join('');
  if (!/^\d*$/.test(whole) || !/^\d*$/.test(fraction) || whole.length + fraction.length === 0)
    return undefined;
  return { whole, fraction };
};

/** Finds and removes the currency mark of a price token: the currency it names, and the others it may. */
const takeMark = (
  text: string,
  jobCurrency: string,
): { currency: string | null; family: readonly string[]; rest: string } => {
  for (const mark of MARKS_BY_LENGTH) {
    const at = text.indexOf(mark);
    if (at < 0) continue;
    const letters = /[A-Za-z]/.test(mark);
    if (letters && (/\p{L}/u.test(text[at - 1] ?? '') || /\p{L}/u.test(text[at + mark.length] ?? '')))
      continue;
    return {
      currency: currencyOfMark(mark, jobCurrency) ?? null,
      family: MARKS.get(mark) ?? [],
      rest: `${text.slice(0, at)} ${text.slice(at + mark.length)}`,
    };
  }
  return { currency: null, family: [], rest: text };
};

/**
 * Parses a price into integer minor units and an ISO 4217 currency (SPEC 5.2).
 *
 * Accepts numbers and decimal strings with an optional currency mark or code before or after, and either
 * decimal separator; an explicit code (`12.50 EUR`) or a mark (`€`, `MX$`, `zł`) wins over
 * `fallbackCurrency`, and a shared mark (`$`) takes `fallbackCurrency` when it is one of its currencies.
 * Negative amounts, more decimals than the currency has (unless zeros) and unparsable text are refused
 * with a message fit for a row warning.
 *
 * @example parsePrice('$12.50', 'USD') // { ok: true, price: { amount: 1250, currency: 'USD' } }
 * @example parsePrice('1.234,56', 'EUR') // { ok: true, price: { amount: 123456, currency: 'EUR' } }
 * @example parsePrice('12.900', 'CLP') // { ok: true, price: { amount: 12900, currency: 'CLP' } }
 * @example parsePrice('MX$90', 'USD') // { ok: true, price: { amount: 9000, currency: 'MXN' } }
 */
export const parsePrice = (value: string | number, fallbackCurrency: string): PriceParseResult => {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return fail('is not a finite number');
    if (value < 0) return fail('must not be negative');
    const decimals = currencyDecimals(fallbackCurrency);
    const scaled = value * 10 ** decimals;
    const amount = Math.round(scaled);
    if (Math.abs(scaled - amount) > 1e-6 * Math.max(1, Math.abs(scaled))) {
      return fail(`has more than ${decimals} decimal places for ${fallbackCurrency}`);
    }
    if (!Number.isSafeInteger(amount)) return fail('is too large');
    return { ok: true, price: { amount, currency: fallbackCurrency } };
  }

  const plain = PLAIN_DECIMAL.exec(value);
  if (plain !== null && (!value.includes('$') || DOLLAR_CURRENCIES.includes(fallbackCurrency))) {
    // Fast path for the common `12.50` / `$12.50` / `12,5`: one regex instead of the general parse.
    const decimals = currencyDecimals(fallbackCurrency);
    const fraction = plain[2] ?? '';
    if (fraction.length <= decimals) {
      const amount = Number(`${plain[1]}${fraction.padEnd(decimals, '0')}`);
      if (Number.isSafeInteger(amount)) return { ok: true, price: { amount, currency: fallbackCurrency } };
    }
  }
  let text = (/^[\x20-\x7e]*$/.test(value) ? value : value.normalize('NFKC')).trim();
  // In Shift_JIS the byte of `\` is the yen sign: `\580` is ¥580.
  if (/^\\\s*\d/.test(text)) text = `¥${text.slice(1)}`;
  if (text === '') return fail('is empty');
  if (!/\d/.test(text)) return fail(`is not a price: ${JSON.stringify(text.slice(0, 50))}`);
  // `12€50`: French for 12.50 €; `12,50 e`: a € the menu's font lost.
  text = text.replace(/^(\d{1,6})\s?€\s?(\d{2})$/, '$1.$2 €').replace(/^([\d.,'\s]*\d)\s?[eE]$/, '$1 €');
  // `75¢`: cents of a dollar.
  text = text.replace(/^(\d{1,2})\s?¢$/, (_, cents: string) => `$0.${cents.padStart(2, '0')}`);
  const marked = takeMark(text, fallbackCurrency);
  let currency = marked.currency;
  text = marked.rest;
  for (const match of text.matchAll(/(?:^|[^A-Za-z])([A-Za-z]{3})(?![A-Za-z])/g)) {
    const word = match[1] as string;
    const upper = word.toUpperCase();
    // A code beside a mark must be one of the mark's currencies (`$12 CAD`), and says which.
    if (isCurrencyCode(upper) && (currency === null || marked.family.includes(upper))) {
      currency = upper;
      text = text.replace(word, '');
    } else if (word === upper) {
      return fail(`has an unknown currency code ${word}`);
    } else {
      return fail(`is not a price: ${JSON.stringify(String(value).slice(0, 50))}`);
    }
  }
  currency ??= fallbackCurrency;
  // `3,-` and `19.–` are whole amounts (the dash stands for no cents).
  text = text.replace(/[\s\u00a0\u202f']/g, '').replace(/(\d)[.,][-–—]+$/, '$1');
  if (text.startsWith('-') || text.endsWith('-') || text.startsWith('(')) return fail('must not be negative');
  if (text.startsWith('+')) text = text.slice(1);
  if (!/^[\d.,]+$/.test(text)) return fail(`is not a price: ${JSON.stringify(String(value).slice(0, 50))}`);

  const decimals = currencyDecimals(currency);
  const parts = splitDecimal(text, decimals);
  if (parts === undefined) return fail(`is not a price: ${JSON.stringify(String(value).slice(0, 50))}`);
  const extra = parts.fraction.slice(decimals);
  if (/[^0]/.test(extra)) return fail(`has more than ${decimals} decimal places for ${currency}`);
  const minor = `${parts.whole}${parts.fraction.slice(0, decimals).padEnd(decimals, '0')}`.replace(
    /^0+(?=\d)/,
    '',
  );
  const amount = Number(minor);
  if (!Number.isSafeInteger(amount)) return fail('is too large');
  return { ok: true, price: { amount, currency } };
};

// ---------------------------------------------------------------------------------------------------------
// Market prices, and text that is not a price

/**
 * Market-price words of every job language (SPEC 5.2: the item is kept with no price and `pricing:
 * variable`), kept by language in core/locale.ts; all of them are understood in any job.
 */
const MARKET_PRICE_WORDS: readonly string[] = Object.values(MARKET_PRICE_WORDS_BY_LANGUAGE).flat();

const MARKET_PRICE = new RegExp(`^(?:${MARKET_PRICE_WORDS.join('|')})$`, 'iu');

/** True when the whole text is a market-price word (`MP`, `Market Price`, `Tagespreis`, `時価`). */
export const isMarketPrice = (text: string): boolean =>
  MARKET_PRICE.test(text.normalize('NFKC').trim().replace(/\s+/g, ' '));

/** A regex source that matches ASCII letters in either case, for patterns that cannot take the `i` flag. */
const caseless = (source: string): string => {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === '\\') {
      out += c + (source[i + 1] ?? '');
      i++;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else if (c === ']') {
      inClass = false;
      out += c;
    } else if (/[a-z]/i.test(c)) {
      const both = `${c.toLowerCase()}${c.toUpperCase()}`;
      out += inClass ? both : `[${both}]`;
    } else out += c;
  }
  return out;
};

/**
 * Regex source of the market-price words that may end a menu line, in either case (no capture groups).
 * Words that are also ordinary words or times at a line's end (`call`, `ask`, `varies`, `sp`, `sq`, `aq`,
 * `variable`, `seasonal`, `p.m.`) are left to whole cells.
 */
export const MARKET_PRICE_AT_END = `(?:${MARKET_PRICE_WORDS.filter(
  (w) => !/^(?:call|ask|varies|variable|sp|sq|aq|seasonal|p\\.m\\.)$/.test(w),
)
  .map(caseless)
  .join('|')})`;

/** `per lb`, `/kg`, `each`: a price per unit of weight or volume is not the price of an item. */
export const PER_UNIT =
  /(?:\/|\bper\b|\bpr\b|\ble\b|\bla\b)\s*(?:\d+\s*)?(lb|lbs|pound|kg|kilo|g|gr|100\s*g|oz|ounce|l|litre|liter|ml|cl|dozen|doz|piece|pièce|pc|pcs|slice|person|pp|hour|hr|each|ea|unit)\b\.?/i;

/** `2 for $5`, `3 x 10`, `buy 2`: several for one price. */
export const DEAL = /\b\d+\s*(?:for|pour|x|\/)\s*[$€£¥]?\s*\d/i;

/** The words that make an amount after them a deal (`2 for 5`, `buy 2 … 5`). */
export const DEAL_BEFORE = /\b(?:\d+\s+(?:for|pour)|buy\s+\d+|\d+\s*x)\s*$/i;

/**
 * Allergen and additive markers after a dish's name or price (EU menus): `(2)`, `(1,3,7)`, `A,C,G`,
 * `(A, C, G)`, `N. 5,7`. Not prices: a reader removes them from the end of a line before reading prices.
 */
const ALLERGENS_AT_END =
  /\s+(?:\(\s*(?:\d{1,2}|[A-Z])(?:\s*[,.;/]\s*(?:\d{1,2}|[A-Z]))*\s*\)|[A-Z](?:\s*,\s*[A-Z])+|N(?:r)?\.\s*\d{1,2}(?:\s*,\s*\d{1,2})*)\s*$/u;

/** The text without allergen markers at its end (`Schnitzel 14,50 (A,C,G)` → `Schnitzel 14,50`). */
export const withoutAllergens = (text: string): string => {
  let rest = text;
  for (let guard = 0; guard < 3; guard++) {
    const stripped = rest.replace(ALLERGENS_AT_END, '');
    if (stripped === rest) break;
    rest = stripped;
  }
  return rest;
};
