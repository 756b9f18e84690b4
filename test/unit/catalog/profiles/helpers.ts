import type { CatalogDocument, Item } from '../../../../lambdas/core/catalog/document';
import { normaliseHeader } from '../../../../lambdas/core/catalog/headers/normalise';
import { PROFILES } from '../../../../lambdas/core/catalog/headers/profiles';
import { buildCsv } from '../../../fixtures/catalog/build';
import { aCatalogJob } from '../../../fixtures/catalog/jobs';

/** The profile a header row is recognised as (`generic` when none), as the header mapper decides. */
export const profileOf = (headers: readonly string[]): string =>
  PROFILES.find((p) => p.matches(new Set(headers.map(normaliseHeader).filter(Boolean))))?.name ?? 'generic';

/** A CSV from rows of cells (quoted when needed). */
export const csvOf = (rows: readonly (readonly string[])[], delimiter = ','): string =>
  rows
    .map((row) =>
      row.map((cell) => (/["\n\r,;\t]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(delimiter),
    )
    .join('\n');

/** Builds a retail catalog from one CSV source. */
export const buildRetail = (csv: string, language: 'en_us' | 'en_ca' | 'de_de' = 'en_us') =>
  buildCsv(csv, aCatalogJob({ job_type: 'new_retail_catalog', job_data: { language } }));

/** Variants as [name, options, sku, amount, currency]. */
export const variantsOf = (item: Item | undefined) =>
  item?.variants.map((v) => [v.name, v.options, v.sku, v.price?.amount ?? null, v.price?.currency ?? null]);

export const itemNamed = (document: CatalogDocument, name: string): Item | undefined =>
  document.items.find((i) => i.name === name);

/** The category path of an item, root first. */
export const pathOf = (document: CatalogDocument, item: Item | undefined): string[] => {
  const byId = new Map(document.categories.map((c) => [c.id, c]));
  const names: string[] = [];
  for (
    let c = item?.category_id ? byId.get(item.category_id) : undefined;
    c;
    c = c.parent_id ? byId.get(c.parent_id) : undefined
  )
    names.unshift(c.name);
  return names;
};
