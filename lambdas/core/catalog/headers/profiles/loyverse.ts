import type { DraftItem, DraftModifierGroup, DraftVariant } from '../../draft';
import type { PriceCell } from '../../rows/prices';
import { rowCells } from '../../rows/row-cells';
import type { RowReader, TableContext } from '../../rows/types';
import { singleVariant } from '../../rows/variant-prices';
import type { TableRow } from '../../sources/types';
import type { Field } from '../aliases';
import { roleNames, signatureFits } from './header-table';
import { STORE_COLUMN, storePrice, storesOf, yesNo } from './loyverse-stores';
import {
  columnFields,
  nameColumnLabel,
  optionNamesOf,
  optionsName,
  type Profile,
  profileColumns,
  providedFields,
  skippedNameless,
} from './profile';
import { LOYVERSE_HEADERS } from './tables/loyverse';

/**
 * Loyverse's items export (Back Office → Items → Export; help.loyverse.com "Exporting and Importing
 * Items"): `Handle` groups the rows of one item. An item with variants is one row per variant (`Option N
 * name` / `Option N value`, its own SKU, barcode and prices), the item's fields (Name, Category,
 * Description, Sold by weight, modifiers) on its first row; a composite item adds one row per component
 * (`SKU of included item`, `Quantity of included item`), which is part of the item, not a variant. Prices
 * are per store (loyverse-stores.ts), else `Default price`; an empty price is entered at the till
 * (`pricing: variable`); an item sold by weight is priced per unit of weight (`unit: weight`: Loyverse does
 * not say which). `Modifier - "Milk options"` (Y/N) attaches that modifier to the item (the export does
 * not list the modifier's options: the group is kept without them). A variant no store sells is kept with the
 * price the file lists and a `not_for_sale` warning (it is still the merchant's product). Cost, stock, taxes (`Tax - "VAT" (20%)`), suppliers and production
 * settings are Loyverse's own. Rows are grouped by Handle wherever they are (a file sorted in a spreadsheet
 * puts the nameless variant rows apart from their item's first row).
 */

/** Loyverse's columns in each language its Back Office exports in: tables/loyverse.ts. */
const TABLE = roleNames(LOYVERSE_HEADERS);

type Role = keyof typeof TABLE;

const MODIFIER_COLUMN = /^\s*(?:modifier|modificador|modificateur)\s*-\s*"?(.*?)"?\s*$/i;
const TAX_COLUMN = /^\s*(?:tax|impuesto|imposto|taxe)\s*-/i;

/** A variant row, its options named once the whole item is known (sorted files scatter its rows). */
interface PendingVariant {
  readonly names: readonly (string | null)[];
  readonly values: readonly (string | null)[];
  readonly cell: PriceCell;
  readonly sku: string | null;
  readonly gtin: string | null;
}

interface Item {
  readonly handle: string | null;
  firstRow: number;
  name: string | null;
  categoryPath: readonly string[] | null;
  description: string | null;
  byWeight: boolean | null;
  readonly optionNames: (string | null)[];
  modifierGroups: DraftModifierGroup[] | null;
  readonly variants: PendingVariant[];
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
  // With prices per store, `Default price` only prices stores added later: not read.
  if (storePrices.length > 0) for (const index of PRICE) columns.delete(index);
  for (const store of stores) {
    if (store.price >= 0) columns.set(store.price, 'price');
    if (store.available >= 0) columns.set(store.available, 'available');
  }
  for (const { index } of modifiers) columns.set(index, 'modifier_group');
  const provides = providedFields(map);
  if (storePrices.length > 0) provides.add('price');
  // Items by Handle, in the order they first appear; emitted at the end, when all their rows are known.
  const items = new Map<string, Item>();

  /** The row's price; null when no store sells it. */
  const priceOf = (row: TableRow): PriceCell | null => {
    if (stores.length === 0) return cells.priceOf(row, PRICE, ctx.currency).cell;
    const atStore = storePrice(stores, cells, row, ctx);
    if (atStore === null) return null;
    return storePrices.length > 0 ? atStore : cells.priceOf(row, PRICE, ctx.currency).cell;
  };
  const availability = stores.find((s) => s.available >= 0)?.available;
  /** The price a row lists whether or not a store sells it: its first store price, else its own. */
  const listedPrice = (row: TableRow): PriceCell => {
    const listed = stores.find((s) => s.price >= 0 && cells.first(row, [s.price]) >= 0);
    return listed === undefined
      ? cells.priceOf(row, PRICE, ctx.currency).cell
      : cells.price(row, listed.price, ctx.currency);
  };

