import type { DraftModifierGroup, DraftVariant } from '../../draft';
import type { PriceCell } from '../../rows/prices';
import { rowCells } from '../../rows/row-cells';
import type { DraftSink, RowReader, TableContext } from '../../rows/types';
import { singleVariant } from '../../rows/variant-prices';
import type { TableRow } from '../../sources/types';
import type { Field } from '../aliases';
import { STORE_COLUMN, storePrice, storesOf, yesNo } from './loyverse-stores';
import {
  columnFields,
  optionNamesOf,
  optionsName,
  type Profile,
  profileColumns,
  providedFields,
} from './profile';

/**
 * Loyverse's items export (Back Office → Items → Export; help.loyverse.com "Exporting and Importing
 * Items"): `Handle` groups the rows of one item. An item with variants is one row per variant (`Option N
 * name` / `Option N value`, its own SKU, barcode and prices), the item's fields (Name, Category,
 * Description, Sold by weight, modifiers) on its first row; a composite item adds one row per component
 * (`SKU of included item`, `Quantity of included item`), which is part of the item, not a variant. Prices
 * are per store (loyverse-stores.ts), else `Default price`; an empty price is entered at the till
 * (`pricing: variable`); an item sold by weight is priced per unit of weight (`unit: weight`: Loyverse does
 * not say which). `Modifier - "Milk options"` (Y/N) attaches that modifier to the item (the export does
 * not list the modifier's options: the group is kept without them). A variant no store sells is not on the
 * menu (skipped, with a warning). Cost, stock, taxes (`Tax - "VAT" (20%)`), suppliers and production
 * settings are Loyverse's own.
 */

const TABLE = {
  handle: ['handle'],
  sku: ['sku'],
  name: ['name'],
  category: ['category'],
  description: ['description'],
  sold_by_weight: ['sold by weight'],
  option_name_1: ['option 1 name'],
  option_value_1: ['option 1 value'],
  option_name_2: ['option 2 name'],
  option_value_2: ['option 2 value'],
  option_name_3: ['option 3 name'],
  option_value_3: ['option 3 value'],
  price: ['default price', 'price'],
  gtin: ['barcode'],
  component_sku: ['sku of included item'],
  component_quantity: ['quantity of included item'],
} as const;

type Role = keyof typeof TABLE;

const MODIFIER_COLUMN = /^\s*modifier\s*-\s*"?(.*?)"?\s*$/i;
const TAX_COLUMN = /^\s*tax\s*-/i;

interface Item {
  readonly handle: string | null;
  readonly firstRow: number;
  readonly name: string | null;
  readonly categoryPath: readonly string[] | null;
  readonly description: string | null;
  readonly byWeight: boolean;
  readonly optionNames: readonly (string | null)[];
  readonly modifierGroups: DraftModifierGroup[];
  readonly variants: DraftVariant[];
  /** Variants skipped because no store sells them. */
  skipped: number;
}

