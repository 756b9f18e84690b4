import type { Category, Item, ModifierGroup } from '../../document';
import { splitParts } from '../files';
import type { ExportWriter } from '../formats-types';
import { ALL_JOBS } from '../formats-types';
import { type ItemRows, itemRows } from '../rows';
import { fitText } from '../text';
import { counted, type ExportWarnings } from '../warnings';

/**
 * A Square Catalog API `BatchUpsertCatalogObjects` request body (developer.squareup.com "Catalog API",
 * "BatchUpsertCatalogObjects"): `{ idempotency_key, batches: [{ objects }] }` with the categories
 * (subcategories by `parent_category`), the modifier lists (`selection_type`, each modifier's
 * `price_money`), then the items, each with its variations (`FIXED_PRICING` or `VARIABLE_PRICING`) and its
 * modifier lists (`modifier_list_info` with the group's minimum and maximum). Every object has a
 * temporary `#` id made from the catalog's own id. Square's limits: 1,000 objects a batch and 10,000 a
 * request (variations and modifiers counted), so a larger catalog is written as several request bodies
 * sent in order; names are cut to Square's lengths (item 512, others 255 characters, description 4,096).
 */
const MAX_BATCH = 1000;
const MAX_REQUEST = 10_000;

type SquareObject = Record<string, unknown>;

const temp = (kind: string, id: string): string => `#${kind}-${id}`;

interface Group {
  readonly object: SquareObject;
  readonly units: number;
  readonly items: number;
}

const cut = (w: ExportWarnings, field: string, text: string, max: number): string => {
  const fitted = fitText(text, max);
  if (fitted.cut)
    w.add(
      'value_too_long',
      field,
      (n) =>
        `${counted(n, 'value')} of ${field} were longer than Square takes (${max} characters) and were cut`,
    );
  return fitted.text;
};

const categoryObject = (category: Category, w: ExportWarnings): Group => ({
  object: {
    type: 'CATEGORY',
    id: temp('category', category.id),
    category_data: {
      name: cut(w, 'categories.name', category.name, 255),
      ...(category.parent_id === null
        ? {}
        : { parent_category: { id: temp('category', category.parent_id) } }),
    },
  },
  units: 1,
  items: 0,
});

const modifierListObject = (group: ModifierGroup, w: ExportWarnings): Group => ({
  object: {
    type: 'MODIFIER_LIST',
    id: temp('modifier-list', group.id),
    modifier_list_data: {
      name: cut(w, 'modifier_groups.name', group.name, 255),
      selection_type: group.max === 1 ? 'SINGLE' : 'MULTIPLE',
      modifiers: group.modifiers.map((modifier, ordinal) => ({
        type: 'MODIFIER',
        id: temp('modifier', modifier.id),
        modifier_data: {
          name: cut(w, 'modifier_groups.modifiers.name', modifier.name, 255),
          ordinal,
          ...(modifier.price === null
            ? {}
            : { price_money: { amount: modifier.price.amount, currency: modifier.price.currency } }),
        },
      })),
    },
  },
  units: 1 + group.modifiers.length,
  items: 0,
});

const itemObject = (rows: ItemRows, menu: boolean, w: ExportWarnings): Group => {
  const item: Item = rows.item;
  const itemId = temp('item', item.id);
  return {
    object: {
      type: 'ITEM',
      id: itemId,
      item_data: {
        name: cut(w, 'name', item.name, 512),
        ...(item.description === null ? {} : { description: cut(w, 'description', item.description, 4096) }),
        ...(item.category_id === null ? {} : { categories: [{ id: temp('category', item.category_id) }] }),
        product_type: menu ? 'FOOD_AND_BEV' : 'REGULAR',
        ...(rows.modifierGroups.length === 0
          ? {}
          : {
              modifier_list_info: rows.modifierGroups.map((group) => ({
                modifier_list_id: temp('modifier-list', group.id),
                enabled: true,
                min_selected_modifiers: group.min,
                max_selected_modifiers: group.max,
              })),
            }),
        variations: rows.variants.map((row, ordinal) => ({
          type: 'ITEM_VARIATION',
          id: temp('variation', row.variant.id),
          item_variation_data: {
            item_id: itemId,
            name: cut(
              w,
              'variants.name',
              rows.variants.length === 1 && rows.optionNames.length === 0
                ? 'Regular'
                : (row.label ?? row.optionValues.join(', ')),
              255,
            ),
            ordinal,
            ...(row.variant.sku === null ? {} : { sku: row.variant.sku }),
            ...(row.variant.gtin === null ? {} : { upc: row.variant.gtin }),
            ...(row.variant.price === null
              ? { pricing_type: 'VARIABLE_PRICING' }
              : {
                  pricing_type: 'FIXED_PRICING',
                  price_money: { amount: row.variant.price.amount, currency: row.variant.price.currency },
                }),
          },
        })),
      },
    },
    units: 1 + rows.variants.length,
    items: 1,
  };
};

export const squareCatalogJson: ExportWriter = {
  contentType: 'application/json',
  fileName: 'catalog-objects.json',
  jobTypes: ALL_JOBS,
  async *write(run) {
    const catalog = await run.catalog();
    const w = run.warnings;
    const menu = catalog.index.head.job_type === 'new_menu';
    const rows = itemRows(catalog, {
      target: "Square's Catalog API",
      carries: new Set(['description', 'modifier_groups', 'sku', 'gtin', 'category']),
      warnings: w,
    });
    async function* groups(): AsyncGenerator<Group> {
      for (const category of catalog.index.categories.values()) yield categoryObject(category, w);
      for (const group of catalog.index.modifierGroups.values()) yield modifierListObject(group, w);
      for await (const item of rows) {
        if (item.item.option_names.length > 0)
          w.add(
            'changed',
            'option_names',
            (n) =>
              `${counted(n, 'item')} with options have their variations named by the option values (Square item options are set up in Square)`,
          );
        yield itemObject(item, menu, w);
      }
    }
    let part = 0;
    let batch = 0;
    yield* splitParts(groups(), {
      maxUnits: MAX_REQUEST,
      items: (g) => g.items,
      open: () => {
        part += 1;
        return `{"idempotency_key":${JSON.stringify(`${run.exportId}-${part}`)},"batches":[{"objects":[\n`;
      },
      render: (g) => ({ text: JSON.stringify(g.object), units: g.units }),
      between: (units, first) => {
        if (first || batch + units > MAX_BATCH) {
          batch = units;
          return ']},{"objects":[\n';
        }
        batch += units;
        return ',\n';
      },
      close: () => '\n]}]}\n',
    });
  },
  splitNote:
    "Square takes 10,000 objects a request: send the files in order; later files refer to the categories and modifier lists of the first by their # ids, which Square's answer maps to real ids (id_mappings)",
};
