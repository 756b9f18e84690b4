import { CatalogSourceError } from '../errors';

/**
 * JSON as people and small systems write menus and product lists, made into flat rows for the table
 * reader: categories holding their items (`{ "name": "Pizza", "items": [...] }`, nested up to 64 levels)
 * give each item the category path; an item holding its sizes or variants (`"sizes": [{ "name":
 * "Small", "price": 9 }]`) gives one row per size, which assembly makes one item with a variant per size.
 */

type JsonRecord = Record<string, unknown>;

/** Categories inside categories, at most: deeper is not a menu (and would exhaust the stack). */
export const MAX_JSON_NESTING = 64;

/** A JSON object (not null, not an array), as JSON and XML sources parse them. */
export const isJsonObject = (value: unknown): value is JsonRecord =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const isObjectList = (value: unknown): value is JsonRecord[] =>
  Array.isArray(value) && value.length > 0 && value.every(isJsonObject);

const PRICE_KEYS = ['price', 'prices', 'amount', 'regular_price', 'cost', 'unit_price'];
const NAME_KEYS = ['name', 'title', 'label', 'category', 'section'];
const VARIANT_LISTS = ['sizes', 'variants', 'variations', 'options', 'prices', 'portions'];

const hasPrice = (row: JsonRecord): boolean =>
  Object.keys(row).some((k) => PRICE_KEYS.includes(k.toLowerCase()) && !isObjectList(row[k]));

const textOf = (row: JsonRecord, keys: readonly string[]): string | null => {
  for (const [key, value] of Object.entries(row)) {
    if (!keys.includes(key.toLowerCase())) continue;
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number') return String(value);
  }
  return null;
};

/** The key of a list of objects that are themselves priced (sizes, variants), or null. */
const variantList = (row: JsonRecord): string | null =>
  Object.keys(row).find(
    (k) => VARIANT_LISTS.includes(k.toLowerCase()) && isObjectList(row[k]) && row[k].every(hasPrice),
  ) ?? null;

/** Lists that belong to an item, never a category's items. */
const ITEM_LISTS = new Set([
  'images',
  'image',
  'photos',
  'media',
  'gallery',
  'modifiers',
  'modifier_groups',
  'modifiergroups',
  'addons',
  'add_ons',
  'extras',
  'toppings',
  'tags',
  'allergens',
  'options',
  'attributes',
  'nutrition',
]);

/** The key of a list of named objects a category holds (its items or subcategories), or null. */
const childList = (row: JsonRecord): string | null =>
  hasPrice(row)
    ? null
    : (Object.keys(row).find(
        (k) =>
          !ITEM_LISTS.has(k.toLowerCase()) &&
          isObjectList(row[k]) &&
          row[k].every((child) => textOf(child, ['name', 'title']) !== null),
      ) ?? null);

/**
 * Flat rows from a JSON array: category objects are walked into (their name joins the rows' category
 * path, `A > B`), sized items are spread into one row per size. Other elements pass unchanged.
 *
 * @example flattenRows([{ name: 'Pizza', items: [{ name: 'Margherita', price: 9 }] }])
 * // [{ name: 'Margherita', price: 9, category: 'Pizza' }]
 */
export const flattenRows = (
  elements: readonly unknown[],
  path: readonly string[] = [],
  depth = 0,
): unknown[] => {
  if (depth > MAX_JSON_NESTING) {
    throw new CatalogSourceError(
      `the JSON source nests categories more than ${MAX_JSON_NESTING} levels deep; no menu or catalog does`,
      'source_unreadable',
    );
  }
  const rows: unknown[] = [];
  for (const element of elements) {
    if (!isJsonObject(element)) {
      rows.push(element);
      continue;
    }
    const children = childList(element);
    const variants = variantList(element);
    if (children !== null && variants === null) {
      const name = textOf(element, NAME_KEYS);
      rows.push(
        ...flattenRows(element[children] as unknown[], name === null ? path : [...path, name], depth + 1),
      );
      continue;
    }
    if (variants === null && path.length === 0) {
      rows.push(element);
      continue;
    }
    const { [variants ?? '']: sizes, ...item } = element;
    const row: JsonRecord =
      path.length > 0 &&
      !Object.keys(item).some((k) => ['category', 'categories', 'section'].includes(k.toLowerCase()))
        ? { ...item, category: path.join(' > ') }
        : item;
    if (variants === null) {
      rows.push(row);
      continue;
    }
    for (const size of sizes as JsonRecord[]) {
      const { name, title, label, size: sizeName, ...rest } = size;
      rows.push({ ...row, ...rest, size: sizeName ?? name ?? title ?? label ?? null });
    }
  }
  return rows;
};
