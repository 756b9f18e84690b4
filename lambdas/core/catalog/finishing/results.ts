import type { CatalogSummary } from '../../schemas/results';
import type { CatalogDocument } from '../document';

/** SPEC 5.2 `results.catalog` of a document. */
export const summariseCatalog = (
  document: Pick<CatalogDocument, 'items' | 'categories' | 'modifier_groups'>,
): CatalogSummary => {
  let variants = 0;
  let images = 0;
  for (const item of document.items) {
    variants += item.variants.length;
    images += item.images.length;
    for (const variant of item.variants) images += variant.images.length;
  }
  return {
    item_count: document.items.length,
    variant_count: variants,
    category_count: document.categories.length,
    modifier_group_count: document.modifier_groups.length,
    image_count: images,
  };
};
