import { currencyDecimals } from '../../../lambdas/core/catalog/money';
import { parsePrice } from '../../../lambdas/core/catalog/prices';
import type { Price } from './model';

/**
 * Prices as a person types them, to and from the catalog's integer minor units (SPEC 5.5: `amount` in
 * cents, yen for JPY), read by the very grammar the service reads spreadsheets with
 * (lambdas/core/catalog/prices.ts, bundled): `12.50`, `12,50 €`, `7,00 €`, `$12`, `1.234,56`, `¥1,200`,
 * `3,-` are accepted here because they are accepted there. The decimals are the currency's own.
 */

export const minorDigits = (currency: string): number => currencyDecimals(currency);

/** `1250, USD` → `12.50`; `1200, JPY` → `1200`. */
export const formatAmount = (amount: number, currency: string): string => {
  const digits = minorDigits(currency);
  if (digits === 0) return String(amount);
  const text = String(amount).padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
};

export const formatPrice = (price: Price | null): string =>
  price === null ? '' : formatAmount(price.amount, price.currency);

export type ParsedAmount = { ok: true; amount: number | null } | { ok: false; message: string };

/**
 * A typed price → minor units of the catalog's `currency`; empty → null (no price). What the service's
 * grammar refuses is refused with its reason and an example; a price in another currency (`€7` in a USD
 * catalog) is refused too: the catalog has one currency.
 */
export const parseAmount = (text: string, currency: string): ParsedAmount => {
  if (text.trim() === '') return { ok: true, amount: null };
  const parsed = parsePrice(text, currency);
  const example = minorDigits(currency) === 0 ? '1200' : `12.${'5'.padEnd(minorDigits(currency), '0')}`;
  if (!parsed.ok) {
    const reason = parsed.message.startsWith('is not a price') ? 'not a price' : parsed.message;
    return { ok: false, message: `${reason}: enter a price such as ${example}` };
  }
  if (parsed.price.currency !== currency) {
    return {
      ok: false,
      message: `this catalog is in ${currency}, that price in ${parsed.price.currency}: enter it in ${currency}`,
    };
  }
  return { ok: true, amount: parsed.price.amount };
};