  /** A row of an item that only names a component of the composite item. */
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

  /** The item's own fields, from the row that has them (its first, as Loyverse writes it). */
  const describe = (item: Item, row: TableRow) => {
    const name = cells.text(row, NAME);
    if (item.name === null && name !== null) {
      item.name = name;
      item.firstRow = row.row;
      item.modifierGroups = modifiers
        .filter(({ index }) => yesNo(cells, row, index) === true)
        .map(({ name: group }) => ({ name: group, modifiers: [] }));
    }
    if (item.categoryPath === null) {
      const category = cells.text(row, CATEGORY);
      if (category !== null) item.categoryPath = [category];
    }
    item.description ??= cells.description(row, DESCRIPTION);
    item.byWeight ??= yesNo(cells, row, BY_WEIGHT[0] ?? -1);
    OPTIONS.forEach(([names], i) => {
      item.optionNames[i] ??= cells.text(row, names);
    });
  };

  const draftOf = (item: Item): DraftItem | null => {
    if (
      skippedNameless(
        item.name,
        ctx,
        item.firstRow,
        nameColumnLabel(cells, NAME, 'Name'),
        `item ${JSON.stringify(item.handle ?? '')} has no name; skipped`,
      )
    )
      return null;
    const variants = item.variants.map((pending): DraftVariant => {
      const options: Record<string, string> = {};
      pending.values.forEach((value, i) => {
        const name = pending.names[i] ?? item.optionNames[i] ?? null;
        if (name !== null && value !== null) options[name] = value;
      });
      return {
        ...singleVariant(pending.cell.kind === 'empty' ? { kind: 'variable' } : pending.cell, {
          name: optionsName(options),
          sku: pending.sku,
          gtin: pending.gtin,
          unit: item.byWeight === true ? 'weight' : null,
        }),
        options,
      };
    });
    return {
      kind: 'item',
      categoryPath: item.categoryPath ?? ctx.defaultCategory,
      name: item.name,
      description: item.description,
      optionNames: optionNamesOf(variants),
      variants,
      modifierGroups: item.modifierGroups ?? [],
      provenance: { source: ctx.source, row: item.firstRow, sheet: ctx.sheet },
    };
  };

  return {
    profile: 'loyverse',
    columns,
    provides,
    row(row) {
      // Rows of one item share its Handle; a row without one is an item of its own.
      const handle = cells.text(row, HANDLE);
      const key = handle === null ? `#${row.row}` : `h:${handle}`;
      let item = items.get(key);
      if (item === undefined) {
        item = {
          handle,
          firstRow: row.row,
          name: null,
          categoryPath: null,
          description: null,
          byWeight: null,
          optionNames: [null, null, null],
          modifierGroups: null,
          variants: [],
        };
        items.set(key, item);
      }
      describe(item, row);
      if (isComponent(row) || !(isVariant(row) || cells.first(row, NAME) >= 0)) return;
      let cell = priceOf(row);
      if (cell === null) {
        // Switched off in every store (out of season, not yet launched): still the merchant's product, and
        // the new catalog keeps it; the merchant decides whether it is sold there.
        cell = listedPrice(row);
        ctx.warn(
          row.row,
          availability === undefined ? null : cells.label(availability),
          'not_for_sale',
          `not available for sale in any store; kept${cell.kind === 'price' ? ' with the price the file lists' : ''}: hide it on the new platform if it should not be sold`,
        );
      }
      item.variants.push({
        names: OPTIONS.map(([names]) => cells.text(row, names)),
        values: OPTIONS.map(([, values]) => cells.text(row, values)),
        cell,
        sku: cells.text(row, SKU),
        gtin: cells.gtin(row, GTIN),
      });
    },
    end(emit) {
      for (const item of items.values()) {
        const draft = draftOf(item);
        if (draft !== null) emit(draft);
      }
    },
  };
};

/** Recognised by `Handle` and `Name` beside one of Loyverse's own columns. */
/** True when the header has a column of that role in one of its languages. */
export const loyverseProfile: Profile = {
  name: 'loyverse',
  matches: (headers) => signatureFits(LOYVERSE_HEADERS, headers),
  open,
};
