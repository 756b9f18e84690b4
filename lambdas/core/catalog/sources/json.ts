import { parseCatalogUpload } from '../document';
import { CatalogSourceError } from '../errors';
import { mapShopifyProducts, shopifyProductsOf } from '../web/shopify';
import { documentDrafts } from './catalog-document';
import { decodeAll, encodingFallbackWarning } from './encoding';
import { flattenRows, isJsonObject } from './json-rows';
import type { CellValue, ReadContext, ReaderOutput, SourceReader, TableRow } from './types';

/**
 * JSON sources (SPEC 5.2): a catalog document of SPEC 5.5 (format 1 or 2, recognised by
 * `format_version`), or an array of row objects whose keys are read like a spreadsheet's headers (a price
 * may be a number, a string or `{ "amount", "currency" }`; a list of strings is a list of tags or images),
 * or an object holding one such array (`{ "items": [...] }`, or one level down). Categories holding their
 * items and items holding their sizes are flattened first (json-rows.ts). Row numbers are positions in
 * the (flattened) array.
 * JSON Lines (one row object per line) are read as the array of their objects.
 * A Shopify store's `/products.json` saved to a file (`{ "products": [{ "title", "variants": [...] }] }`)
 * is read as the storefront reader reads it: one item per product, its variants with their options.
 */

/** `{ "products": [...] }` whose products carry Shopify's `variants` lists. */
const shopifyProducts = (value: unknown) => {
  const products = shopifyProductsOf(value);
  return products !== undefined &&
    products.length > 0 &&
    products.every((p) => Array.isArray(p.variants) && 'title' in p)
    ? products
    : undefined;
};

/** Row objects as a table: a header row of every key (first seen first), then one row per element. */
const rowTable = (elements: readonly unknown[], ctx: ReadContext): TableRow[][] => [
  [...objectRows(flattenRows(elements), ctx)],
];

/**
 * Row objects as table rows: a header row (row 0) of every key, first seen first, then one row per element,
 * numbered by its position; an element that is not an object is skipped with a warning (null silently).
 */
export function* objectRows(elements: readonly unknown[], ctx: ReadContext): Generator<TableRow> {
  const keys = new Map<string, number>();
  for (const element of elements) {
    if (!isJsonObject(element)) continue;
    for (const key of Object.keys(element)) if (!keys.has(key)) keys.set(key, keys.size);
  }
  yield { row: 0, cells: [...keys.keys()] };
  let position = 0;
  for (const element of elements) {
    position += 1;
    if (!isJsonObject(element)) {
      if (element !== null) {
        ctx.warn({
          row: position,
          column: null,
          code: 'invalid_value',
          message: 'the element is not an object; skipped',
        });
      }
      continue;
    }
    const cells: CellValue[] = new Array(keys.size).fill(null);
    for (const [key, value] of Object.entries(element)) cells[keys.get(key) as number] = value as CellValue;
    yield { row: position, cells };
  }
}

const fromValue = (value: unknown, ctx: ReadContext): ReaderOutput => {
  if (Array.isArray(value))
    return { kind: 'tables', tables: [{ sheet: null, batches: rowTable(value, ctx) }] };
  if (isJsonObject(value) && 'format_version' in value) {
    const parsed = parseCatalogUpload(value);
    if (!parsed.ok) {
      const shown = parsed.errors
        .slice(0, 5)
        .map((e) => `${e.pointer || '/'}: ${e.message}`)
        .join('; ');
      const more = parsed.errors.length > 5 ? ` (and ${parsed.errors.length - 5} more)` : '';
      throw new CatalogSourceError(`the catalog document is invalid: ${shown}${more}`, 'invalid_document');
    }
    ctx.describe({ profile: 'generic' });
    return { kind: 'drafts', drafts: documentDrafts(parsed.document, ctx) };
  }
  const shopify = shopifyProducts(value);
  if (shopify !== undefined) {
    // The file does not name the store's currency: prices are read in the job's.
    const mapped = mapShopifyProducts(shopify, {
      currency: ctx.currency,
      storeUrl: 'https://cdn.shopify.com/',
    });
    ctx.describe({ profile: 'shopify' });
    for (const warning of mapped.warnings)
      ctx.warn({ row: null, column: warning.field ?? null, code: warning.code, message: warning.message });
    return { kind: 'drafts', drafts: mapped.items };
  }
  if (isJsonObject(value)) {
    // `{ "items": [...] }`, or one level down: `{ "menu": { "sections": [...] } }`.
    for (const holder of [value, ...Object.values(value).filter(isJsonObject)]) {
      const arrays = Object.values(holder).filter((v) => Array.isArray(v) && v.some(isJsonObject));
      if (arrays.length === 1)
        return { kind: 'tables', tables: [{ sheet: null, batches: rowTable(arrays[0] as unknown[], ctx) }] };
      if (arrays.length > 1) break;
    }
  }
  throw new CatalogSourceError(
    'a JSON source must be a catalog document (with format_version), an array of row objects, or an object holding one such array',
    'source_unreadable',
  );
};

/**
 * JSON Lines (`.jsonl`, `.ndjson`: one object per line, as data exports and product APIs stream them) as
 * the array of its objects; undefined when the text is not that (its first line is not an object). A later
 * line that is not JSON fails the source with its line number: no line is dropped silently.
 */
const jsonLines = (text: string): unknown[] | undefined => {
  const rows: unknown[] = [];
  let line = 0;
  for (const raw of text.split('\n')) {
    line += 1;
    const trimmed = raw.trim();
    if (trimmed === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      if (rows.length === 0) return undefined;
      throw new CatalogSourceError(
        `line ${line} of the JSON Lines source is not valid JSON: ${(error as Error).message}`,
        'source_unreadable',
        { cause: error },
      );
    }
    if (rows.length === 0 && !isJsonObject(value)) return undefined;
    rows.push(value);
  }
  return rows.length > 1 ? rows : undefined;
};

export const jsonReader: SourceReader = {
  format: 'json',
  textual: true,
  contentTypes: [
    'application/json',
    'text/json',
    'application/ld+json',
    'application/x-ndjson',
    'application/jsonl',
    'application/x-jsonlines',
  ],
  extensions: ['json', 'jsonl', 'ndjson'],
  sniffText: (text) => text.startsWith('{') || text.startsWith('['),
  read: async (source, ctx) => {
    const encoding = source.encoding ?? 'utf-8';
    ctx.describe({ encoding });
    const text = await decodeAll(source.bytes, encoding, {
      onFallback: (offset) => ctx.warn(encodingFallbackWarning(offset)),
    });
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const lines = jsonLines(text);
      if (lines === undefined) {
        throw new CatalogSourceError(
          `the source is not valid JSON: ${(error as Error).message}`,
          'source_unreadable',
          { cause: error },
        );
      }
      value = lines;
    }
    return fromValue(value, ctx);
  },
};
