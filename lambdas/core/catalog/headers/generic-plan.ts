import type { Field } from './aliases';
import { type ColumnMap, genericLookup, languageTag, mapColumns } from './columns';
import { normaliseHeader } from './normalise';
import {
  letterSizeColumns,
  priceLabels,
  type SizeColumn,
  sizeColumn,
  sizeLabelsHeader,
} from './size-columns';

/**
 * How a spreadsheet without a platform profile is read: its columns by the generic aliases of SPEC 5.2,
 * plus (menus) one price column per size and the labels a price header gives for cells with several
 * prices.
 */
export interface GenericPlan {
  readonly headers: readonly string[];
  readonly map: ColumnMap<Field>;
  /** Per-size price columns (`Small`, `Medium`, `Large`); empty unless there are two, or one and no price column. */
  readonly sizes: readonly SizeColumn[];
  /** `Price (glass / bottle)` → `['glass', 'bottle']`. */
  readonly priceLabels: readonly string[] | null;
  /**
   * The image columns as groups, each read like one field (its first non-empty column), every group's
   * images kept, in column order: each image column is a group of its own, except a thumbnail column,
   * read only where the first image column is empty (it shows the same picture smaller).
   */
  readonly imageGroups: readonly (readonly number[])[];
  /**
   * The column holding each record's own id (`product_id`, `item_id`, `id`, `handle`), read as the draft's
   * source key so that two products the source keeps apart are never one item; null without one, and
   * when rows may be sizes or variants of one product (a `size` or `variant` column: each row's id is then
   * a variant's).
   */
  readonly sourceKey: number | null;
  /**
   * Name and description columns of other languages than the one read (`name_fr` beside `name_en`): read
   * only where it is empty; the catalog has no place for translations, so the reader says so once.
   */
  readonly otherLanguages: readonly number[];
}

/** A record's own id column (normalised header). */
const RECORD_ID = /^(?:(?:product|item|article|listing|record|entry|sku) )?(?:id|uuid|guid|handle)$/;

const THUMBNAIL = /\bthumb(?:nail)?s?\b/;

/** `Image 1, Image 2, Thumbnail` → `[[Image 1, Thumbnail], [Image 2]]` (indices). */
export const imageGroups = (
  headers: readonly string[],
  columns: readonly number[],
): (readonly number[])[] => {
  const sorted = [...columns].sort((a, b) => a - b);
  const isThumbnail = (i: number) => THUMBNAIL.test(normaliseHeader(headers[i] ?? ''));
  const thumbnails = sorted.filter(isThumbnail);
  const groups = sorted.filter((i) => !isThumbnail(i)).map((i) => [i]);
  if (thumbnails.length === 0) return groups;
  const [first, ...rest] = groups;
  return [[...(first ?? []), ...thumbnails], ...rest];
};

/**
 * Columns that never name a product, however early they come: a record's id (`ID`, `System ID`,
 * `Product ID`, `Vendor ID`: Lightspeed Retail's numeric system id is not an item's name) and a stock
 * count (`Qty.`, `Quantity`).
 */
const NOT_A_NAME = /(?:^| )(?:id|ids|uuid|guid|qty|quantity|stock|qoh)$/;

/**
 * Plans how to read a table's columns. `sizeColumns` (menus) looks for one price column per size and for
 * a price column named by its sizes (`Glass / Bottle`). A table with prices but no column named like a
 * name reads its first other column as the name (`Wine`, `Pizza`, a blank header) when it comes before
 * the price and the description and is no id or stock count, else its description column
 * (`Code, Description, Price`; `System ID, …, Description, …, Price`).
 */
export const genericPlan = (
  headers: readonly string[],
  options: { sizeColumns: boolean; inferred?: ReadonlyMap<number, Field>; language?: string },
): GenericPlan => {
  const mapped = mapColumns(headers, genericLookup);
  const fields = new Map(mapped.fields);
  // Name and description columns per language (`name_en`, `name_fr`): the job language's first, the
  // others read only where it is empty (the catalog keeps one language).
  const own = options.language?.slice(0, 2).toLowerCase();
  for (const field of ['name', 'description'] as const) {
    const list = fields.get(field);
    if (own === undefined || list === undefined || list.length < 2) continue;
    const mine = list.filter((i) => languageTag(headers[i] ?? '') === own);
    if (mine.length > 0) fields.set(field, [...mine, ...list.filter((i) => !mine.includes(i))]);
  }
  let unused = [...mapped.unused];
  // Columns told from their values (headers/infer-columns.ts): only where no header names the field.
  for (const [index, field] of options.inferred ?? []) {
    if (fields.has(field) || !unused.includes(index)) continue;
    fields.set(field, [index]);
    unused = unused.filter((i) => i !== index);
  }
  let labels: readonly string[] | null = null;
  let sizes: SizeColumn[] = [];
  if (options.sizeColumns) {
    if (!fields.has('price')) {
      const labelled = unused.find((i) => sizeLabelsHeader(headers[i] ?? '') !== null);
      if (labelled !== undefined) {
        fields.set('price', [labelled]);
        labels = sizeLabelsHeader(headers[labelled] ?? '');
        unused = unused.filter((i) => i !== labelled);
      }
    }
    sizes = unused.map((i) => sizeColumn(headers[i] ?? '', i)).filter((s) => s !== null);
    const named = new Set(sizes.map((s) => s.index));
    const letters = letterSizeColumns(headers, unused).filter((s) => !named.has(s.index));
    if (letters.length > 0) sizes = [...sizes, ...letters].sort((a, b) => a.index - b.index);
    if (sizes.length === 1 && fields.has('price')) sizes = [];
    const taken = new Set(sizes.map((s) => s.index));
    unused = unused.filter((i) => !taken.has(i));
  }
  if (!fields.has('name') && (fields.has('price') || sizes.length > 0)) {
    const first = unused.find(
      (i) =>
        ((headers[i] ?? '').trim() !== '' || i === 0) && !NOT_A_NAME.test(normaliseHeader(headers[i] ?? '')),
    );
    const described = fields.get('description');
    const before = Math.min(
      fields.get('price')?.[0] ?? sizes[0]?.index ?? Number.POSITIVE_INFINITY,
      described?.[0] ?? Number.POSITIVE_INFINITY,
    );
    if (first !== undefined && first < before) {
      fields.set('name', [first]);
      unused = unused.filter((i) => i !== first);
    } else if (described !== undefined && described.length > 0) {
      // `Code, Description, Pack, Price` (a supplier's price list, a POS item list): the description,
      // before any other unknown column, is the only text naming the product, so it is the name.
      const [named, ...rest] = described;
      fields.set('name', [named as number]);
      if (rest.length > 0) fields.set('description', rest);
      else fields.delete('description');
    }
  }
  const price = fields.get('price')?.[0];
  return {
    headers,
    map: { headers, fields, unused },
    sizes,
    priceLabels: labels ?? (price === undefined ? null : priceLabels(headers[price] ?? '')),
    imageGroups: imageGroups(headers, fields.get('image_url') ?? []),
    otherLanguages: (['name', 'description'] as const).flatMap((field) =>
      (fields.get(field) ?? []).slice(1).filter((i) => languageTag(headers[i] ?? '') !== null),
    ),
    sourceKey:
      fields.has('size') || fields.has('variant') || sizes.length > 0
        ? null
        : (unused.find((i) => RECORD_ID.test(normaliseHeader(headers[i] ?? ''))) ?? null),
  };
};
