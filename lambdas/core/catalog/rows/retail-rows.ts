import type { DraftItem } from '../draft';
import type { Field } from '../headers/aliases';
import type { GenericPlan } from '../headers/generic-plan';
import type { TableRow } from '../sources/types';
import { withSubcategories } from './category-levels';
import { categoryPaths, rowCells, rowCurrency } from './row-cells';
import { isSectionRow, skipsTotal } from './row-kinds';
import { type DraftSink, otherLanguagesNote, type RowReader, type TableContext } from './types';
import { singleVariant } from './variant-prices';

/**
 * Retail rows (new_retail_catalog, retail_image_mapping) of a spreadsheet without a platform profile,
 * one row → one draft with one variant: name, brand, `A > B` category path, sku and barcode (several
 * barcode columns: the first valid one, a differing other reported), price in the row's currency,
 * size and unit, description, tags and images. Rows of one product in several sizes or variants
 * (a `size` or `variant` column) become one item in assembly.
 */
export const retailRows = (plan: GenericPlan, ctx: TableContext): RowReader => {
  const cells = rowCells(plan.headers, ctx);
  const categoryOf = categoryPaths(cells);
  const col = (field: Field): readonly number[] => plan.map.fields.get(field) ?? [];
  const NAME = col('name');
  const PRICE = col('price');
  const [CATEGORY, DESCRIPTION, BRAND, CALORIES, TAGS] = [
    col('category'),
    col('description'),
    col('brand'),
    col('calories'),
    col('tags'),
  ];
  const [VARIANT, SKU, GTIN, SIZE, UNIT] = [
    col('variant'),
    col('sku'),
    col('gtin'),
    col('size'),
    col('unit'),
  ];
  const SUBCATEGORY = col('subcategory');
  const currencyOf = rowCurrency(
    cells,
    col('currency'),
    ctx,
    PRICE[0] === undefined ? undefined : plan.headers[PRICE[0]],
  );
  const columns = new Map<number, string>();
  for (const [field, indices] of plan.map.fields) for (const i of indices) columns.set(i, field);
  const provides = new Set<Field>(plan.map.fields.keys());
  const nameColumn = NAME[0] === undefined ? 'name' : cells.label(NAME[0]);
  const noteLanguages = otherLanguagesNote(plan.headers, plan.otherLanguages, ctx);

  // Without a category column, a row with nothing but a name is a section heading for the rows below.
  const sections = CATEGORY.length === 0 && SUBCATEGORY.length === 0;
  let section: readonly string[] | null = null;

  return {
    profile: 'generic',
    columns,
    provides,
    row(row: TableRow, emit: DraftSink): void {
      noteLanguages();
      const name = cells.text(row, NAME);
      if (name === null) {
        ctx.warn(row.row, nameColumn, 'missing_name', 'the row has no name; skipped');
        return;
      }
      if (sections && isSectionRow(row, cells.first(row, NAME))) {
        section = [name];
        return;
      }
      if (skipsTotal(ctx, row, nameColumn, name, 'product')) return;
      const { cell } = cells.priceOf(row, PRICE, currencyOf(row));
      const variant = singleVariant(cell, {
        name: cells.text(row, VARIANT),
        sku: cells.text(row, SKU),
        gtin: cells.gtin(row, GTIN),
        size: cells.text(row, SIZE),
        unit: cells.text(row, UNIT),
      });
      const draft: DraftItem = {
        kind: 'item',
        categoryPath:
          withSubcategories(categoryOf(row, CATEGORY), row, SUBCATEGORY, cells) ??
          section ??
          ctx.defaultCategory,
        name,
        description: cells.description(row, DESCRIPTION),
        brand: cells.text(row, BRAND),
        calories: cells.calories(row, CALORIES),
        tags: cells.tags(row, TAGS),
        images: cells.gallery(row, plan.imageGroups),
        variants: [variant],
        sourceKey: plan.sourceKey === null ? null : cells.text(row, [plan.sourceKey]),
        provenance: { source: ctx.source, row: row.row, sheet: ctx.sheet },
      };
      emit(draft);
    },
    end(): void {},
  };
};
