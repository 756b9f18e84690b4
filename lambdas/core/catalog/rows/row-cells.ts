import type { DraftImage } from '../draft';
import { columnLabel } from '../headers/columns';
import { bracketed } from '../headers/normalise';
import { headerCurrencyOf } from '../headers/price-words';
import { isCurrencyCode } from '../money';
import { parsePrice } from '../prices';
import type { TableRow } from '../sources/types';
import { type BarcodeResult, parseBarcode } from './barcodes';
import {
  CONTROL,
  categoryPath,
  cellCalories,
  cellDescription,
  cellImages,
  cellTags,
  cellText,
  isBlank,
} from './cells';
import { type PriceCell, parsePriceCell } from './prices';
import type { TableContext } from './types';

/**
 * Cell readers bound to one table: each reads the first non-blank of a field's columns (the preferred
 * column, then its fallbacks) and reports what it cannot use as a warning naming the row and the column.
 * Shared by the generic row normalisers and the platform profiles.
 */
export interface RowCells {
  /** The column's name for warnings and results. */
  label(index: number): string;
  /** Index of the first of `columns` with a value in this row, or -1. */
  first(row: TableRow, columns: readonly number[]): number;
  text(row: TableRow, columns: readonly number[]): string | null;
  description(row: TableRow, columns: readonly number[]): string | null;
  tags(row: TableRow, columns: readonly number[]): readonly string[];
  calories(row: TableRow, columns: readonly number[]): number | null;
  images(row: TableRow, columns: readonly number[]): DraftImage[];
  /**
   * The images of every group (each read like `images`: its first non-empty column), in group order,
   * each URL once.
   */
  gallery(row: TableRow, groups: readonly (readonly number[])[]): DraftImage[];
  categoryPath(row: TableRow, columns: readonly number[]): string[] | null;
  /** A barcode: the GTIN, or null (empty or refused, with a warning). */
  gtin(row: TableRow, columns: readonly number[]): string | null;
  /** A price cell; `invalid` already warned about. */
  price(row: TableRow, column: number, currency: string, several?: boolean): PriceCell;
  /** The first non-blank price among `columns`, warning when a fallback column disagrees. */
  priceOf(
    row: TableRow,
    columns: readonly number[],
    currency: string,
    several?: boolean,
  ): { cell: PriceCell; column: number };
}

