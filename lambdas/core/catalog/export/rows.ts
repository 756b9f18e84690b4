import { variantLabel } from '../assembly/identity';
import type { Item, ModifierGroup, Variant } from '../document';
import type { CatalogIndex, StoredCatalog } from './stored-catalog';
import { slugOf } from './text';
import { counted, type ExportWarnings } from './warnings';

/**
 * The one row model every tabular and platform writer shares: an item with its category path, a URL
 * handle unique in the export, its modifier groups, and one row per variant with the option values the
 * target needs (an item sold in several forms without option names gets one option, `Option`, valued by
 * each variant's name, since every platform asks for options to tell variants apart).
 */
export interface VariantRow {
  readonly variant: Variant;
  /** 0-based position in the item. */
  readonly position: number;
  /** A value for each of the item's `optionNames`, in order. */
  readonly optionValues: readonly string[];
  /** The variant's name, else its option values, else its size (assembly/identity.ts). */
  readonly label: string | null;
}

export interface ItemRows {
  readonly item: Item;
  /** Root first; empty when the item has no category. */
  readonly categoryPath: readonly string[];
  /** The item's slug, or the slug and the start of its id when another item has the same slug. */
  readonly handle: string;
  /** Another item of the catalog has the same slug (so, nearly the same name). */
  readonly sharesName: boolean;
  readonly modifierGroups: readonly ModifierGroup[];
  readonly optionNames: readonly string[];
  readonly variants: readonly VariantRow[];
}

/** The option a writer gives variants that have names but no option (`Small`, `Large`). */
export const SYNTHETIC_OPTION = 'Option';

/** Catalog fields that formats may or may not have a place for. */
export type CarriedField =
  | 'description'
  | 'brand'
  | 'tags'
  | 'calories'
  | 'images'
  | 'variant_images'
  | 'modifier_groups'
  | 'sku'
  | 'gtin'
  | 'size'
  | 'unit'
  | 'external_id'
  | 'category';

const PRESENT: Readonly<Record<CarriedField, (item: Item) => boolean>> = {
  description: (i) => i.description !== null,
  brand: (i) => i.brand !== null,
  tags: (i) => i.tags.length > 0,
  calories: (i) => i.calories !== null,
  images: (i) => i.images.length > 0,
  variant_images: (i) => i.variants.some((v) => v.images.length > 0),
  modifier_groups: (i) => i.modifier_group_ids.length > 0,
  sku: (i) => i.variants.some((v) => v.sku !== null),
  gtin: (i) => i.variants.some((v) => v.gtin !== null),
  size: (i) => i.variants.some((v) => v.size !== null),
  unit: (i) => i.variants.some((v) => v.unit !== null),
  external_id: (i) => i.external_id !== null || i.variants.some((v) => v.external_id !== null),
  category: (i) => i.category_id !== null,
};

const LABELS: Readonly<Record<CarriedField, string>> = {
  description: 'a description',
  brand: 'a brand',
  tags: 'tags',
  calories: 'calories',
  images: 'images',
  variant_images: 'variant images',
  modifier_groups: 'modifier groups',
  sku: 'SKUs',
  gtin: 'GTINs',
  size: 'variant sizes',
  unit: 'variant units',
  external_id: 'external ids (client_mappings)',
  category: 'a category',
};

export interface RowOptions {
  /** The format's name for messages (`a Shopify product CSV`). */
  readonly target: string;
  /** Fields the format has a place for; every other field with a value is counted as not carried. */
  readonly carries: ReadonlySet<CarriedField>;
  readonly warnings: ExportWarnings;
}

const pathOf = (
  index: CatalogIndex,
  cache: Map<string, readonly string[]>,
  id: string | null,
): readonly string[] => {
  if (id === null) return [];
  const known = cache.get(id);
  if (known !== undefined) return known;
  const path: string[] = [];
  const seen = new Set<string>();
  for (let at = index.categories.get(id); at !== undefined && !seen.has(at.id); ) {
    seen.add(at.id);
    path.unshift(at.name);
    at = at.parent_id === null ? undefined : index.categories.get(at.parent_id);
  }
  cache.set(id, path);
  return path;
};

/** The item's variants with option values, distinct within the item (a repeated combination is numbered). */
const variantRows = (item: Item, optionNames: readonly string[], options: RowOptions): VariantRow[] => {
  const seen = new Set<string>();
  return item.variants.map((variant, position) => {
    const label = variantLabel(variant);
    const values =
      item.option_names.length > 0
        ? optionNames.map((name) => variant.options[name] ?? label ?? String(position + 1))
        : optionNames.length > 0
          ? [label ?? String(position + 1)]
          : [];
    if (values.length > 0) {
      let key = values.join('\u0000').toLowerCase();
      if (seen.has(key)) {
        const last = values.length - 1;
        values[last] = `${values[last]} (${position + 1})`;
        key = values.join('\u0000').toLowerCase();
        options.warnings.add(
          'changed',
          'variants.options',
          (n) =>
            `${counted(n, 'variant')} had the same options as another variant of their item; a number was added to the last option value, since ${options.target} needs each variant's options to differ`,
        );
      }
      seen.add(key);
    }
    return { variant, position, optionValues: values, label };
  });
};

/**
 * The stored catalog's items as rows, in the stored order, with every field the format has no place for
 * counted in the warnings.
 */
export async function* itemRows(catalog: StoredCatalog, options: RowOptions): AsyncGenerator<ItemRows> {
  const { index } = catalog;
  const paths = new Map<string, readonly string[]>();
  for await (const item of catalog.items()) {
    for (const field of Object.keys(PRESENT) as CarriedField[]) {
      if (!options.carries.has(field) && PRESENT[field](item)) {
        options.warnings.add(
          'not_carried',
          field,
          (n) =>
            `${counted(n, 'item')} had ${LABELS[field]}, which ${options.target} has no place for; left out`,
        );
      }
    }
    const slug = slugOf(item.name);
    const optionNames =
      item.option_names.length > 0 ? item.option_names : item.variants.length > 1 ? [SYNTHETIC_OPTION] : [];
    const sharesName = index.handleCount(slug) > 1;
    yield {
      item,
      categoryPath: pathOf(index, paths, item.category_id),
      handle: sharesName ? `${slug}-${item.id.slice(0, 8)}` : slug,
      sharesName,
      modifierGroups: item.modifier_group_ids.flatMap((id) => {
        const group = index.modifierGroups.get(id);
        return group === undefined ? [] : [group];
      }),
      optionNames,
      variants: variantRows(item, optionNames, options),
    };
  }
}
