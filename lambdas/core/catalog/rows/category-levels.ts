import type { TableRow } from '../sources/types';
import { categoryPath } from './cells';
import type { RowCells } from './row-cells';

/**
 * `Category`, `Subcategory 1`, `Subcategory 2` (a POS item list, a spreadsheet with one column per
 * level): the subcategories, in header order, continue the category's path. A row with subcategories
 * but no category is in the path they make.
 *
 * @example withSubcategories(['Apparel'], row, [5, 6], cells) // ['Apparel', 'Tops', 'Tees']
 */
export const withSubcategories = (
  path: readonly string[] | null,
  row: TableRow,
  columns: readonly number[],
  cells: RowCells,
): readonly string[] | null => {
  if (columns.length === 0) return path;
  const levels: string[] = [];
  for (const index of [...columns].sort((a, b) => a - b)) {
    const value = cells.text(row, [index]);
    if (value !== null) levels.push(...categoryPath(value));
  }
  if (levels.length === 0) return path;
  return [...(path ?? []), ...levels];
};
