import type { Price } from './model';

/**
 * Prices as a person types them, to and from the catalog's integer minor units (SPEC 5.5: `amount` in
 * cents, yen for JPY). The number of decimals is the currency's own (Intl knows ISO 4217's minor units).
 */

export const minorDigits = (currency: string): number => {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2;
  }
};

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
 * `12.50`, `12,5`, `12`, ` 1 234.50 ` → minor units; empty → null (no price). Anything else, or more
 * decimals than the currency has, is refused with a message meant for the person typing.
 */
export const parseAmount = (text: string, currency: string): ParsedAmount => {
  const trimmed = text.replace(/[\s\u00a0]/g, '');
  if (trimmed === '') return { ok: true, amount: null };
  const digits = minorDigits(currency);
  const match = /^(\d+)(?:[.,](\d*))?$/.exec(trimmed);
  const example = digits === 0 ? '1200' : `12.${'5'.padEnd(digits, '0')}`;
  if (!match) return { ok: false, message: `enter a price such as ${example}` };
  const fraction = match[2] ?? '';
  if (fraction.length > digits) {
    return {
      ok: false,
      message: digits === 0 ? `${currency} has no decimals` : `${currency} has ${digits} decimals at most`,
    };
  }
  const amount = Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  if (!Number.isSafeInteger(amount)) return { ok: false, message: 'this price is too large' };
  return { ok: true, amount };
};
