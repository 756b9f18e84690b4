import { toGtin14 } from '../gtin';

/**
 * When two drafts are the same item, and two variants the same variant: the one rule per job type
 * (SPEC 5.5: ids are UUIDv5 of the job id and these natural keys, so the same input always yields the
 * same ids, whatever the order of its rows).
 */

/** A variant as identity sees it (already normalised by assembly). */
export interface VariantFacts {
  readonly name: string | null;
  readonly options: Readonly<Record<string, string>>;
  readonly sku: string | null;
  readonly gtin: string | null;
  readonly size: string | null;
  readonly unit: string | null;
}

export interface ItemFacts {
  readonly categoryPath: readonly string[];
  readonly name: string;
  readonly brand: string | null;
  readonly optionNames: readonly string[];
  readonly variants: readonly VariantFacts[];
}

export interface IdentityRule {
  /** The natural key of the item a draft describes. */
  itemKey(item: ItemFacts): string;
  /** The natural key of a variant within its item. */
  variantKey(variant: VariantFacts): string;
  /** Keys that must be unique across the catalog (GTIN, SKU): a second variant with one is a duplicate. */
  uniqueKeys(variant: VariantFacts): readonly { readonly key: string; readonly what: 'GTIN' | 'SKU' }[];
}

const NON_ASCII = /[\u0080-\uffff]/;

/** Case-insensitive form of a name: NFC (ASCII text is its own NFC), lower case. */
export const fold = (text: string): string =>
  (NON_ASCII.test(text) ? text.normalize('NFC') : text).toLowerCase();

/** `grocery>dairy`: the key of a category path (case-insensitive). */
export const pathKey = (path: readonly string[]): string =>
  path.length === 1 ? fold(path[0] as string) : path.map(fold).join('>');

const sizeLabel = (v: VariantFacts): string | null =>
  v.size === null ? null : v.unit === null ? v.size : `${v.size} ${v.unit}`;

/** What tells a variant apart from its siblings: its name, else its option values, else its size. */
export const variantLabel = (v: VariantFacts): string | null => {
  if (v.name !== null) return v.name;
  const values = Object.values(v.options);
  if (values.length > 0) return values.join(' / ');
  return sizeLabel(v);
};

/**
 * A SKU that can identify a product: not one a spreadsheet damaged (`'1`, Excel's text mark left in the
 * cell) nor one that is only punctuation or zeros (`-`, `0`, `n/a`). Such a value stays on the variant but
 * never makes two rows one product.
 */
export const identifyingSku = (sku: string | null): string | null =>
  sku === null || /^'|^[\p{P}\p{S}0\s]*$|^(?:n\/?a|none|null|tbd)$/iu.test(sku) ? null : sku;

/** True for an item key made of a barcode or SKU (a retail product sold in one form). */
export const isIdentifierKey = (key: string): boolean => key.startsWith('gtin:') || key.startsWith('sku:');

const NO_KEYS: readonly { readonly key: string; readonly what: 'GTIN' | 'SKU' }[] = Object.freeze([]);

/** Menus: an item is its category path and name; a variant is its name (or options, or size). */
export const menuIdentity: IdentityRule = {
  itemKey: (item) => `${pathKey(item.categoryPath)}/${fold(item.name)}`,
  variantKey: (variant) => fold(variantLabel(variant) ?? ''),
  uniqueKeys: () => NO_KEYS,
};

/** A retail variant that is one of several forms (a named variant, options, a size such as `M`), not a plain product. */
const isVariantOfMany = (v: VariantFacts): boolean =>
  v.name !== null || Object.keys(v.options).length > 0 || (v.size !== null && !/^\d/.test(v.size));

/**
 * Retail: a product sold in one form is its GTIN (compared as GTIN-14, so UPC-12 and GTIN-13/14 of one
 * product are equal), else its SKU, else its category, brand and name; a product with variants is its
 * category, brand and name, and each variant its GTIN, else SKU, else name. GTINs and SKUs are unique
 * across the catalog.
 */
export const retailIdentity: IdentityRule = {
  itemKey: (item) => {
    const byName = `name:${pathKey(item.categoryPath)}/${fold(item.brand ?? '')}/${fold(item.name)}`;
    const [only, ...others] = item.variants;
    if (only === undefined || others.length > 0 || item.optionNames.length > 0 || isVariantOfMany(only))
      return byName;
    if (only.gtin !== null) return `gtin:${toGtin14(only.gtin)}`;
    const sku = identifyingSku(only.sku);
    if (sku !== null) return `sku:${fold(sku)}`;
    return byName;
  },
  variantKey: (variant) => {
    if (variant.gtin !== null) return `gtin:${toGtin14(variant.gtin)}`;
    const sku = identifyingSku(variant.sku);
    if (sku !== null) return `sku:${fold(sku)}`;
    return `name:${fold(variantLabel(variant) ?? '')}`;
  },
  uniqueKeys: (variant) => {
    const sku = identifyingSku(variant.sku);
    return [
      ...(variant.gtin === null ? [] : [{ key: `gtin:${toGtin14(variant.gtin)}`, what: 'GTIN' as const }]),
      ...(sku === null ? [] : [{ key: `sku:${fold(sku)}`, what: 'SKU' as const }]),
    ];
  },
};
