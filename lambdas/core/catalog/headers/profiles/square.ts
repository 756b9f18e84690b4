import type { DraftItem, DraftVariant } from '../../draft';
import { rowCells } from '../../rows/row-cells';
import type { DraftSink, RowReader, TableContext } from '../../rows/types';
import { singleVariant } from '../../rows/variant-prices';
import type { TableRow } from '../../sources/types';
import type { Field } from '../aliases';
import { normaliseHeader } from '../normalise';
import { roleNames, signatureFits } from './header-table';
import {
  columnFields,
  nameColumnLabel,
  optionNamesOf,
  type Profile,
  profileColumns,
  providedFields,
  skippedNameless,
} from './profile';
import { SQUARE_HEADERS } from './tables/square';

/**
 * Square's item library export (Items → Export library): one row per item variation. Rows with the same
 * `Item Name` in a run are one item; `Variation Name` names the variant (`Regular` on an item sold in one
 * form means no name), `Price` may be `variable` (priced at sale), `Option Name N` / `Option Value N` are
 * the variant's options. Per-location columns (`Enabled [Main St]`, `Current Quantity Main St`,
 * `Price Main St`, …), taxes and modifier sets are Square's own settings and are ignored (and listed).
 * Category: `Categories` (the first, when several), else `Category`, else `Reporting Category`.
 */

/** Square's columns in each language its Dashboard exports in: tables/square.ts. */
const TABLE = roleNames(SQUARE_HEADERS);

type Role = keyof typeof TABLE;

/** Square's per-location and per-tax columns: never the base columns, whatever their location is called. */
const LOCATION_COLUMN =
  /^(?:enabled|current quantity|new quantity|stock alert enabled|stock alert count|price|tax|modifier set|online sale price|sellable|stockable|skip detail screen in pos)\b/;
const BASE = new Set(Object.values(TABLE).flat().map(normaliseHeader));

const DEFAULT_VARIATION = /^(?:regular|default|standard|normal)$/i;

interface Item {
  readonly name: string;
  readonly firstRow: number;
  description: string | null;
  categoryPath: string[] | null;
  readonly variants: { variant: DraftVariant; defaultName: boolean }[];
}

const open = (headers: readonly string[], ctx: TableContext): RowReader => {
  const map = profileColumns(headers, TABLE, {
    skip: (normalised) => !BASE.has(normalised) && LOCATION_COLUMN.test(normalised),
  });
  const cells = rowCells(headers, ctx);
  const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
  const [NAME, VARIANT, SKU, GTIN, DESCRIPTION, CATEGORY, PRICE] = [
    col('name'),
    col('variant'),
    col('sku'),
    col('gtin'),
    col('description'),
    col('category'),
    col('price'),
  ];
  const OPTIONS = [1, 2, 3].map(
    (n) => [col(`option_name_${n}` as Role), col(`option_value_${n}` as Role)] as const,
  );
  let current: Item | null = null;

  const flush = (emit: DraftSink) => {
    const item = current;
    current = null;
    if (item === null) return;
    const single = item.variants.length === 1;
    const variants = item.variants.map(({ variant, defaultName }) =>
      single && defaultName && Object.keys(variant.options ?? {}).length === 0
        ? { ...variant, name: null }
        : variant,
    );
    const draft: DraftItem = {
      kind: 'item',
      categoryPath: item.categoryPath ?? ctx.defaultCategory,
      name: item.name,
      description: item.description,
      optionNames: optionNamesOf(variants),
      variants,
      provenance: { source: ctx.source, row: item.firstRow, sheet: ctx.sheet },
    };
    emit(draft);
  };

  const categoryOf = (row: TableRow): string[] | null => {
    const index = cells.first(row, CATEGORY);
    if (index < 0) return null;
    const text = cells.text(row, [index]) ?? '';
    const names = text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (names.length > 1) {
      ctx.warn(
        row.row,
        cells.label(index),
        'several_categories',
        `the item is in ${names.length} categories; the first (${names[0]}) is used`,
      );
    }
    return names.length === 0 ? null : [names[0] as string];
  };

  return {
    profile: 'square',
    columns: columnFields(map),
    provides: providedFields(map),
    row(row, emit) {
      const name = cells.text(row, NAME);
      if (
        skippedNameless(
          name,
          ctx,
          row.row,
          nameColumnLabel(cells, NAME, 'Item Name'),
          'the row has no Item Name; skipped',
        )
      )
        return;
      if (current === null || current.name !== name) {
        flush(emit);
        current = { name, firstRow: row.row, description: null, categoryPath: null, variants: [] };
      }
      const item = current;
      item.description ??= cells.description(row, DESCRIPTION);
      item.categoryPath ??= categoryOf(row);
      const options: Record<string, string> = {};
      for (const [names, values] of OPTIONS) {
        const optionName = cells.text(row, names);
        const value = cells.text(row, values);
        if (optionName !== null && value !== null) options[optionName] = value;
      }
      const variationName = cells.text(row, VARIANT);
      const { cell } = cells.priceOf(row, PRICE, ctx.currency);
      item.variants.push({
        variant: {
          ...singleVariant(cell, {
            name: variationName,
            sku: cells.text(row, SKU),
            gtin: cells.gtin(row, GTIN),
          }),
          options,
        },
        defaultName: variationName === null || DEFAULT_VARIATION.test(variationName),
      });
    },
    end(emit) {
      flush(emit);
    },
  };
};

export const squareProfile: Profile = {
  name: 'square',
  matches: (headers) => signatureFits(SQUARE_HEADERS, headers),
  open,
};
