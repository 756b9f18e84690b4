import { fold } from '../../assembly/identity';
import type { DraftModifier, DraftModifierGroup } from '../../draft';
import { isBlank } from '../../rows/cells';
import { parsePriceCell } from '../../rows/prices';
import type { CellValue, WorkbookSheet } from '../../sources/types';
import { columnLabel } from '../columns';
import { normaliseHeader } from '../normalise';
import {
  type CompanionSheet,
  companionSummary,
  findHeader,
  headerCell,
  indexOfHeader,
  type WorkbookContext,
} from './workbook';

/**
 * The sheets of Clover's inventory workbook that describe the items of its `Items` sheet:
 * - `Categories`: the items in each category. Written as two columns (`Category Name`, `Items in
 *   Category`) with the category's name on the first row of its group only, or across (`Category Name`
 *   then one column per category on the first row, `Items in Category` then the items below each).
 * - `Modifier Groups`: `Modifier Group Name` (on the first row of its group only), `Modifier`, `Price`,
 *   and, where the export has them, the group's minimum and maximum choices.
 * An item is in the categories that list its name; the Items sheet names its modifier groups.
 */

export interface CloverCategories {
  /** Item name (folded) → the categories listing it, in sheet order. */
  readonly byItem: ReadonlyMap<string, readonly string[]>;
  readonly summary: CompanionSheet;
}

export interface CloverModifierGroups {
  /** Group name (folded) → the group. */
  readonly byName: ReadonlyMap<string, DraftModifierGroup>;
  readonly summary: CompanionSheet;
}

const text = (value: CellValue | undefined): string | null => {
  const read = headerCell(value);
  return read.trim() === '' ? null : read.trim();
};

const CATEGORY_HEADERS = ['category name', 'category', 'categories'];
const ITEMS_HEADERS = ['items in category', 'item name', 'items', 'item'];

const addTo = (byItem: Map<string, string[]>, item: string, category: string) => {
  const key = fold(item);
  const list = byItem.get(key) ?? [];
  if (!list.includes(category)) list.push(category);
  byItem.set(key, list);
};

/** Reads the Categories sheet, or returns null when it is in neither of Clover's layouts. */
export const readCloverCategories = (sheet: WorkbookSheet): CloverCategories | null => {
  const found = findHeader(sheet, (normalised) => CATEGORY_HEADERS.includes(normalised[0] ?? ''));
  if (found === null) return null;
  const byItem = new Map<string, string[]>();
  const itemColumn = indexOfHeader(found.normalised, ITEMS_HEADERS);
  let rows = 0;
  if (itemColumn > 0) {
    // Down: the category's name on the first row of its group, its items below it.
    let category: string | null = null;
    for (const row of sheet.rows()) {
      if (row.row <= found.row || row.cells.every(isBlank)) continue;
      rows += 1;
      category = text(row.cells[0]) ?? category;
      const item = text(row.cells[itemColumn]);
      if (category !== null && item !== null) addTo(byItem, item, category);
    }
    const used = new Map([
      [0, 'category'],
      [itemColumn, 'name'],
    ]);
    return { byItem, summary: companionSummary(found, used, rows) };
  }
  // Across: one column per category, named on the header row, its items below it.
  const categories = found.headers.map((h, i) => (i === 0 ? null : h.trim() || null));
  for (const row of sheet.rows()) {
    if (row.row <= found.row || row.cells.every(isBlank)) continue;
    rows += 1;
    row.cells.forEach((cell, i) => {
      const category = categories[i];
      const item = text(cell);
      if (category != null && item !== null) addTo(byItem, item, category);
    });
  }
  const used = new Map<number, string>([[0, 'category']]);
  categories.forEach((category, i) => {
    if (category !== null) used.set(i, 'name');
  });
  return { byItem, summary: companionSummary(found, used, rows) };
};

