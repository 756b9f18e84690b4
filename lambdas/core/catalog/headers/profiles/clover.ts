import { fold } from '../../assembly/identity';
import type { DraftModifierGroup, DraftVariant } from '../../draft';
import { rowCells } from '../../rows/row-cells';
import type { RowReader, TableContext } from '../../rows/types';
import { singleVariant } from '../../rows/variant-prices';
import type { TableRow, Workbook } from '../../sources/types';
import type { Field } from '../aliases';
import { normaliseHeader } from '../normalise';
import {
  type CloverCategories,
  type CloverModifierGroups,
  isCategoriesSheet,
  isModifierGroupsSheet,
  readCloverCategories,
  readCloverModifierGroups,
} from './clover-sheets';
import { roleNames, signatureFits } from './header-table';
import { columnFields, type Profile, profileColumns, providedFields } from './profile';
import { CLOVER_HEADERS } from './tables/clover';
import {
  type CompanionSheet,
  findHeader,
  SKIPPED_SHEET,
  type WorkbookContext,
  type WorkbookProfile,
  type WorkbookReading,
} from './workbook';

/**
 * Clover's inventory export (Web Dashboard → Inventory → Items → Export): an XLSX workbook whose `Items`
 * sheet has one row per item — `Name`, `Price` (in the currency's units), `Price Type` (`Fixed`;
 * `Variable`: priced at sale, whatever `Price` says; `Per Unit`: `Price` is per `Price Unit`, such as
 * `lb`), `Product Code` (the UPC/EAN), `SKU`, `Modifier Groups` (the names of the item's groups) — and no
 * category: the `Categories` sheet lists the items of each category, and the `Modifier Groups` sheet the
 * modifiers of each group (clover-sheets.ts). `Tax Rates` is not part of the catalog. Clover ids, the
 * alternate (kitchen) name, cost, stock, printer labels and visibility flags are Clover's own settings.
 * The Items sheet alone (saved as CSV) is read the same way, its categories then unknown and its modifier
 * groups kept by name without modifiers.
 */

const TABLE = roleNames(CLOVER_HEADERS);

type Role = keyof typeof TABLE;

/** Name, Price and Price Type beside a column only Clover's Items sheet has (tables/clover.ts). */
const isItemsHeader = (headers: ReadonlySet<string>): boolean => signatureFits(CLOVER_HEADERS, headers);

interface Companions {
  readonly categories: CloverCategories | null;
  readonly modifierGroups: CloverModifierGroups | null;
}

const NO_COMPANIONS: Companions = { categories: null, modifierGroups: null };

