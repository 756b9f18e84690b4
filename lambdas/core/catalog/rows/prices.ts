import type { WarningCode } from '../../schemas/warning-codes';
import type { Price } from '../document';
import { isCurrencyCode } from '../money';
import {
  AMOUNT_NUMBER,
  CURRENCY_MARK,
  DEAL,
  isMarketPrice,
  PER_UNIT,
  parsePrice,
  withoutAllergens,
} from '../prices';
import type { CellValue } from '../sources/types';

/**
 * Price cells as merchants write them (SPEC 5.2): a number or a decimal string with an optional currency
 * symbol or code; a market price (`MP`, `market price`, `variable`, …) that keeps the item with no price
 * and `pricing: variable`; several prices in one cell (`11 / 42`, `Glass 11 / Bottle 42`), one per form;
 * a JSON price object `{ amount, currency }`. Text that is not a price (`2 for $5`, `$0.69/lb`) is
 * refused with a message that says what it is.
 */

export interface LabelledPrice {
  readonly label: string | null;
  /** Null for a part that is a dash (`— / 120`: not sold in that form). */
  readonly price: Price | null;
}

export type PriceCell =
  | { readonly kind: 'empty' }
  | { readonly kind: 'price'; readonly price: Price }
  | { readonly kind: 'variable' }
  | { readonly kind: 'prices'; readonly prices: readonly LabelledPrice[] }
  | { readonly kind: 'invalid'; readonly code: WarningCode; readonly message: string };

const FREE =
  /^(?:free|gratis|no charge|n\/c|complimentary|included|incl\.?|gratuit|kostenlos|gratuito|無料|무료|免费)$/iu;

const fail = (code: WarningCode, message: string): PriceCell => ({ kind: 'invalid', code, message });

const describeNonPrice = (text: string): PriceCell => {
  const shown = JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
  const unit = PER_UNIT.exec(text);
  if (unit !== null)
    return fail('not_a_price', `${shown} is a price per ${unit[1]}, not the price of the item`);
  if (DEAL.test(text)) return fail('not_a_price', `${shown} is a deal (several for one price), not a price`);
  if (/\d\s*[-–]\s*[$€£¥]?\s*\d/.test(text))
    return fail('not_a_price', `${shown} is a range of prices, not a price`);
  return fail('not_a_price', `${shown} is not a price`);
};

/** A JSON `{ amount, currency }`: an integer amount is in minor units (as in the catalog document), a decimal one in major units. */
const priceObject = (value: { readonly [key: string]: unknown }, fallback: string): PriceCell => {
  const { amount } = value;
  const code = typeof value.currency === 'string' ? value.currency.trim().toUpperCase() : null;
  if (code !== null && !isCurrencyCode(code)) {
    return fail('unknown_currency', `currency ${JSON.stringify(value.currency)} is not an ISO 4217 code`);
  }
  const currency = code ?? fallback;
  if (typeof amount === 'number' && Number.isSafeInteger(amount) && amount >= 0) {
    return { kind: 'price', price: { amount, currency } };
  }
  if (typeof amount === 'number' || typeof amount === 'string') {
    const parsed = parsePrice(typeof amount === 'string' ? amount : amount, currency);
    if (parsed.ok) return { kind: 'price', price: { amount: parsed.price.amount, currency } };
    return fail('invalid_price', `amount ${JSON.stringify(amount)} ${parsed.message}`);
  }
  if (amount === null || amount === undefined) return { kind: 'empty' };
  return fail('invalid_price', 'a price object needs a numeric amount');
};

/** `Glass 11`, `11 glass`, `11 (glass)`, `$11`: a price with an optional label before or after it. */
const LABELLED = new RegExp(
  `^(?:([^\\d$€£¥₩(]+?)\\s*[:=]?\\s*)?(${CURRENCY_MARK}?\\s*${AMOUNT_NUMBER}\\s*${CURRENCY_MARK}?)\\s*(?:\\(?([^\\d()]+?)\\)?)?$`,
  'u',
);

const labelled = (part: string, fallback: string): LabelledPrice | null => {
  const match = LABELLED.exec(part.trim());
  if (match === null) return null;
  const [, before, amount, after] = match;
  if (before !== undefined && after !== undefined) return null;
  const parsed = parsePrice(amount as string, fallback);
  if (!parsed.ok) return null;
  const label = (before ?? after)?.trim() || null;
  return { label, price: parsed.price };
};

const DASH = /^[-–—]*$/;

/**
 * Several prices in one cell, separated by `/` or `|`: every part must be a price or a dash (`— / 120`:
 * not sold in the first form), and one at least a price.
 */
const severalPrices = (text: string, fallback: string): LabelledPrice[] | null => {
  if (!/[/|]/.test(text)) return null;
  const parts = text.split(/\s*[/|]\s*/);
  if (parts.length < 2 || parts.length > 10) return null;
  const prices: LabelledPrice[] = [];
  for (const part of parts) {
    if (DASH.test(part.trim())) {
      prices.push({ label: null, price: null });
      continue;
    }
    const price = labelled(part, fallback);
    if (price === null) return null;
    prices.push(price);
  }
  return prices.some((p) => p.price !== null) ? prices : null;
};

export interface PriceCellOptions {
  /** Accept several prices in one cell (menus). */
  readonly several?: boolean;
}

/**
 * Reads a price cell. `currency` is the default (the job's, or the row's currency column).
 *
 * @example parsePriceCell('$12.50', 'USD') // { kind: 'price', price: { amount: 1250, currency: 'USD' } }
 * @example parsePriceCell('MP', 'USD') // { kind: 'variable' }
 * @example parsePriceCell('Glass 11 / Bottle 42', 'USD', { several: true }) // { kind: 'prices', prices: [...] }
 * @example parsePriceCell('2 for $5', 'USD') // { kind: 'invalid', code: 'not_a_price', message: '"2 for $5" is a deal ...' }
 */
export const parsePriceCell = (
  value: CellValue,
  currency: string,
  options: PriceCellOptions = {},
): PriceCell => {
  if (value === null) return { kind: 'empty' };
  if (typeof value === 'number') {
    const parsed = parsePrice(value, currency);
    return parsed.ok
      ? { kind: 'price', price: parsed.price }
      : fail('invalid_price', `${value} ${parsed.message}`);
  }
  if (typeof value === 'boolean') return fail('invalid_price', `${value} is not a price`);
  if (typeof value === 'object') {
    return Array.isArray(value)
      ? fail('invalid_price', 'a list is not a price')
      : priceObject(value as { readonly [key: string]: unknown }, currency);
  }
  // Allergen markers after the price (`12,50 (A,C,G)`) are not part of it.
  const text = withoutAllergens(value.trim());
  if (text === '' || text === '-' || text === '—' || text === '–') return { kind: 'empty' };
  const parsed = parsePrice(text, currency);
  if (parsed.ok) return { kind: 'price', price: parsed.price };
  const folded = text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ');
  if (isMarketPrice(folded)) return { kind: 'variable' };
  if (FREE.test(folded)) return { kind: 'price', price: { amount: 0, currency } };
  if (options.several) {
    const prices = severalPrices(text, currency);
    if (prices !== null) return { kind: 'prices', prices };
  }
  if (
    /\d/.test(text) &&
    (parsed.message.includes('decimal places') ||
      parsed.message.includes('negative') ||
      parsed.message.includes('too large') ||
      parsed.message.includes('currency code'))
  ) {
    return fail(
      parsed.message.includes('currency code') ? 'unknown_currency' : 'invalid_price',
      `${JSON.stringify(text)} ${parsed.message}`,
    );
  }
  return describeNonPrice(text);
};
