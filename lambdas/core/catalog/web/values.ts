import type { WarningCode } from '../../schemas/warning-codes';
import type { Price } from '../document';
import type { DraftImage } from '../draft';
import { isCurrencyCode } from '../money';
import { parseBarcode } from '../rows/barcodes';
import { parsePriceCell } from '../rows/prices';

/** Field values as pages and storefronts write them → catalog values, or a reason they could not be read. */

export type Read<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly code: WarningCode; readonly message: string };

/** An ISO 4217 code named by a source, upper-cased, or null when it names none or an unknown one. */
export const currencyCode = (value: string | null | undefined): string | null => {
  const code = value?.trim().toUpperCase();
  return code && /^[A-Z]{3}$/.test(code) && isCurrencyCode(code) ? code : null;
};

export type PriceReading =
  | { readonly ok: true; readonly price: Price | null; readonly pricing: 'fixed' | 'variable' }
  | { readonly ok: false; readonly code: WarningCode; readonly message: string };

/**
 * A price from structured data or a storefront, by the same rules as a spreadsheet's price cell
 * (rows/prices.ts): a number or a decimal string in major units, with or without a currency symbol
 * (`12.5`, `"12.50"`, `"$12.50"`, `"12,50 €"`), in `currency` unless the text names another; market-price
 * words give `pricing: variable`; a deal or a price per pound is not a price.
 */
export const readPrice = (value: string | number, currency: string): PriceReading => {
  const cell = parsePriceCell(typeof value === 'string' ? value.trim() : value, currency);
  switch (cell.kind) {
    case 'price':
      return { ok: true, price: cell.price, pricing: 'fixed' };
    case 'variable':
      return { ok: true, price: null, pricing: 'variable' };
    case 'empty':
      return { ok: true, price: null, pricing: 'fixed' };
    case 'invalid':
      return { ok: false, code: cell.code, message: cell.message };
    default:
      return {
        ok: false,
        code: 'invalid_price',
        message: `${JSON.stringify(String(value))} is not one price`,
      };
  }
};

/**
 * A GTIN from `gtin`, `gtin8/12/13/14` or a barcode field, by the rules of a spreadsheet's barcode column
 * (rows/barcodes.ts), and also as a GS1 Digital Link URL (`https://id.gs1.org/01/00012345678905`).
 */
export const readGtin = (value: string | number): Read<string> => {
  const link = typeof value === 'string' ? /\/01\/(\d{8,14})(?:[/?#]|$)/.exec(value.trim())?.[1] : undefined;
  const parsed = parseBarcode(link ?? value);
  return parsed.ok
    ? { ok: true, value: parsed.gtin }
    : { ok: false, code: parsed.code, message: parsed.message };
};

/**
 * Calories from `nutrition.calories` and the like: `250`, `"250 calories"`, `"1,200 Cal"`, `"250 kcal"`;
 * kilojoules are converted. A range (`"250-400 Cal"`) is not one number.
 */
export const readCalories = (value: string | number): Read<number> => {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0
      ? { ok: true, value: Math.round(value) }
      : { ok: false, code: 'invalid_calories', message: 'calories must be a positive number' };
  }
  const text = value.trim().toLowerCase();
  if (/\d\s*(?:-|–|—|to)\s*\d/.test(text))
    return { ok: false, code: 'invalid_calories', message: `calories "${value.slice(0, 40)}" is a range` };
  const match = /(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(kcal|cal(?:ories)?|kj|kilojoules?)?\b/.exec(text);
  if (!match)
    return {
      ok: false,
      code: 'invalid_calories',
      message: `calories "${value.slice(0, 40)}" is not a number`,
    };
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
export const uniqueImages = (images: readonly DraftImage[]): DraftImage[] => {
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
