import type { ItemImage } from '../document';
import type { ExportRun } from './formats-types';
import type { ItemRows, VariantRow } from './rows';
import { feedPrice, limited, oneLine } from './tabular';
import { counted, type ExportWarnings } from './warnings';

/**
 * One offer of a product feed (Google Merchant Center, Meta catalogs): what both take, from the shared
 * row model. Offers of one item share `item_group_id` (the item's id) and differ by their variant
 * attributes; an option neither platform has an attribute for is a Meta `additional_variant_attribute`, and
 * in a Google feed part of the title.
 */
export interface FeedOffer {
  readonly id: string;
  readonly groupId: string | null;
  readonly title: string;
  readonly description: string;
  readonly link: string;
  readonly image: string;
  readonly moreImages: readonly string[];
  readonly price: string;
  readonly brand: string;
  readonly gtin: string;
  readonly productType: string;
  /** color, size, material, pattern → value. */
  readonly attributes: ReadonlyMap<string, string>;
  /** Options without a feed attribute: name → value. */
  readonly otherOptions: ReadonlyMap<string, string>;
}

/** The feed attribute an option name is, if any. */
const ATTRIBUTE: Readonly<Record<string, string>> = {
  color: 'color',
  colour: 'color',
  size: 'size',
  material: 'material',
  pattern: 'pattern',
};

export interface FeedLimits {
  readonly target: string;
  readonly id: number;
  readonly title: number;
  readonly description: number;
  readonly brand: number;
  readonly productType: number;
  readonly moreImages: number;
}

const offerId = (row: VariantRow, limits: FeedLimits): string =>
  row.variant.sku !== null && row.variant.sku.length <= limits.id && !/[\t\r\n]/.test(row.variant.sku)
    ? row.variant.sku
    : row.variant.id;

/**
 * The offers of one item, or none with the reason counted: an offer needs a price and an image, which
 * both platforms require.
 */
export const feedOffers = (
  rows: ItemRows,
  run: ExportRun,
  merchant: string,
  limits: FeedLimits,
): FeedOffer[] => {
  const w: ExportWarnings = run.warnings;
  const { item, handle, categoryPath, optionNames, variants } = rows;
  const several = variants.length > 1;
  const offers: FeedOffer[] = [];
  const brandOf = (): string => {
    if (item.brand !== null)
      return limited(w, limits.target, 'brand', oneLine(w, 'brand', item.brand), limits.brand);
    w.add(
      'changed',
      'brand',
      (n) =>
        `${counted(n, 'item')} had no brand, which ${limits.target} requires; the merchant's name was written as their brand`,
    );
    return limited(w, limits.target, 'brand', oneLine(w, 'brand', merchant), limits.brand);
  };
  const brand = brandOf();
  let description = item.description;
  if (description === null) {
    w.add(
      'changed',
      'description',
      (n) =>
        `${counted(n, 'item')} had no description, which ${limits.target} requires; the title was written as their description`,
    );
    description = item.name;
  }
  const text = limited(
    w,
    limits.target,
    'description',
    oneLine(w, 'description', description),
    limits.description,
  );
  for (const row of variants) {
    const { variant } = row;
    if (variant.price === null) {
      w.add(
        'left_out',
        'variants.price',
        (n) =>
          `${counted(n, 'variant')} without a price were left out: ${limits.target} requires one for every offer`,
      );
      continue;
    }
    const images: ItemImage[] = [...variant.images, ...item.images];
    const [image, ...more] = images.filter((img, i) => images.findIndex((o) => o.url === img.url) === i);
    if (image === undefined) {
      w.add(
        'left_out',
        'images',
        (n) =>
          `${counted(n, 'variant')} without an image were left out: ${limits.target} requires one for every offer`,
      );
      continue;
    }
    if (more.length > limits.moreImages)
      w.add(
        'not_carried',
        'images',
        (n) => `${counted(n, 'image')} beyond ${limits.moreImages} additional images per offer were left out`,
        more.length - limits.moreImages,
      );
    const attributes = new Map<string, string>();
    const otherOptions = new Map<string, string>();
    optionNames.forEach((name, n) => {
      const value = row.optionValues[n] ?? '';
      const attribute = ATTRIBUTE[name.toLowerCase()];
      if (attribute !== undefined && !attributes.has(attribute))
        attributes.set(attribute, oneLine(w, 'variants.options', value));
      else otherOptions.set(oneLine(w, 'option_names', name), oneLine(w, 'variants.options', value));
    });
    const id = offerId(row, limits);
    offers.push({
      id,
      groupId: several ? item.id : null,
      title: limited(w, limits.target, 'name', oneLine(w, 'name', item.name), limits.title),
      description: text,
      link: (run.linkTemplate ?? '')
        .replaceAll('{handle}', encodeURIComponent(handle))
        .replaceAll('{id}', encodeURIComponent(id)),
      image: image.url,
      moreImages: more.slice(0, limits.moreImages).map((i) => i.url),
      price: feedPrice(variant.price),
      brand,
      gtin: variant.gtin ?? '',
      productType: limited(
        w,
        limits.target,
        'category',
        oneLine(w, 'category', categoryPath.join(' > ')),
        limits.productType,
      ),
      attributes,
      otherOptions,
    });
  }
  if (offers.length > 0)
    w.add(
      'assumed',
      'availability',
      (n) =>
        `${counted(n, 'offer')} were written as in stock and new: the catalog has no stock levels or condition`,
      offers.length,
    );
  return offers;
};
