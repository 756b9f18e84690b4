import type { Price } from '../document';
import type { DraftImage, DraftItem, DraftVariant } from '../draft';
import { currencyDecimals } from '../money';
import { absoluteUrl } from './html';
import { asArray, asId, asInteger, asObject, asObjects, asText, type JsonObject } from './json-fields';
import { cleanDescription, cleanText } from './text';
import type { WebExtraction, WebWarning } from './types';
import { currencyCode, uniqueImages } from './values';

/**
 * A WooCommerce store's public Store API (`/wp-json/wc/store/v1/products`), page by page: an array of
 * products `{ id, name, type, sku, short_description, description, prices: { price, regular_price,
 * sale_price, currency_code, currency_minor_unit }, images: [{ src }], categories: [{ id, name }],
 * tags: [{ name }], brands, attributes: [{ name, has_variations, terms: [{ name, slug }] }], variations:
 * [{ id, attributes: [{ name, value }] }] }`. Prices are strings in the store's minor units. A variable
 * product's variations carry their prices in their own entries (`?type=variation`), read separately.
 */

/** Products per page: the Store API's maximum. */
export const WOO_PAGE_SIZE = 100;

/** The products of one Store API page, or undefined when the body is not that endpoint's answer. */
export const wooProductsOf = (body: unknown): JsonObject[] | undefined => {
  if (!Array.isArray(body)) return undefined;
  const products = asObjects(body);
  return products.every((p) => 'prices' in p || 'type' in p) ? products : undefined;
};

/** A category of `/products/categories`: id → name and parent id (0 for none). */
export interface WooCategory {
  readonly name: string;
  readonly parent: string | null;
}

export const wooCategoriesOf = (body: unknown): Map<string, WooCategory> => {
  const categories = new Map<string, WooCategory>();
  for (const category of asObjects(body)) {
    const id = asId(category.id);
    const name = asText(category.name);
    if (id === null || name === null) continue;
    const parent = asId(category.parent);
    categories.set(id, { name: cleanText(name), parent: parent === '0' ? null : parent });
  }
  return categories;
};

/**
 * A Store API price (a string of minor units in the store's own number of decimals, `currency_minor_unit`)
 * in the currency's ISO minor units: a store showing 3 decimals for USD writes `"18000"` for 18.000 USD,
 * which is 1800 cents. Undefined when the product has no price.
 */
export const wooPrice = (
  prices: JsonObject | undefined,
  fallbackCurrency: string,
): Price | null | { error: string } => {
  const raw = asText(prices?.price);
  if (raw === null) return null;
  if (!/^\d+$/.test(raw))
    return { error: `price "${raw.slice(0, 40)}" is not a whole number of minor units` };
  const currency = currencyCode(asText(prices?.currency_code)) ?? fallbackCurrency;
  const storeDecimals = asInteger(prices?.currency_minor_unit) ?? currencyDecimals(currency);
  const shift = currencyDecimals(currency) - storeDecimals;
  const amount = shift >= 0 ? Number(raw) * 10 ** shift : Number(raw) / 10 ** -shift;
  if (!Number.isSafeInteger(amount)) {
    return { error: `price ${raw} (${storeDecimals} decimals) is not a whole amount of ${currency}` };
  }
  return { amount, currency };
};

const namesOf = (value: unknown): string[] =>
  asObjects(value)
    .map((t) => asText(t.name))
    .filter((n): n is string => n !== null)
    .map((n) => cleanText(n));

const imagesOf = (value: unknown, storeUrl: string): DraftImage[] =>
  uniqueImages(
    asObjects(value)
      .map((i) => absoluteUrl(asText(i.src), storeUrl))
      .filter((u): u is string => u !== null)
      .map((url) => ({ url, width: null, height: null })),
  );

/** The deepest of a product's categories, as a path from the root of the store's category tree. */
const categoryPathOf = (product: JsonObject, tree: ReadonlyMap<string, WooCategory>): string[] => {
  const own = asObjects(product.categories);
  const ids = own.map((c) => asId(c.id)).filter((id): id is string => id !== null && tree.has(id));
  const pathOf = (id: string): string[] => {
    const path: string[] = [];
    for (let at: string | null = id; at !== null && path.length < 10; at = tree.get(at)?.parent ?? null) {
      const category = tree.get(at);
      if (!category) break;
      path.unshift(category.name);
    }
    return path;
  };
  const paths = ids.map(pathOf).sort((a, b) => b.length - a.length);
  if (paths[0]) return paths[0];
  const first = own.map((c) => asText(c.name)).find((n) => n !== null);
  return first ? [cleanText(first)] : [];
};

interface Scope {
  readonly currency: string;
  readonly storeUrl: string;
  readonly categories: ReadonlyMap<string, WooCategory>;
  /** Variation entries (`?type=variation`) by id. */
  readonly variations: ReadonlyMap<string, JsonObject>;
  readonly warnings: WebWarning[];
}

