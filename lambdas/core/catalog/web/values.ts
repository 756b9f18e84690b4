import type { Price } from '../document';
import { parseGtin } from '../gtin';
import { isCurrencyCode, parsePrice } from '../money';
import type { WebImage } from './types';

/** Field values as pages and storefronts write them → catalog values, or a reason they could not be read. */

export type Read<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string };

/** Words menus use for a price that is set on the day (SPEC 5.2: the item is kept with `pricing: variable`). */
const VARIABLE_PRICE =
  /^(?:mp|m\.p\.?|market(?:\s+price)?|seasonal(?:\s+price)?|variable|price\s+varies|varies|a\.?q\.?|ask(?:\s+your\s+server)?|sp)$/i;

export const isVariablePriceText = (text: string): boolean => VARIABLE_PRICE.test(text.trim());

/** An ISO 4217 code named by a source, upper-cased, or null when it names none or an unknown one. */
export const currencyCode = (value: string | null | undefined): string | null => {
  const code = value?.trim().toUpperCase();
  return code && /^[A-Z]{3}$/.test(code) && isCurrencyCode(code) ? code : null;
};

export type PriceReading =
  | { readonly ok: true; readonly price: Price | null; readonly pricing: 'fixed' | 'variable' }
  | { readonly ok: false; readonly message: string };

/**
 * A price from structured data or a storefront: a number or a decimal string in major units, with or
 * without a currency symbol (`12.5`, `"12.50"`, `"$12.50"`, `"12,50 €"`), in `currency` unless the text
 * names another. Market-price words give `pricing: variable` and no amount.
 */
export const readPrice = (value: string | number, currency: string): PriceReading => {
  if (typeof value === 'string' && isVariablePriceText(value))
    return { ok: true, price: null, pricing: 'variable' };
  const parsed = parsePrice(typeof value === 'string' ? value.trim() : value, currency);
  if (!parsed.ok)
    return { ok: false, message: `price ${JSON.stringify(String(value).slice(0, 40))} ${parsed.message}` };
  return { ok: true, price: parsed.price, pricing: 'fixed' };
};

/**
 * A GTIN from `gtin`, `gtin8/12/13/14` or a barcode field: digits (spaces and dashes removed), or a GS1
 * Digital Link URL (`https://id.gs1.org/01/00012345678905`); the check digit is verified. An 11-digit UPC
 * whose check digit is valid once zero-padded is restored.
 */
export const readGtin = (value: string | number): Read<string> => {
  const failed = (message: string): Read<string> => ({
    ok: false,
    message: `GTIN ${JSON.stringify(String(value).slice(0, 40))} ${message}`,
  });
  if (typeof value === 'number') {
    const parsed = parseGtin(value);
    return parsed.ok ? { ok: true, value: parsed.gtin } : failed(parsed.message);
  }
  let text = value.trim();
  const digitalLink = /\/01\/(\d{8,14})(?:[/?#]|$)/.exec(text);
  if (digitalLink) text = digitalLink[1] as string;
  text = text.replace(/[\s-]/g, '');
  if (/^\d{11}$/.test(text)) {
    const padded = parseGtin(`0${text}`);
    if (padded.ok) return { ok: true, value: padded.gtin };
  }
  const parsed = parseGtin(text);
  return parsed.ok ? { ok: true, value: parsed.gtin } : failed(parsed.message);
};

/**
 * Calories from `nutrition.calories` and the like: `250`, `"250 calories"`, `"1,200 Cal"`, `"250 kcal"`;
 * kilojoules are converted. A range (`"250-400 Cal"`) is not one number.
 */
export const readCalories = (value: string | number): Read<number> => {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0
      ? { ok: true, value: Math.round(value) }
      : { ok: false, message: 'calories must be a positive number' };
  }
  const text = value.trim().toLowerCase();
  if (/\d\s*(?:-|–|—|to)\s*\d/.test(text))
    return { ok: false, message: `calories "${value.slice(0, 40)}" is a range` };
  const match = /(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(kcal|cal(?:ories)?|kj|kilojoules?)?\b/.exec(text);
  if (!match) return { ok: false, message: `calories "${value.slice(0, 40)}" is not a number` };
  const amount = Number((match[1] as string).replaceAll(',', ''));
  const kilojoules = match[2] === 'kj' || match[2]?.startsWith('kilojoule');
  return { ok: true, value: Math.round(kilojoules ? amount / 4.184 : amount) };
};

/** A pixel dimension from `"800"`, `800`, `"800px"`, or nothing usable. */
export const readDimension = (value: unknown): number | null => {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' ? Number.parseInt(value, 10) : Number.NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

/** Keeps the first image of each URL (sources list the same image at several places). */
export const uniqueImages = (images: readonly WebImage[]): WebImage[] => {
  const seen = new Set<string>();
  return images.filter((image) => {
    if (seen.has(image.url)) return false;
    seen.add(image.url);
    return true;
  });
};

/** schema.org's RestrictedDiet values (`https://schema.org/GlutenFreeDiet`) as menu tags (`gluten-free`). */
export const dietTag = (value: string): string | null => {
  const term = value
    .trim()
    .replace(/^.*[/#:]/, '')
    .replace(/Diet$/, '');
  if (term === '') return null;
  return term
    .replace(/([a-z])([A-Z])/g, '$1-$2')
    .replace(/[\s_]+/g, '-')
    .toLowerCase();
};

/** `size` → `Size`, `color` → `Color`: a schema.org property name as an option name. */
export const optionLabel = (property: string): string => {
  const name = property.replace(/^.*[/#:]/, '');
  return name.charAt(0).toUpperCase() + name.slice(1);
};
