import type { DraftVariant } from '../../draft';
import { type PriceCell, parsePriceCell } from '../../rows/prices';
import { rowCells } from '../../rows/row-cells';
import { skipsTotal } from '../../rows/row-kinds';
import type { RowReader, TableContext } from '../../rows/types';
import { singleVariant } from '../../rows/variant-prices';
import type { TableRow } from '../../sources/types';
import type { Field } from '../aliases';
import { normaliseHeader } from '../normalise';
import { roleNames, signatureFits } from './header-table';
import { columnFields, type Profile, profileColumns, providedFields } from './profile';
import { TOAST_HEADERS } from './tables/toast';

/**
 * Toast's "All items" data export (AllItemsReport.csv; doc.toasttab.com, "Data export field reference"):
 * one row per menu item and menu it is on — `Master ID`, `Item ID`, `Parent ID`, `Menu Name`, `Menu Group`,
 * `Subgroup`, `Menu Item`, `Tags`, `Avg Price` (the average net price charged, 5 decimals: `14.00000`) and
 * the period's sales figures. The menu's structure is the category path (`Dinner > Starters`, and its
 * subgroup below). `Avg Price` is the menu price when it is one amount; an average that is not a whole
 * amount of the currency (discounts, open prices, sizes priced by modifiers) is not one menu price, and an
 * item not sold in the period has none (0): either is kept without a price, with a warning. Sales figures
 * and Toast's ids are Toast's own and are ignored.
 */

const TABLE = roleNames(TOAST_HEADERS);

type Role = keyof typeof TABLE;

const AVERAGE = new Set(['avg price', 'average price']);

/** Toast's sales figures: never a catalog field, whatever the generic aliases would make of them. */
const FIGURE =
  /^(?:item qty|gross amount|net amount|void|discount amount|of ttl|orders|qty|net amt|gross sales|net sales|item id|master id|parent id)\b/;

const shown = (value: TableRow['cells'][number] | undefined) =>
  JSON.stringify(typeof value === 'string' ? value.trim() : value);

const open = (headers: readonly string[], ctx: TableContext): RowReader => {
  const map = profileColumns(headers, TABLE, { skip: (normalised) => FIGURE.test(normalised) });
  const cells = rowCells(headers, ctx);
  const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
  const [MENU, GROUP, SUBGROUP, NAME, PRICE, SKU, TAGS] = [
    col('menu'),
    col('group'),
    col('subgroup'),
    col('name'),
    col('price'),
    col('sku'),
    col('tags'),
  ];
  const nameColumn = NAME[0] === undefined ? 'Menu Item' : cells.label(NAME[0]);

  /** The price of a row, warning about what is not one menu price. */
  const priceOf = (row: TableRow): PriceCell => {
    const index = cells.first(row, PRICE);
    const column = index >= 0 ? index : PRICE[0];
    if (column === undefined) return { kind: 'empty' };
    const average = AVERAGE.has(normaliseHeader(headers[column] ?? ''));
    const value = row.cells[column] ?? null;
    const cell = parsePriceCell(value, ctx.currency);
    const warn = (code: Parameters<TableContext['warn']>[2], message: string) =>
      ctx.warn(row.row, cells.label(column), code, message);
    if (average && (cell.kind === 'empty' || (cell.kind === 'price' && cell.price.amount === 0))) {
      warn(
        'no_price',
        'no average price: the item was not sold in the report’s period; it is kept without a price',
      );
      return { kind: 'empty' };
    }
    if (cell.kind !== 'invalid') return cell;
    if (average && /^\d+[.,]\d+$/.test(String(value).trim())) {
      warn(
        'not_a_price',
        `${shown(value)} is an average of different prices charged (discounts, open prices, sizes), not one ` +
          'menu price; the item is kept without a price',
      );
    } else {
      warn(cell.code, `${cell.message}; the item is kept without a price`);
    }
    return { kind: 'empty' };
  };

  return {
    profile: 'toast',
    columns: columnFields(map),
    provides: providedFields(map),
    row(row, emit) {
      const name = cells.text(row, NAME);
      if (name === null) {
        ctx.warn(row.row, nameColumn, 'missing_name', 'the row has no Menu Item; skipped');
        return;
      }
      if (skipsTotal(ctx, row, nameColumn, name, 'dish')) return;
      const path = [cells.text(row, MENU), cells.text(row, GROUP), cells.text(row, SUBGROUP)].filter(
        (part): part is string => part !== null,
      );
      const variant: DraftVariant = singleVariant(priceOf(row), { sku: cells.text(row, SKU) });
      emit({
        kind: 'item',
        categoryPath: path.length > 0 ? path : ctx.defaultCategory,
        name,
        tags: cells.tags(row, TAGS),
        optionNames: [],
        variants: [variant],
        provenance: { source: ctx.source, row: row.row, sheet: ctx.sheet },
      });
    },
    end() {},
  };
};

/** Recognised by its menu item and menu group columns beside one of Toast's own (ids, average price). */
export const toastProfile: Profile = {
  name: 'toast',
  matches: (headers) => signatureFits(TOAST_HEADERS, headers),
  open,
};