const priceOf = (scope: Scope, prices: unknown, name: string): Price | null => {
  const price = wooPrice(asObject(prices), scope.currency);
  if (price !== null && 'error' in price) {
    scope.warnings.push({
      code: 'invalid_price',
      message: `${name}: ${price.error}; kept without a price`,
      field: 'price',
    });
    return null;
  }
  return price;
};

/** A variable product's variants: attribute slugs shown by their term names, prices from the variation entries. */
const variantsOf = (scope: Scope, product: JsonObject, name: string, itemImages: readonly DraftImage[]) => {
  const attributes = asObjects(product.attributes);
  const labels = new Map<string, Map<string, string>>();
  for (const attribute of attributes) {
    const label = asText(attribute.name);
    if (!label) continue;
    const terms = new Map<string, string>();
    for (const term of asObjects(attribute.terms)) {
      const termName = asText(term.name);
      if (termName) terms.set(asText(term.slug) ?? termName, cleanText(termName));
    }
    labels.set(cleanText(label), terms);
  }
  const optionNames = attributes
    .filter((a) => a.has_variations === true)
    .map((a) => asText(a.name))
    .filter((n): n is string => n !== null)
    .map((n) => cleanText(n));
  let missing = 0;
  const variants: DraftVariant[] = asObjects(product.variations).map((variation) => {
    const options: Record<string, string> = {};
    for (const attribute of asObjects(variation.attributes)) {
      const label = asText(attribute.name);
      if (!label) continue;
      const key = cleanText(label);
      const value = asText(attribute.value);
      options[key] = value === null ? 'Any' : (labels.get(key)?.get(value) ?? cleanText(value));
      if (!optionNames.includes(key)) optionNames.push(key);
    }
    const id = asId(variation.id);
    const entry = id === null ? undefined : scope.variations.get(id);
    if (!entry) missing += 1;
    const images = entry
      ? imagesOf(entry.images, scope.storeUrl).filter((i) => !itemImages.some((x) => x.url === i.url))
      : [];
    return {
      name: Object.values(options).join(' / ') || (id ? `Variation ${id}` : null),
      options,
      price: entry ? priceOf(scope, entry.prices, name) : null,
      pricing: 'fixed',
      sku: entry ? asText(entry.sku) : null,
      gtin: null,
      images,
    };
  });
  if (missing > 0) {
    scope.warnings.push({
      code: 'variation_unread',
      message: `${name}: ${missing} of ${variants.length} variations could not be read; kept without prices`,
      field: 'variations',
    });
  }
  return { variants, optionNames };
};

/**
 * One page of Store API products as catalog items: categories as a path through the store's category
 * tree (when it could be read), tags, brand, images, short description (or description), and variants for
 * variable products. Grouped products are containers of products the API lists on their own: skipped.
 */
export const mapWooProducts = (
  products: readonly JsonObject[],
  options: Omit<Scope, 'warnings'>,
): WebExtraction => {
  const scope: Scope = { ...options, warnings: [] };
  const items: DraftItem[] = [];
  for (const product of products) {
    const type = asText(product.type) ?? 'simple';
    if (type === 'grouped' || type === 'variation') continue;
    const name = cleanText(asText(product.name) ?? '');
    if (name === '') {
      scope.warnings.push({
        code: 'missing_name',
        message: `product ${asId(product.id) ?? '?'} has no name and was skipped`,
        field: 'name',
      });
      continue;
    }
    const images = imagesOf(product.images, scope.storeUrl);
    const variable = type === 'variable' && asArray(product.variations).length > 0;
    const { variants, optionNames } = variable
      ? variantsOf(scope, product, name, images)
      : {
          variants: [
            {
              name: null,
              options: {},
              price: priceOf(scope, product.prices, name),
              pricing: 'fixed' as const,
              sku: asText(product.sku),
              gtin: null,
              images: [],
            },
          ],
          optionNames: [],
        };
    items.push({
      kind: 'item',
      categoryPath: categoryPathOf(product, scope.categories),
      name,
      description:
        cleanDescription(asText(product.short_description)) ?? cleanDescription(asText(product.description)),
      brand: namesOf(product.brands)[0] ?? null,
      tags: [...new Set(namesOf(product.tags))],
      calories: null,
      images,
      optionNames,
      variants,
    });
  }
  return { items, warnings: scope.warnings };
};

/** The variation ids a page of products refers to (to be read from `?type=variation`). */
export const wooVariationIds = (products: readonly JsonObject[]): string[] =>
  products
    .filter((p) => asText(p.type) === 'variable')
    .flatMap((p) => asObjects(p.variations).map((v) => asId(v.id)))
    .filter((id): id is string => id !== null);
