import type { DraftItem, DraftModifierGroup, DraftVariant } from '../draft';
import type { Field } from '../headers/aliases';
import type { GenericPlan } from '../headers/generic-plan';
import { cellSizeLabels } from '../headers/size-columns';
import type { TableRow } from '../sources/types';
import { carriedCategory } from './carried-category';
import { withSubcategories } from './category-levels';
import { categoryPaths, rowCells, rowCurrency } from './row-cells';
import { isSectionRow, skipsTotal } from './row-kinds';
import { type DraftSink, otherLanguagesNote, type RowReader, type TableContext } from './types';
import { severalVariants, singleVariant, sizedVariant, type VariantBase } from './variant-prices';

/**
 * Menu rows (new_menu) of a spreadsheet without a platform profile, one row → one draft:
 * - a dish listed once per size (`Margherita, Small, 10` / `Margherita, Large, 14`) gives one variant per
 *   row; assembly puts them in one item;
 * - one price column per size (`Small`, `Medium`, `Large`) gives one variant per filled column;
 * - a cell with several prices (`11 / 42`) gives one variant per price, labelled by the cell or the
 *   header (`Price (glass / bottle)`);
 * - `MP` / `market price` keeps the dish with `pricing: variable`; text that is not a price keeps it
 *   without a price, with a warning;
 * - `modifier_group` + `modifier` (+ `modifier_price`) rows add a modifier to the dish; such a row without
 *   a price of its own only adds the modifier;
 * - no category column: the sheet's name, else uncategorised.
 */
export const menuRows = (plan: GenericPlan, ctx: TableContext): RowReader => {
  const cells = rowCells(plan.headers, ctx);
  const categoryOf = categoryPaths(cells);
  const col = (field: Field): readonly number[] => plan.map.fields.get(field) ?? [];
  const NAME = col('name');
  const CATEGORY = col('category');
  const SUBCATEGORY = col('subcategory');
  const PRICE = col('price');
  const DESCRIPTION = col('description');
  const SKU = col('sku');
  const GTIN = col('gtin');
  const SIZE = col('size');
  const UNIT = col('unit');
  const VARIANT = col('variant');
  const CALORIES = col('calories');
  const TAGS = col('tags');
  const BRAND = col('brand');
  const GROUP = col('modifier_group');
  const MODIFIER = col('modifier');
  const MODIFIER_PRICE = col('modifier_price');
  const CURRENCY = col('currency');

  const columns = new Map<number, string>();
  for (const [field, indices] of plan.map.fields) for (const i of indices) columns.set(i, field);
  for (const size of plan.sizes) columns.set(size.index, `price (${size.label})`);
  const provides = new Set<Field>(plan.map.fields.keys());
  if (plan.sizes.length > 0) provides.add('price');
  const nameColumn = NAME[0] === undefined ? 'name' : cells.label(NAME[0]);
  const noteLanguages = otherLanguagesNote(plan.headers, plan.otherLanguages, ctx);

  const currencyOf = rowCurrency(
    cells,
    CURRENCY,
    ctx,
    PRICE[0] === undefined ? undefined : plan.headers[PRICE[0]],
  );

  const modifierGroups = (row: TableRow, currency: string): DraftModifierGroup[] | undefined => {
    const group = cells.text(row, GROUP);
    const modifier = cells.text(row, MODIFIER);
    if (group === null && modifier === null) return undefined;
    if (group === null || modifier === null) {
      const missing = group === null ? GROUP : MODIFIER;
      ctx.warn(
        row.row,
        missing[0] === undefined ? (group === null ? 'modifier_group' : 'modifier') : cells.label(missing[0]),
        'incomplete_modifier',
        'a modifier needs both its group and its name; the modifier is ignored',
      );
      return undefined;
    }
    const { cell } = cells.priceOf(row, MODIFIER_PRICE, currency);
    const price = cell.kind === 'price' ? cell.price : null;
    return [{ name: group, modifiers: [{ name: modifier, price }] }];
  };

  // Without a category column, a row with nothing but a name is a section heading for the rows below.
  const sections = CATEGORY.length === 0 && SUBCATEGORY.length === 0;
  let section: readonly string[] | null = null;
  const carried = carriedCategory();

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
      if (skipsTotal(ctx, row, nameColumn, name, 'dish')) return;
      const currency = currencyOf(row);
      const groups = modifierGroups(row, currency);
      const base: VariantBase = {
        name: cells.text(row, VARIANT),
        sku: cells.text(row, SKU),
        gtin: GTIN.length > 0 ? cells.gtin(row, GTIN) : null,
        size: cells.text(row, SIZE),
        unit: cells.text(row, UNIT),
      };
      const variants: DraftVariant[] = [];
      let sized = false;
      for (const size of plan.sizes) {
        const variant = sizedVariant(cells.price(row, size.index, currency), size, base);
        if (variant !== null) variants.push(variant);
      }
      sized = variants.length > 0;
      const { cell, column } = cells.priceOf(row, PRICE, currency, true);
      if (cell.kind === 'prices') {
        // `S / M / L` in the row's size (or variant) cell names the prices of `10 / 12 / 14`.
        const count = cell.prices.length;
        const own = cellSizeLabels(base.size, count) ?? cellSizeLabels(base.name, count);
        const several =
          own === null
            ? severalVariants(cell, plan.priceLabels, base)
            : severalVariants(cell, own, { ...base, name: null, size: null });
        if (several.unlabelled) {
          ctx.warn(
            row.row,
            cells.label(column),
            'unlabelled_prices',
            `several prices without names; the variants are numbered ${several.variants.map((v) => v.name).join(', ')}`,
          );
        }
        variants.push(...several.variants);
        sized = true;
      } else if (cell.kind !== 'empty' || (!sized && groups === undefined)) {
        if (!sized || cell.kind !== 'empty') variants.push(singleVariant(cell, base));
      }
      const draft: DraftItem = {
        kind: 'item',
        categoryPath:
          withSubcategories(carried(categoryOf(row, CATEGORY)), row, SUBCATEGORY, cells) ??
          section ??
          ctx.defaultCategory,
        name,
        description: cells.description(row, DESCRIPTION),
        brand: cells.text(row, BRAND),
        calories: cells.calories(row, CALORIES),
        tags: cells.tags(row, TAGS),
        images: cells.gallery(row, plan.imageGroups),
        optionNames: sized ? ['Size'] : [],
        variants,
        modifierGroups: groups,
        provenance: { source: ctx.source, row: row.row, sheet: ctx.sheet },
      };
      emit(draft);
    },
    end(): void {},
  };
};
