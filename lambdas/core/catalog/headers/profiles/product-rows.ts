import { FIELD_LIMITS, type Price } from '../../document';
import type { DraftImage, DraftItem, DraftVariant } from '../../draft';
import { categoryPath } from '../../rows/cells';
import { parsePriceCell } from '../../rows/prices';
import type { TableContext } from '../../rows/types';
import type { CellValue } from '../../sources/types';
import { normaliseHeader } from '../normalise';
import { optionNamesOf } from './profile';

/**
 * What the storefront exports (BigCommerce, Wix, Squarespace, Etsy, Lightspeed, product feeds) share: a
 * product built from several rows (its own row, its variant rows, image rows), a few ways of writing
 * lists, categories and price adjustments. Each profile keeps its own grouping rules; these are the parts
 * that are the same.
 */

/** A product whose rows are being read. */
export interface ProductRows {
  /** What groups its rows (handle, product id, item group id). */
  readonly key: string;
  readonly firstRow: number;
  name: string | null;
  description: string | null;
  brand: string | null;
  categoryPath: readonly string[] | null;
  tags: readonly string[];
  readonly images: DraftImage[];
  readonly variants: DraftVariant[];
}

export const startProduct = (key: string, firstRow: number): ProductRows => ({
  key,
  firstRow,
  name: null,
  description: null,
  brand: null,
  categoryPath: null,
  tags: [],
  images: [],
  variants: [],
});

/** Adds images the product does not have yet (by URL), in order. */
export const addImages = (product: { readonly images: DraftImage[] }, images: readonly DraftImage[]) => {
  for (const image of images) {
    if (!product.images.some((i) => i.url === image.url)) product.images.push(image);
  }
};

/** The draft of a product read from its rows; null when it has no name (the caller says why). */
export const productDraft = (product: ProductRows, ctx: TableContext): DraftItem | null =>
  product.name === null
    ? null
    : {
        kind: 'item',
        categoryPath: product.categoryPath ?? ctx.defaultCategory,
        name: product.name,
        description: product.description,
        brand: product.brand,
        tags: product.tags,
        images: product.images,
        optionNames: optionNamesOf(product.variants),
        variants: product.variants,
        provenance: { source: ctx.source, row: product.firstRow, sheet: ctx.sheet },
      };

/**
 * Splits on a separator not escaped with a backslash (`Tools\/Hardware/Saws`), unescaping it in the
 * parts; empty parts are dropped.
 *
 * @example splitEscaped('Shop All/Kitchen;Sale', ';') // ['Shop All/Kitchen', 'Sale']
 */
export const splitEscaped = (text: string, separator: string): string[] => {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (c === '\\' && text[i + 1] === separator) {
      current += separator;
      i += 1;
    } else if (c === separator) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter(Boolean);
};

/**
 * The one category of a product a storefront lists in several (its navigation: `Shop All/Kitchen`,
 * `Sale`): a path that is only the ancestor of another is that one; of the rest the most specific (the
 * deepest), the first listed among equals. Storefronts place products in several categories as a matter
 * of course, so this is not reported.
 */
export const primaryCategory = (paths: readonly (readonly string[])[]): string[] | null => {
  const fold = (p: readonly string[]) => p.map((s) => s.toLowerCase());
  const candidates = paths.filter(
    (p) =>
      p.length > 0 &&
      !paths.some((q) => q.length > p.length && fold(p).every((name, i) => fold(q)[i] === name)),
  );
  let best: readonly string[] | null = null;
  for (const path of candidates) if (best === null || path.length > best.length) best = path;
  return best === null ? null : [...best];
};

/** Category paths written as a list: `A > B, C` (`>` paths) or `A/B;C` (BigCommerce's `/` paths). */
export const categoryList = (
  text: string,
  options: { readonly list: string; readonly path?: string },
): string[][] =>
  splitEscaped(text, options.list).map((entry) =>
    options.path === undefined ? categoryPath(entry) : splitEscaped(entry, options.path),
  );

/**
 * Every combination of option values, first option outermost (the order platforms list variants in),
 * at most `FIELD_LIMITS.variants` of them.
 *
 * @example optionCombinations([{ name: 'Size', values: ['S', 'M'] }]) // [{ Size: 'S' }, { Size: 'M' }]
 */
export const optionCombinations = (
  options: readonly { readonly name: string; readonly values: readonly string[] }[],
): Record<string, string>[] => {
  let combinations: Record<string, string>[] = [{}];
  for (const { name, values } of options) {
    if (values.length === 0) continue;
    const next: Record<string, string>[] = [];
    for (const combination of combinations) {
      for (const value of values) {
        if (next.length > FIELD_LIMITS.variants) break;
        next.push({ ...combination, [name]: value });
      }
    }
    combinations = next;
  }
  return combinations.length === 1 && Object.keys(combinations[0] ?? {}).length === 0 ? [] : combinations;
};

export type SignedAmount =
  | { readonly kind: 'empty' }
  | { readonly kind: 'amount'; readonly amount: number }
  | { readonly kind: 'invalid'; readonly message: string };

/**
 * A price difference as platforms write it (`4`, `-8.5`, `+2.00`), in minor units of `currency`: a
 * variant's surcharge over its product's price.
 */
export const signedAmount = (value: CellValue | undefined, currency: string): SignedAmount => {
  if (value === undefined || value === null) return { kind: 'empty' };
  if (typeof value === 'number') {
    const cell = parsePriceCell(Math.abs(value), currency);
    return cell.kind === 'price'
      ? { kind: 'amount', amount: Math.sign(value) * cell.price.amount }
      : { kind: 'invalid', message: `${value} is not an amount` };
  }
  if (typeof value !== 'string') return { kind: 'invalid', message: 'is not an amount' };
  const text = value.trim();
  if (text === '') return { kind: 'empty' };
  const negative = /^[-−–]/.test(text);
  const cell = parsePriceCell(text.replace(/^[-−–+]\s*/, ''), currency);
  if (cell.kind === 'empty') return { kind: 'empty' };
  if (cell.kind !== 'price') return { kind: 'invalid', message: `${JSON.stringify(text)} is not an amount` };
  return { kind: 'amount', amount: negative ? -cell.price.amount : cell.price.amount };
};

/** A price changed by an amount in minor units; null when it would be negative. */
export const adjustedPrice = (base: Price, delta: number): Price | null =>
  base.amount + delta < 0 ? null : { amount: base.amount + delta, currency: base.currency };

/**
 * The `skip` of `profileColumns` for an export whose columns are known: only the platform's own columns
 * are read, so that `results.sources[].columns` lists exactly what the profile reads. A column the
 * platform does not write (a merchant's own) is listed as ignored rather than read by the generic aliases
 * as a second source of a field (BigCommerce's `Retail Price` is no price, its `Product Type` no
 * category) or as a field the profile does not read.
 */
export const ownColumnsOnly = (
  table: Readonly<Record<string, readonly string[]>>,
): ((normalised: string) => boolean) => {
  const own = new Set(Object.values(table).flat().map(normaliseHeader));
  return (normalised) => !own.has(normalised);
};
