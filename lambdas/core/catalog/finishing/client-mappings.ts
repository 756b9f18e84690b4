import { type Category, FIELD_LIMITS, type Item } from '../document';
import type { CatalogWarning } from '../warnings';

/**
 * client_mappings (SPEC 5.2): `categories` and `items` objects from our name (or a category's full path
 * `A > B`, or a SKU/GTIN) to the client's id set `external_id`. An item's entry may name the item or,
 * by SKU or GTIN, one of its variants (which gets the id; an item sold in one form gets it too). Exact
 * keys win over case-insensitive ones. Other keys are kept and echoed, not read here.
 */

const fold = (s: string): string => s.normalize('NFC').trim().toLowerCase();

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

type Lookup = (...candidates: (string | null)[]) => string | undefined;

const table = (
  mappings: Readonly<Record<string, unknown>>,
  name: 'categories' | 'items',
  warn: (warning: CatalogWarning) => void,
): Lookup | null => {
  const value = mappings[name];
  if (value === undefined) return null;
  if (!isPlainObject(value)) {
    warn({
      source: 'client_mappings',
      row: null,
      column: name,
      code: 'invalid_client_mapping',
      message: 'must be an object; ignored',
    });
    return null;
  }
  const exact = new Map<string, string>();
  const folded = new Map<string, string>();
  for (const [key, id] of Object.entries(value)) {
    if (
      (typeof id === 'string' && id !== '' && id.length <= FIELD_LIMITS.code) ||
      (typeof id === 'number' && Number.isFinite(id))
    ) {
      exact.set(key, String(id));
      if (!folded.has(fold(key))) folded.set(fold(key), String(id));
    } else {
      warn({
        source: 'client_mappings',
        row: null,
        column: `${name}.${key}`,
        code: 'invalid_client_mapping',
        message: `must be a non-empty string of at most ${FIELD_LIMITS.code} characters; ignored`,
      });
    }
  }
  return (...candidates) => {
    for (const c of candidates) if (c !== null && exact.has(c)) return exact.get(c);
    for (const c of candidates) if (c !== null && folded.has(fold(c))) return folded.get(fold(c));
    return undefined;
  };
};

/** Sets `external_id` on the categories, items and variants the job's client_mappings name. */
export const applyClientMappings = (
  mappings: Readonly<Record<string, unknown>> | undefined,
  catalog: {
    readonly categories: readonly Category[];
    readonly items: readonly Item[];
    readonly categoryPaths: ReadonlyMap<string, string>;
  },
  warn: (warning: CatalogWarning) => void,
): void => {
  if (mappings === undefined) return;
  const categories = table(mappings, 'categories', warn);
  if (categories !== null) {
    for (const category of catalog.categories) {
      const id = categories(catalog.categoryPaths.get(category.id) ?? null, category.name);
      if (id !== undefined) category.external_id = id;
    }
  }
  const items = table(mappings, 'items', warn);
  if (items === null) return;
  for (const item of catalog.items) {
    let byCode: string | undefined;
    for (const variant of item.variants) {
      const id = items(variant.sku, variant.gtin);
      if (id === undefined) continue;
      variant.external_id = id;
      if (item.variants.length === 1) byCode = id;
    }
    const id = byCode ?? items(item.name);
    if (id !== undefined) item.external_id = id;
  }
};