const open =
  (companions: Companions) =>
  (headers: readonly string[], ctx: TableContext): RowReader => {
    const map = profileColumns(headers, TABLE);
    const cells = rowCells(headers, ctx);
    const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
    const [NAME, PRICE, PRICE_TYPE, PRICE_UNIT, SKU, GTIN, GROUPS, CATEGORY, DESCRIPTION] = [
      col('name'),
      col('price'),
      col('price_type'),
      col('price_unit'),
      col('sku'),
      col('gtin'),
      col('modifier_group'),
      col('category'),
      col('description'),
    ];
    const label = (columns: readonly number[], fallback: string) =>
      columns[0] === undefined ? fallback : cells.label(columns[0]);

    const categoryOf = (row: TableRow, name: string): readonly string[] => {
      const own = cells.categoryPath(row, CATEGORY);
      if (own !== null) return own;
      const listed = companions.categories?.byItem.get(fold(name)) ?? [];
      if (listed.length > 1) {
        ctx.warn(
          row.row,
          label(NAME, 'Name'),
          'several_categories',
          `the item is in ${listed.length} categories on the Categories sheet; the first (${listed[0]}) is used`,
        );
      }
      return listed[0] === undefined ? ctx.defaultCategory : [listed[0]];
    };

    const groupsOf = (row: TableRow): DraftModifierGroup[] => {
      const names = (cells.text(row, GROUPS) ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      return names.map((name) => {
        const group = companions.modifierGroups?.byName.get(fold(name));
        if (group !== undefined) return group;
        if (companions.modifierGroups !== null) {
          ctx.warn(
            row.row,
            label(GROUPS, 'Modifier Groups'),
            'incomplete_modifier',
            `modifier group ${JSON.stringify(name)} is not on the Modifier Groups sheet; kept without modifiers`,
          );
        }
        return { name, modifiers: [] };
      });
    };

    const variantOf = (row: TableRow): DraftVariant => {
      const base = { sku: cells.text(row, SKU), gtin: cells.gtin(row, GTIN) };
      const type = normaliseHeader(cells.text(row, PRICE_TYPE) ?? 'fixed');
      if (type === 'variable') return singleVariant({ kind: 'variable' }, base);
      if (type !== 'fixed' && type !== 'per unit') {
        ctx.warn(
          row.row,
          label(PRICE_TYPE, 'Price Type'),
          'invalid_value',
          `${JSON.stringify(cells.text(row, PRICE_TYPE))} is not a Clover price type (Fixed, Variable, Per Unit); read as Fixed`,
        );
      }
      const { cell } = cells.priceOf(row, PRICE, ctx.currency);
      return singleVariant(cell, { ...base, unit: type === 'per unit' ? cells.text(row, PRICE_UNIT) : null });
    };

    return {
      profile: 'clover',
      columns: columnFields(map),
      provides: providedFields(map),
      row(row, emit) {
        const name = cells.text(row, NAME);
        if (name === null) {
          ctx.warn(row.row, label(NAME, 'Name'), 'missing_name', 'the row has no Name; skipped');
          return;
        }
        emit({
          kind: 'item',
          categoryPath: categoryOf(row, name),
          name,
          description: cells.description(row, DESCRIPTION),
          optionNames: [],
          variants: [variantOf(row)],
          modifierGroups: groupsOf(row),
          provenance: { source: ctx.source, row: row.row, sheet: ctx.sheet },
        });
      },
      end() {},
    };
  };

/** The Items sheet on its own (a CSV saved from it, a workbook without the other sheets). */
export const cloverProfile: Profile = {
  name: 'clover',
  matches: isItemsHeader,
  open: open(NO_COMPANIONS),
};

const TAX_SHEET = /^tax(?:es| rates?)$/;

/**
 * The whole workbook: recognised by its Items sheet; the Categories and Modifier Groups sheets are read
 * first and bound to the Items sheet's reader; Tax Rates is skipped.
 */
export const cloverWorkbookProfile: WorkbookProfile = {
  name: 'clover',
  open(workbook: Workbook, ctx: WorkbookContext): WorkbookReading | null {
    const items = workbook.sheets.find(
      (sheet) => findHeader(sheet, (normalised) => isItemsHeader(new Set(normalised))) !== null,
    );
    if (items === undefined) return null;
    const sheets = new Map<string, CompanionSheet>();
    let categories: CloverCategories | null = null;
    let modifierGroups: CloverModifierGroups | null = null;
    for (const sheet of workbook.sheets) {
      if (sheet === items) continue;
      if (categories === null && isCategoriesSheet(sheet.name)) {
        categories = readCloverCategories(sheet);
        if (categories === null) {
          ctx.warn(
            sheet.name,
            null,
            null,
            'invalid_value',
            'the Categories sheet has no `Category Name` column; the items are read without categories',
          );
        }
        sheets.set(sheet.name, categories?.summary ?? SKIPPED_SHEET);
      } else if (modifierGroups === null && isModifierGroupsSheet(sheet.name)) {
        modifierGroups = readCloverModifierGroups(sheet, ctx);
        if (modifierGroups === null) {
          ctx.warn(
            sheet.name,
            null,
            null,
            'incomplete_modifier',
            'the Modifier Groups sheet has no modifier group and modifier columns; groups are kept without modifiers',
          );
        }
        sheets.set(sheet.name, modifierGroups?.summary ?? SKIPPED_SHEET);
      } else if (TAX_SHEET.test(normaliseHeader(sheet.name))) {
        sheets.set(sheet.name, SKIPPED_SHEET);
      }
    }
    const bound: Profile = { ...cloverProfile, open: open({ categories, modifierGroups }) };
    return { profiles: [bound], sheets };
  },
};