export const rowCells = (headers: readonly string[], ctx: TableContext): RowCells => {
  const labels = headers.map((_, i) => columnLabel(headers, i));
  const label = (index: number) => labels[index] ?? `(column ${index + 1})`;
  const warn = (row: TableRow, index: number, code: Parameters<TableContext['warn']>[2], message: string) =>
    ctx.warn(row.row, label(index), code, message);

  const first = (row: TableRow, columns: readonly number[]): number => {
    for (const index of columns) if (!isBlank(row.cells[index])) return index;
    return -1;
  };

  const text = (row: TableRow, columns: readonly number[]): string | null => {
    const index = first(row, columns);
    if (index < 0) return null;
    const value = row.cells[index];
    if (typeof value === 'string' && !CONTROL.test(value)) return value.trim();
    const read = cellText(value);
    if (read.ok) return read.value;
    warn(row, index, 'invalid_value', `${read.message}; ignored`);
    return null;
  };

  const gtinOf = (row: TableRow, index: number): BarcodeResult | null => {
    const value = row.cells[index];
    if (typeof value === 'number' || typeof value === 'string') return parseBarcode(value);
    warn(row, index, 'invalid_gtin', 'is not a barcode; ignored');
    return null;
  };

  const price = (row: TableRow, column: number, currency: string, several = false): PriceCell => {
    const cell = parsePriceCell(row.cells[column] ?? null, currency, { several });
    if (cell.kind === 'invalid')
      warn(row, column, cell.code, `${cell.message}; the item is kept without this price`);
    return cell;
  };

  const images = (row: TableRow, columns: readonly number[]): DraftImage[] => {
    const index = first(row, columns);
    if (index < 0) return [];
    const read = cellImages(row.cells[index]);
    for (const url of read.refused) {
      warn(
        row,
        index,
        'invalid_url',
        `${JSON.stringify(url.slice(0, 80))} is not an absolute http(s) URL; ignored`,
      );
    }
    return read.images;
  };

  return {
    label,
    first,
    text,
    description: (row, columns) => {
      const index = first(row, columns);
      if (index < 0) return null;
      const read = cellDescription(row.cells[index]);
      if (read.ok) return read.value;
      warn(row, index, 'invalid_value', `${read.message}; ignored`);
      return null;
    },
    tags: (row, columns) => {
      const index = first(row, columns);
      return index < 0 ? [] : cellTags(row.cells[index]);
    },
    calories: (row, columns) => {
      const index = first(row, columns);
      if (index < 0) return null;
      const read = cellCalories(row.cells[index]);
      if (read.ok) return read.value;
      warn(row, index, 'invalid_calories', `${read.message}; ignored`);
      return null;
    },
    images,
    gallery: (row, groups) => {
      if (groups.length === 1) return images(row, groups[0] as readonly number[]);
      const seen = new Set<string>();
      const all: DraftImage[] = [];
      for (const group of groups) {
        for (const image of images(row, group)) {
          if (seen.has(image.url)) continue;
          seen.add(image.url);
          all.push(image);
        }
      }
      return all;
    },
    categoryPath: (row, columns) => {
      const value = text(row, columns);
      return value === null ? null : categoryPath(value);
    },
    gtin: (row, columns) => {
      let chosen: { index: number; gtin14: string; gtin: string } | null = null;
      for (const index of columns) {
        if (isBlank(row.cells[index])) continue;
        const parsed = gtinOf(row, index);
        if (parsed === null) continue;
        if (!parsed.ok) {
          warn(row, index, parsed.code, `${parsed.message}; ignored`);
          continue;
        }
        if (chosen === null) chosen = { index, gtin14: parsed.gtin14, gtin: parsed.gtin };
        else if (chosen.gtin14 !== parsed.gtin14) {
          warn(
            row,
            index,
            'conflicting_values',
            `${parsed.gtin} differs from ${label(chosen.index)} ${chosen.gtin}; ${label(chosen.index)} used`,
          );
        }
      }
      return chosen?.gtin ?? null;
    },
    price,
    priceOf: (row, columns, currency, several = false) => {
      const index = first(row, columns);
      if (index < 0) return { cell: { kind: 'empty' }, column: -1 };
      const cell = price(row, index, currency, several);
      return { cell, column: index };
    },
  };
};

/**
 * Category paths read with `cells`, each distinct text split once: a table repeats a few categories on
 * every row. The paths are shared between drafts, so they are frozen.
 */
export const categoryPaths = (cells: RowCells) => {
  const known = new Map<string, readonly string[]>();
  return (row: TableRow, columns: readonly number[]): readonly string[] | null => {
    const text = cells.text(row, columns);
    if (text === null) return null;
    let path = known.get(text);
    if (path === undefined) {
      path = Object.freeze(categoryPath(text));
      if (known.size < 10_000) known.set(text, path);
    }
    return path;
  };
};

/**
 * The currency a price header names (`Preis (CHF)`, `Price (€)`, `Preis in EUR`, `price_yen`), or null.
 *
 * @example headerCurrency('Price (€)', 'USD') // 'EUR'
 */
export const headerCurrency = (header: string | undefined, fallback: string): string | null => {
  if (header === undefined) return null;
  const inBrackets = bracketed(header);
  if (inBrackets !== null && /^[^\d]{1,5}$/.test(inBrackets)) {
    const parsed = parsePrice(`1 ${inBrackets}`, fallback);
    if (parsed.ok) return parsed.price.currency;
  }
  // `Preis in EUR`, `price_yen`, `Price (in CAD)`: headers/price-words.ts.
  return headerCurrencyOf(header, fallback) ?? null;
};

/**
 * The currency of a row: its currency column when it holds an ISO 4217 code (else a warning), else the
 * currency the price header names, else the job's.
 */
export const rowCurrency =
  (cells: RowCells, columns: readonly number[], ctx: TableContext, priceHeader?: string) =>
  (row: TableRow): string => {
    const fallback = headerCurrency(priceHeader, ctx.currency) ?? ctx.currency;
    if (columns.length === 0) return fallback;
    const text = cells.text(row, columns);
    if (text === null) return fallback;
    const code = text.toUpperCase();
    if (/^[A-Z]{3}$/.test(code) && isCurrencyCode(code)) return code;
    ctx.warn(
      row.row,
      cells.label(columns[0] as number),
      'unknown_currency',
      `${JSON.stringify(text)} is not an ISO 4217 code; ${fallback} assumed`,
    );
    return fallback;
  };
