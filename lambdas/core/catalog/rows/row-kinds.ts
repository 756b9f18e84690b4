import type { TableRow } from '../sources/types';
import { isBlank } from './cells';
import type { TableContext } from './types';

/**
 * Rows of a typed spreadsheet that are not items: a section heading (`STARTERS` alone on its row, in a
 * table without a category column, names the category of the rows below it) and a total (`Total`,
 * `Subtotal` with the sum of the prices above).
 */

/** True when the row's only value is in `nameColumn`. */
export const isSectionRow = (row: TableRow, nameColumn: number): boolean => {
  if (isBlank(row.cells[nameColumn])) return false;
  for (let i = 0; i < row.cells.length; i += 1) if (i !== nameColumn && !isBlank(row.cells[i])) return false;
  return true;
};

const TOTAL =
  /^(?:sub[- ]?total|total|grand total|totals?|sum|summe|gesamt(?:summe)?|zwischensumme|somme|sous[- ]total|totale|subtotale|suma|importe total|合計|小計|합계|总计|合计)\s*:?$/iu;

/** True for a name that labels a sum, not a dish or product. */
export const isTotalName = (name: string): boolean => TOTAL.test(name.trim());

/**
 * True (with a `not_an_item` warning) when the row's name labels a sum: the row is skipped. `what` is the
 * item the table lists (`dish`, `product`).
 */
export const skipsTotal = (
  ctx: Pick<TableContext, 'warn'>,
  row: TableRow,
  column: string | null,
  name: string,
  what: string,
): boolean => {
  if (!isTotalName(name)) return false;
  ctx.warn(row.row, column, 'not_an_item', `${JSON.stringify(name)} is a total, not a ${what}; skipped`);
  return true;
};