const open = (headers: readonly string[], ctx: TableContext): RowReader => {
  const map = profileColumns(headers, TABLE, {
    skip: (_normalised, header) =>
      STORE_COLUMN.test(header) || MODIFIER_COLUMN.test(header) || TAX_COLUMN.test(header),
  });
  const cells = rowCells(headers, ctx);
  const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
  const [HANDLE, SKU, NAME, CATEGORY, DESCRIPTION, BY_WEIGHT, PRICE, GTIN, COMPONENT] = [
    col('handle'),
    col('sku'),
    col('name'),
    col('category'),
    col('description'),
    col('sold_by_weight'),
    col('price'),
    col('gtin'),
    col('component_sku'),
  ];
  const OPTIONS = [1, 2, 3].map(
    (n) => [col(`option_name_${n}` as Role), col(`option_value_${n}` as Role)] as const,
  );
  const stores = storesOf(headers);
  const storePrices = stores.filter((s) => s.price >= 0);
  const modifiers = headers.flatMap((header, index) => {
    const name = MODIFIER_COLUMN.exec(header)?.[1]?.trim();
    return name ? [{ name, index }] : [];
  });
  const columns = columnFields(map);
  for (const store of stores) {
    if (store.price >= 0) columns.set(store.price, 'price');
    if (store.available >= 0) columns.set(store.available, 'available');
  }
  for (const { index } of modifiers) columns.set(index, 'modifier_group');
  const provides = providedFields(map);
  if (storePrices.length > 0) provides.add('price');
  let current: Item | null = null;

  const flush = (emit: DraftSink) => {
    const item = current;
    current = null;
    if (item === null) return;
    if (item.name === null) {
      ctx.warn(
        item.firstRow,
        NAME[0] === undefined ? 'Name' : cells.label(NAME[0]),
        'missing_name',
        `item ${JSON.stringify(item.handle ?? '')} has no name; skipped`,
      );
      return;
    }
    if (item.variants.length === 0 && item.skipped > 0) return;
    emit({
      kind: 'item',
      categoryPath: item.categoryPath ?? ctx.defaultCategory,
      name: item.name,
      description: item.description,
      optionNames: optionNamesOf(item.variants),
      variants: item.variants,
      modifierGroups: item.modifierGroups,
      provenance: { source: ctx.source, row: item.firstRow, sheet: ctx.sheet },
    });
  };

  /** The row's price; null when no store sells it. */
  const priceOf = (row: TableRow): PriceCell | null => {
    if (stores.length === 0) return cells.priceOf(row, PRICE, ctx.currency).cell;
    const atStore = storePrice(stores, cells, row, ctx);
    if (atStore === null) return null;
    return storePrices.length > 0 ? atStore : cells.priceOf(row, PRICE, ctx.currency).cell;
  };
  const availability = stores.find((s) => s.available >= 0)?.available;

  const variantOf = (row: TableRow, item: Item): DraftVariant | null => {
    const options: Record<string, string> = {};
    OPTIONS.forEach(([names, values], i) => {
      const name = cells.text(row, names) ?? item.optionNames[i] ?? null;
      const value = cells.text(row, values);
      if (name !== null && value !== null) options[name] = value;
    });
    const cell = priceOf(row);
    if (cell === null) {
      ctx.warn(
        row.row,
        availability === undefined ? null : cells.label(availability),
        'not_an_item',
        'not available for sale in any store; skipped',
      );
      item.skipped += 1;
      return null;
    }
    return {
      ...singleVariant(cell.kind === 'empty' ? { kind: 'variable' } : cell, {
        name: optionsName(options),
        sku: cells.text(row, SKU),
        gtin: cells.gtin(row, GTIN),
        unit: item.byWeight ? 'weight' : null,
      }),
      options,
    };
  };

  /** A later row of an item that only names a component of the composite item. */
  const isComponent = (row: TableRow): boolean =>
    cells.first(row, COMPONENT) >= 0 &&
    cells.first(row, SKU) < 0 &&
    OPTIONS.every(([, values]) => cells.first(row, values) < 0);

  const isVariant = (row: TableRow): boolean =>
    cells.first(row, SKU) >= 0 ||
    cells.first(row, GTIN) >= 0 ||
    cells.first(row, PRICE) >= 0 ||
    storePrices.some((s) => cells.first(row, [s.price]) >= 0) ||
    OPTIONS.some(([, values]) => cells.first(row, values) >= 0);

  const start = (row: TableRow, handle: string | null): Item => {
    const category = cells.text(row, CATEGORY);
    return {
      handle,
      firstRow: row.row,
      name: cells.text(row, NAME),
      categoryPath: category === null ? null : [category],
      description: cells.description(row, DESCRIPTION),
      byWeight: yesNo(cells, row, BY_WEIGHT[0] ?? -1) === true,
      optionNames: OPTIONS.map(([names]) => cells.text(row, names)),
      modifierGroups: modifiers
        .filter(({ index }) => yesNo(cells, row, index) === true)
        .map(({ name }) => ({ name, modifiers: [] })),
      variants: [],
      skipped: 0,
    };
  };

  return {
    profile: 'loyverse',
    columns,
    provides,
    row(row, emit) {
      const handle = cells.text(row, HANDLE);
      // Rows of one item share its Handle; a row without one is an item of its own.
      if (current !== null && handle !== null && current.handle === handle) {
        if (isComponent(row) || !isVariant(row)) return;
        const variant = variantOf(row, current);
        if (variant !== null) current.variants.push(variant);
        return;
      }
      flush(emit);
      const item = start(row, handle);
      current = item;
      const variant = variantOf(row, item);
      if (variant !== null) item.variants.push(variant);
      if (handle === null) flush(emit);
    },
    end(emit) {
      flush(emit);
    },
  };
};

/** Recognised by `Handle` and `Name` beside one of Loyverse's own columns. */
export const loyverseProfile: Profile = {
  name: 'loyverse',
  matches: (headers) =>
    headers.has('handle') &&
    headers.has('name') &&
    (headers.has('sold by weight') ||
      headers.has('sku of included item') ||
      headers.has('quantity of included item')),
  open,
};
