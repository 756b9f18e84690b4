import type { CatalogDocumentUpload, Category } from '../document';
import type { Draft, DraftItem } from '../draft';
import { parseBarcode } from '../rows/barcodes';
import type { ReadContext } from './types';

/**
 * A catalog document (SPEC 5.5, format 1 or 2 — an earlier job's export, a corrected catalog) as drafts:
 * its categories (empty ones too), items with their variants, images and modifier groups, external ids.
 * Entities get this job's ids from their natural keys; the document's image mappings are not carried over.
 */
export function* documentDrafts(document: CatalogDocumentUpload, ctx: ReadContext): Generator<Draft> {
  const byId = new Map(document.categories.map((c) => [c.id, c]));
  const paths = new Map<string, string[]>();
  const pathOf = (category: Category): string[] => {
    const known = paths.get(category.id);
    if (known !== undefined) return known;
    const path: string[] = [];
    for (let c: Category | undefined = category; c !== undefined && path.length <= byId.size; ) {
      path.unshift(c.name.trim());
      c = c.parent_id === null ? undefined : byId.get(c.parent_id);
    }
    paths.set(category.id, path);
    return path;
  };
  for (const category of document.categories) {
    yield { kind: 'category', path: pathOf(category), externalId: category.external_id };
  }
  const groups = new Map(document.modifier_groups.map((g) => [g.id, g]));
  let index = 0;
  for (const item of document.items) {
    index += 1;
    const category = item.category_id === null ? undefined : byId.get(item.category_id);
    const draft: DraftItem = {
      kind: 'item',
      categoryPath: category === undefined ? [] : pathOf(category),
      name: item.name,
      description: item.description,
      brand: item.brand,
      calories: item.calories,
      tags: item.tags,
      images: item.images,
      optionNames: item.option_names,
      externalId: item.external_id,
      variants: item.variants.map((variant) => {
        let gtin = variant.gtin;
        if (gtin !== null) {
          const parsed = parseBarcode(gtin);
          if (!parsed.ok) {
            ctx.warn({
              row: index,
              column: 'gtin',
              code: parsed.code,
              message: `${parsed.message}; ignored`,
            });
            gtin = null;
          }
        }
        return {
          name: variant.name,
          options: variant.options,
          price: variant.price,
          pricing: variant.pricing,
          sku: variant.sku,
          gtin,
          size: variant.size,
          unit: variant.unit,
          images: variant.images,
          externalId: variant.external_id,
        };
      }),
      modifierGroups: item.modifier_group_ids.flatMap((id) => {
        const group = groups.get(id);
        return group === undefined
          ? []
          : [{ name: group.name, min: group.min, max: group.max, modifiers: group.modifiers }];
      }),
      provenance: { source: ctx.source, row: index },
    };
    yield draft;
  }
}
