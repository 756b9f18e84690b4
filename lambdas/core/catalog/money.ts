import type { Language } from '../schemas/job';
import type { Price } from './document-fields';

/** SPEC 5.2: the default currency of each documented language (its country's currency). */
export const CURRENCY_BY_LANGUAGE: Readonly<Record<Language, string>> = {
  en_us: 'USD',
  en_gb: 'GBP',
  en_ca: 'CAD',
  en_au: 'AUD',
  fr_ca: 'CAD',
  fr_fr: 'EUR',
  es_us: 'USD',
  es_mx: 'MXN',
  es_es: 'EUR',
  de_de: 'EUR',
  it_it: 'EUR',
  pt_br: 'BRL',
  nl_nl: 'EUR',
  ja_jp: 'JPY',
  ko_kr: 'KRW',
  zh_cn: 'CNY',
  zh_tw: 'TWD',
};

/** The default currency for a language. */
export const defaultCurrency = (language: Language): string => CURRENCY_BY_LANGUAGE[language];

const KNOWN_CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** True for an ISO 4217 code the runtime knows (upper case). */
export const isCurrencyCode = (code: string): boolean => KNOWN_CURRENCIES.has(code);

const decimalsCache = new Map<string, number>();

/** Number of minor-unit digits of a currency (2 for USD, 0 for JPY and KRW, 3 for BHD). */
export const currencyDecimals = (currency: string): number => {
  let decimals = decimalsCache.get(currency);
  if (decimals === undefined) {
    decimals = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits as number;
    decimalsCache.set(currency, decimals);
  }
  return decimals;
};

/** Symbols that name one currency only (longest first, so `NT$` is not read as `$`). */
const SYMBOLS: readonly (readonly [string, string])[] = [
  ['R$', 'BRL'],
  ['NT$', 'TWD'],
  ['HK$', 'HKD'],
  ['US$', 'USD'],
  ['CA$', 'CAD'],
  ['C$', 'CAD'],
  ['AU$', 'AUD'],
  ['A$', 'AUD'],
  ['MX$', 'MXN'],
  ['€', 'EUR'],
  ['£', 'GBP'],
  ['₩', 'KRW'],
  ['원', 'KRW'],
  ['₹', 'INR'],
  ['SFr.', 'CHF'],
  ['Fr.', 'CHF'],
  ['円', 'JPY'],
  ['元', 'CNY'],
];

const DOLLARS: readonly string[] = ['USD', 'CAD', 'AUD', 'MXN', 'TWD', 'NZD', 'SGD', 'HKD'];

/** Symbols several currencies use: the job's currency when it is one of them, else the first. */
const SHARED_SYMBOLS: readonly (readonly [string, readonly string[]])[] = [
  ['$', DOLLARS],
  ['¥', ['JPY', 'CNY']],
  ['￥', ['JPY', 'CNY']],
];

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

/**
 * Parses a price into integer minor units and an ISO 4217 currency (SPEC 5.2).
 *
 * Accepts numbers and decimal strings with an optional currency symbol or code and either decimal
 * separator; an explicit code (`12.50 EUR`) or an unambiguous symbol (`€`, `£`, `R$`) wins over
 * `fallbackCurrency`. Negative amounts, more decimals than the currency has (unless zeros) and
 * unparsable text are refused with a message fit for a row warning.
 *
 * @example parsePrice('$12.50', 'USD') // { ok: true, price: { amount: 1250, currency: 'USD' } }
 * @example parsePrice('1.234,56', 'EUR') // { ok: true, price: { amount: 123456, currency: 'EUR' } }
 * @example parsePrice(1200, 'JPY') // { ok: true, price: { amount: 1200, currency: 'JPY' } }
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
  if (plain !== null && (!value.includes('$') || DOLLARS.includes(fallbackCurrency))) {
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
  let currency: string | null = null;
  for (const match of text.matchAll(/(?:^|[^A-Za-z])([A-Za-z]{3})(?![A-Za-z])/g)) {
    const word = match[1] as string;
    const upper = word.toUpperCase();
    if (isCurrencyCode(upper) && currency === null) {
      currency = upper;
      text = text.replace(word, '');
    } else if (word === upper) {
      return fail(`has an unknown currency code ${word}`);
    } else {
      return fail(`is not a price: ${JSON.stringify(String(value).slice(0, 50))}`);
    }
  }
  if (currency === null) {
    for (const [symbol, symbolCurrency] of SYMBOLS) {
      if (text.includes(symbol)) {
        currency = symbolCurrency;
        text = text.replace(symbol, '');
        break;
      }
    }
  }
  if (currency === null) {
    for (const [symbol, candidates] of SHARED_SYMBOLS) {
      if (text.includes(symbol)) {
        currency = candidates.includes(fallbackCurrency) ? fallbackCurrency : (candidates[0] as string);
        text = text.replace(symbol, '');
        break;
      }
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
