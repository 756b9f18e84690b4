import type { WarningCode } from '../../schemas/warning-codes';
import { FIELD_LIMITS, type ItemImage, type Price, type Pricing } from '../document';
import type { DraftImage, DraftItem, DraftModifierGroup, DraftVariant } from '../draft';
import type { ItemFacts, VariantFacts } from './identity';

/**
 * A draft brought within the catalog document's limits (SPEC 5.5): text trimmed, over-long values dropped,
 * images and tags checked and capped, prices checked. Drafts come from readers outside this pipeline's
 * control (PDF, web), so nothing is trusted; every value dropped is reported.
 */

export interface CheckedVariant extends VariantFacts {
  readonly price: Price | null;
  readonly pricing: Pricing;
  readonly images: ItemImage[];
  readonly externalId: string | null;
}

export interface CheckedItem extends ItemFacts {
  readonly description: string | null;
  readonly calories: number | null;
  readonly tags: string[];
  readonly images: ItemImage[];
  readonly variants: readonly CheckedVariant[];
  readonly modifierGroups: readonly DraftModifierGroup[];
  readonly externalId: string | null;
}

export type DraftWarn = (column: string | null, code: WarningCode, message: string) => void;

const text = (
  value: string | null | undefined,
  max: number,
  column: string,
  warn: DraftWarn,
): string | null => {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (trimmed.length > max) {
    warn(column, 'too_long', `is longer than ${max} characters; ignored`);
    return null;
  }
  return trimmed;
};

const dimension = (n: number | null | undefined): number | null =>
  n !== null && n !== undefined && Number.isInteger(n) && n > 0 ? n : null;

const NO_IMAGES: ItemImage[] = Object.freeze([]) as unknown as ItemImage[];
const NO_OPTIONS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** The draft's images that can be kept, in a list of exactly their number (the catalog keeps it). */
const images = (list: readonly DraftImage[] | undefined, warn: DraftWarn): ItemImage[] => {
  if (list === undefined || list.length === 0) return NO_IMAGES;
  const seen = list.length === 1 ? null : new Set<string>();
  const out: ItemImage[] = [];
  for (const image of list ?? []) {
    const url = image.url.trim();
    if (seen?.has(url)) continue;
    if (url.length > FIELD_LIMITS.url || !/^https?:\/\//i.test(url) || !URL.canParse(url)) {
      warn(
        'image_url',
        'invalid_url',
        `${JSON.stringify(url.slice(0, 80))} is not an absolute http(s) URL of at most ${FIELD_LIMITS.url} characters; ignored`,
      );
      continue;
    }
    if (out.length >= FIELD_LIMITS.images) {
      warn('image_url', 'too_many_values', `only the first ${FIELD_LIMITS.images} images are kept`);
      break;
    }
    seen?.add(url);
    const width = dimension(image.width);
    const height = dimension(image.height);
    // Reuse the draft's object when it already has the document's shape.
    const same = url === image.url && width === image.width && height === image.height;
    out.push(same ? (image as ItemImage) : { url, width, height });
  }
  // A list grown by push keeps room for 16 more; the copy holds exactly its images.
  return out.length === 0 ? NO_IMAGES : out.slice();
};

const price = (value: Price | null | undefined, warn: DraftWarn): Price | null => {
  if (value === null || value === undefined) return null;
  if (!Number.isSafeInteger(value.amount) || value.amount < 0 || !/^[A-Z]{3}$/.test(value.currency)) {
    warn('price', 'invalid_price', 'is not an amount in minor units with an ISO 4217 currency; ignored');
    return null;
  }
  return value;
};

const checkOptions = (given: Readonly<Record<string, string>>, warn: DraftWarn): Record<string, string> => {
  let options = NO_OPTIONS;
  for (const [key, value] of Object.entries(given)) {
    const k = text(key, FIELD_LIMITS.code, 'options', warn);
    const v = text(value, FIELD_LIMITS.name, 'options', warn);
    if (k === null || v === null) continue;
    if (options === NO_OPTIONS) options = {};
    options[k] = v;
  }
  return options;
};

