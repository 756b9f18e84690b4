import type { DraftImage, DraftItem, DraftVariant } from '../../draft';
import { rowCells } from '../../rows/row-cells';
import type { RowReader, TableContext } from '../../rows/types';
import { singleVariant } from '../../rows/variant-prices';
import type { TableRow } from '../../sources/types';
import type { Field } from '../aliases';
import { normaliseHeader } from '../normalise';
import { titleOptions, withoutColourCode, withoutOptionLabel } from './feed-titles';
import { addImages, ownColumnsOnly } from './product-rows';
import { columnFields, optionNamesOf, optionsName, profileColumns, providedFields } from './profile';

/**
 * A product feed as Google Merchant Center (support.google.com/merchants "Product data specification")
 * and Meta's catalogs (developers.facebook.com "Catalog fields") take it as delimited text: one row per
 * offer, the attribute names as headers (`image_link` or `image link`, with or without the `g:` prefix
 * of the XML feeds). The offers of one product share `item_group_id` and differ by their variant
 * attributes (color, size, material, pattern, gender, age_group; Meta's `additional_variant_attribute`
 * `Scent:Fig`): the item is named after their common title, each offer is a variant whose options are
 * the attributes that vary in the group (named by the rest of its title when none does), with its own
 * `image_link`. `price` carries its currency
 * (`24.00 USD`); `sale_price` is a promotion; `product_type` is the merchant's category path (`A > B`),
 * `google_product_category` Google's taxonomy, not the merchant's. `id` is the offer id, which both
 * platforms ask to be the SKU.
 */

const TABLE = {
  group: ['item group id'],
  sku: ['id', 'offer id'],
  name: ['title'],
  description: ['description', 'rich text description'],
  price: ['price'],
  image_url: ['image link'],
  more_images: ['additional image link'],
  brand: ['brand'],
  gtin: ['gtin'],
  category: ['product type'],
  color: ['color', 'colour'],
  size: ['size'],
  material: ['material'],
  pattern: ['pattern'],
  gender: ['gender'],
  age_group: ['age group'],
  more_attributes: ['additional variant attribute'],
} as const;

type Role = keyof typeof TABLE;

/** The variant attributes, in the order their option names are given. */
const VARIANT_ATTRIBUTES: readonly (readonly [Role, string])[] = [
  ['color', 'Color'],
  ['size', 'Size'],
  ['material', 'Material'],
  ['pattern', 'Pattern'],
  ['gender', 'Gender'],
  ['age_group', 'Age group'],
];

/** A header as the feed specifications name it: `g:image_link` and `image link` are `image link`. */
export const feedHeader = (normalised: string): string => normalised.replace(/^g /, '');

/** True for a header row that is a product feed's. */
export const isProductFeed = (headers: ReadonlySet<string>): boolean => {
  const has = (name: string) => headers.has(name) || headers.has(`g ${name}`);
  return (
    has('title') &&
    has('price') &&
    (has('link') || has('image link')) &&
    (has('availability') || has('condition') || has('item group id') || has('google product category'))
  );
};

/**
 * The common start of a group's titles, cut at a word (`Tee - Black / M`, `Tee - White / M` → `Tee`);
 * the first title when they share too little.
 */
export const commonTitle = (titles: readonly string[]): string => {
  const [first = '', ...rest] = titles;
  let end = first.length;
  for (const title of rest) {
    let i = 0;
    while (i < end && i < title.length && title[i] === first[i]) i += 1;
    end = i;
  }
  if (end === first.length && rest.every((t) => t.length === end)) return first;
  const cut = first
    .slice(0, end)
    .replace(/\S*$/, '')
    .replace(/[\s,;:/|–—-]+$/, '')
    .trim();
  return cut.length >= 3 ? cut : first;
};

interface Offer {
  readonly row: TableRow;
  readonly title: string | null;
  readonly attributes: ReadonlyMap<string, string>;
  readonly variant: DraftVariant;
  readonly image: readonly DraftImage[];
  readonly more: readonly DraftImage[];
}

/**
 * Reads a product feed's rows (every offer is kept until the end: the offers of one item group need not
 * be next to each other). `name` says, once the rows are read, whose feed it was.
 */