const COLUMNS = {
  group: ['modifier group name', 'modifier group', 'group name'],
  modifier: ['modifier', 'modifier name'],
  price: ['price', 'modifier price'],
  min: ['min required', 'minimum required', 'required quantity', 'min', 'minimum'],
  max: ['max allowed', 'maximum allowed', 'max quantity', 'max', 'maximum'],
} as const;

/** A group's minimum or maximum: a whole number ≥ 0, or null (blank or refused). */
const count = (value: CellValue | undefined): number | null | undefined => {
  if (isBlank(value)) return null;
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  return Number.isInteger(n) && n >= 0 ? n : undefined;
};

/** Reads the Modifier Groups sheet, or returns null when it has no group and modifier columns. */
export const readCloverModifierGroups = (
  sheet: WorkbookSheet,
  ctx: WorkbookContext,
): CloverModifierGroups | null => {
  const found = findHeader(
    sheet,
    (normalised) =>
      indexOfHeader(normalised, COLUMNS.group) >= 0 && indexOfHeader(normalised, COLUMNS.modifier) >= 0,
  );
  if (found === null) return null;
  const at = Object.fromEntries(
    Object.entries(COLUMNS).map(([role, names]) => [role, indexOfHeader(found.normalised, names)]),
  ) as Record<keyof typeof COLUMNS, number>;
  const label = (index: number) => columnLabel(found.headers, index);
  const groups = new Map<
    string,
    { name: string; min: number | null; max: number | null; modifiers: DraftModifier[] }
  >();
  let current: ReturnType<typeof groups.get>;
  let rows = 0;
  for (const row of sheet.rows()) {
    if (row.row <= found.row || row.cells.every(isBlank)) continue;
    rows += 1;
    const warn = (column: number, code: Parameters<WorkbookContext['warn']>[3], message: string) =>
      ctx.warn(sheet.name, row.row, label(column), code, message);
    const groupName = text(row.cells[at.group]);
    if (groupName !== null) {
      current = groups.get(fold(groupName));
      if (current === undefined) {
        current = { name: groupName, min: null, max: null, modifiers: [] };
        groups.set(fold(groupName), current);
      }
    }
    for (const bound of ['min', 'max'] as const) {
      if (at[bound] < 0 || current === undefined) continue;
      const value = count(row.cells[at[bound]]);
      if (value === undefined) warn(at[bound], 'invalid_value', 'is not a whole number of choices; ignored');
      else if (value !== null) current[bound] = value;
    }
    const modifier = text(row.cells[at.modifier]);
    if (modifier === null) continue;
    if (current === undefined) {
      warn(at.modifier, 'incomplete_modifier', 'a modifier needs a group above it; the modifier is ignored');
      continue;
    }
    if (current.modifiers.some((m) => fold(m.name) === fold(modifier))) {
      warn(
        at.modifier,
        'duplicate_modifier',
        `duplicate modifier ${JSON.stringify(modifier)} in group ${JSON.stringify(current.name)}; ignored`,
      );
      continue;
    }
    const cell =
      at.price < 0 ? { kind: 'empty' as const } : parsePriceCell(row.cells[at.price] ?? null, ctx.currency);
    if (cell.kind === 'invalid')
      warn(at.price, cell.code, `${cell.message}; the modifier is kept without a price`);
    current.modifiers.push({ name: modifier, price: cell.kind === 'price' ? cell.price : null });
  }
  const used = new Map<number, string>();
  const fields = {
    group: 'modifier_group',
    modifier: 'modifier',
    price: 'modifier_price',
    min: 'modifier_min',
    max: 'modifier_max',
  };
  for (const [role, index] of Object.entries(at))
    if (index >= 0) used.set(index, fields[role as keyof typeof fields]);
  return { byName: groups, summary: companionSummary(found, used, rows) };
};

/** True for a sheet name that is Clover's categories sheet, or its modifier groups sheet. */
export const isCategoriesSheet = (name: string): boolean => /^categor(?:y|ies)$/.test(normaliseHeader(name));
export const isModifierGroupsSheet = (name: string): boolean =>
  /^modifier(?: groups?)?s?$/.test(normaliseHeader(name));