const checkVariant = (variant: DraftVariant, warn: DraftWarn): CheckedVariant => {
  const options = variant.options === undefined ? NO_OPTIONS : checkOptions(variant.options, warn);
  let gtin = variant.gtin?.trim() || null;
  if (gtin !== null && !/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(gtin)) {
    warn('gtin', 'invalid_gtin', `${JSON.stringify(gtin.slice(0, 40))} is not a GTIN; ignored`);
    gtin = null;
  }
  const checkedPrice = price(variant.price, warn);
  return {
    name: text(variant.name, FIELD_LIMITS.name, 'variant', warn),
    options,
    sku: text(variant.sku, FIELD_LIMITS.code, 'sku', warn),
    gtin,
    size: text(variant.size, FIELD_LIMITS.code, 'size', warn),
    unit: text(variant.unit, FIELD_LIMITS.code, 'unit', warn),
    price: checkedPrice,
    pricing: variant.pricing === 'variable' && checkedPrice === null ? 'variable' : 'fixed',
    images: images(variant.images, warn),
    externalId: text(variant.externalId, FIELD_LIMITS.code, 'external_id', warn),
  };
};

const tags = (list: readonly string[] | undefined, warn: DraftWarn): string[] => {
  if (list === undefined || list.length === 0) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of list ?? []) {
    const tag = raw.trim();
    if (tag === '' || seen.has(tag.toLowerCase())) continue;
    if (tag.length > FIELD_LIMITS.tag) {
      warn('tags', 'too_long', `a tag longer than ${FIELD_LIMITS.tag} characters is ignored`);
      continue;
    }
    if (out.length >= FIELD_LIMITS.tags) {
      warn('tags', 'too_many_values', `only the first ${FIELD_LIMITS.tags} tags are kept`);
      break;
    }
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out;
};

/** True when a category path is already as checkPath would make it (its list can be used as it is). */
const cleanPath = (path: readonly string[]): boolean => {
  for (const segment of path) {
    if (segment === '' || segment.length > FIELD_LIMITS.name || segment.trim() !== segment) return false;
  }
  return true;
};

/** The category path with blank segments dropped; none at all (with a warning) when a name is too long. */
const checkPath = (path: readonly string[], warn: DraftWarn): readonly string[] => {
  if (cleanPath(path)) return path;
  const out: string[] = [];
  for (const segment of path) {
    const category = segment.trim();
    if (category === '') continue;
    if (category.length > FIELD_LIMITS.name) {
      warn(
        'category',
        'too_long',
        `a category name is longer than ${FIELD_LIMITS.name} characters; the item is kept uncategorised`,
      );
      return [];
    }
    out.push(category);
  }
  return out;
};

/** Checks a draft item; null when it cannot be an item at all (no name), after warning. */
export const checkDraft = (draft: DraftItem, warn: DraftWarn): CheckedItem | null => {
  const name = draft.name.trim();
  if (name === '') {
    warn('name', 'missing_name', 'the item has no name; skipped');
    return null;
  }
  if (name.length > FIELD_LIMITS.name) {
    warn('name', 'too_long', `the name is longer than ${FIELD_LIMITS.name} characters; skipped`);
    return null;
  }
  const categoryPath = checkPath(draft.categoryPath, warn);
  let calories: number | null = null;
  if (draft.calories !== null && draft.calories !== undefined) {
    if (Number.isInteger(draft.calories) && draft.calories >= 0) calories = draft.calories;
    else warn('calories', 'invalid_calories', 'is not a whole number of calories; ignored');
  }
  const optionNames =
    draft.optionNames === undefined || draft.optionNames.length === 0
      ? []
      : [...new Set(draft.optionNames.map((n) => n.trim()).filter(Boolean))];
  return {
    categoryPath,
    name,
    brand: text(draft.brand, FIELD_LIMITS.name, 'brand', warn),
    description: text(draft.description, FIELD_LIMITS.description, 'description', warn),
    calories,
    tags: tags(draft.tags, warn),
    images: images(draft.images, warn),
    optionNames,
    variants: draft.variants.map((v) => checkVariant(v, warn)),
    modifierGroups: draft.modifierGroups ?? [],
    externalId: text(draft.externalId, FIELD_LIMITS.code, 'external_id', warn),
  };
};