export const openProductFeed = (
  headers: readonly string[],
  ctx: TableContext,
  name: (availability: ReadonlySet<string>) => string,
): RowReader => {
  const feedHeaders = headers.map((h) => h.replace(/^\s*g:/i, ''));
  const map = profileColumns(feedHeaders, TABLE, { skip: ownColumnsOnly(TABLE) });
  const cells = rowCells(headers, ctx);
  const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
  const [GROUP, SKU, NAME, DESCRIPTION, PRICE, IMAGE, MORE_IMAGES, BRAND, GTIN, CATEGORY, MORE] = [
    col('group'),
    col('sku'),
    col('name'),
    col('description'),
    col('price'),
    col('image_url'),
    col('more_images'),
    col('brand'),
    col('gtin'),
    col('category'),
    col('more_attributes'),
  ];
  const columns = columnFields(map);
  // Meta's JSON-path columns: `image[0].url`, `image[1].url` … (their brackets are not part of a
  // normalised header, so they are found as written).
  const PATH_IMAGES: { n: number; index: number }[] = [];
  feedHeaders.forEach((h, index) => {
    const n = /^\s*image\s*\[(\d+)\]\s*\.\s*url\s*$/i.exec(h)?.[1];
    if (n === undefined || columns.has(index)) return;
    PATH_IMAGES.push({ n: Number(n), index });
    columns.set(index, 'image_url');
  });
  const JSON_IMAGES = PATH_IMAGES.sort((a, b) => a.n - b.n).map((i) => [i.index]);
  const AVAILABILITY = feedHeaders.findIndex((h) => feedHeader(normaliseHeader(h)) === 'availability');
  const availability = new Set<string>();
  const groups = new Map<string, Offer[]>();
  const order: Offer[][] = [];

  const attributesOf = (row: TableRow): Map<string, string> => {
    const found = new Map<string, string>();
    for (const [role, label] of VARIANT_ATTRIBUTES) {
      const value = cells.text(row, col(role));
      if (value !== null) found.set(label, withoutColourCode(value));
    }
    for (const pair of (cells.text(row, MORE) ?? '').split(/[,;](?=[^,;:]+:)/)) {
      const at = pair.indexOf(':');
      if (at > 0 && pair.slice(at + 1).trim() !== '')
        found.set(pair.slice(0, at).trim(), withoutColourCode(pair.slice(at + 1)));
    }
    return found;
  };

  const draftOf = (offers: readonly Offer[]): DraftItem | null => {
    const titles = offers.flatMap((o) => (o.title === null ? [] : [o.title]));
    const [first] = offers;
    if (first === undefined || titles.length === 0) return null;
    const several = offers.length > 1;
    const varying = new Set<string>();
    if (several) {
      for (const { attributes } of offers) {
        for (const [label, value] of attributes) {
          if (offers.some((o) => o.attributes.get(label) !== value)) varying.add(label);
        }
      }
    }
    const images: DraftImage[] = [];
    const labels = new Set(offers.flatMap((o) => [...o.attributes.keys()]));
    // `Tee - Color Black`, `Tee - Color White`: the common start's `Color` is an option label, not a name.
    const name = several ? withoutOptionLabel(commonTitle(titles), labels).name : commonTitle(titles);
    // Offers told apart by their titles only (`Tee - Small`, no size attribute) are named by the rest.
    const restOf = (title: string | null) =>
      several && title?.startsWith(name)
        ? title
            .slice(name.length)
            .replace(/^[\s,;:/|–—-]+/, '')
            .trim() || null
        : null;
    const variants = offers.map((offer) => {
      addImages({ images }, [...offer.image, ...offer.more]);
      let options: Record<string, string> = {};
      for (const [label, value] of offer.attributes) if (varying.has(label)) options[label] = value;
      const rest = restOf(offer.title);
      // No attribute tells the offers apart: a rest of labelled values (`Farbe Rot - Größe M`) is options.
      if (Object.keys(options).length === 0 && rest !== null) options = titleOptions(rest, labels) ?? {};
      return {
        ...offer.variant,
        name: optionsName(options) ?? rest,
        options,
        images: several ? offer.image : [],
      };
    });
    const text = <T>(read: (row: TableRow) => T | null): T | null => {
      for (const offer of offers) {
        const value = read(offer.row);
        if (value !== null) return value;
      }
      return null;
    };
    return {
      kind: 'item',
      categoryPath: text((row) => cells.categoryPath(row, CATEGORY)) ?? ctx.defaultCategory,
      name,
      description: text((row) => cells.description(row, DESCRIPTION)),
      brand: text((row) => cells.text(row, BRAND)),
      images,
      optionNames: optionNamesOf(variants),
      variants,
      provenance: { source: ctx.source, row: first.row.row, sheet: ctx.sheet },
    };
  };

  return {
    get profile() {
      return name(availability);
    },
    columns,
    provides: providedFields(map),
    row(row) {
      if (AVAILABILITY >= 0) {
        const value = cells.text(row, [AVAILABILITY]);
        if (value !== null) availability.add(value.toLowerCase());
      }
      const { cell } = cells.priceOf(row, PRICE, ctx.currency);
      const offer: Offer = {
        row,
        title: cells.text(row, NAME),
        attributes: attributesOf(row),
        variant: {
          ...singleVariant(cell, { sku: cells.text(row, SKU), gtin: cells.gtin(row, GTIN) }),
          options: {},
        },
        image: IMAGE.length > 0 ? cells.images(row, IMAGE) : cells.images(row, JSON_IMAGES[0] ?? []),
        more: [
          ...cells.images(row, MORE_IMAGES),
          ...JSON_IMAGES.slice(IMAGE.length > 0 ? 0 : 1).flatMap((list) => cells.images(row, list)),
        ],
      };
      const group = cells.text(row, GROUP);
      const known = group === null ? undefined : groups.get(group);
      if (known !== undefined) known.push(offer);
      else {
        const list = [offer];
        if (group !== null) groups.set(group, list);
        order.push(list);
      }
    },
    end(emit) {
      for (const offers of order) {
        const draft = draftOf(offers);
        if (draft !== null) emit(draft);
        else {
          const first = offers[0] as Offer;
          ctx.warn(
            first.row.row,
            NAME[0] === undefined ? 'title' : cells.label(NAME[0]),
            'missing_name',
            'the offer has no title; skipped',
          );
        }
      }
    },
  };
};
