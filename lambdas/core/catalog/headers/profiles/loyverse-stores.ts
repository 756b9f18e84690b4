import type { PriceCell } from '../../rows/prices';
import type { RowCells } from '../../rows/row-cells';
import type { TableContext } from '../../rows/types';
import type { TableRow } from '../../sources/types';

/**
 * Loyverse's per-store columns (help.loyverse.com, "Exporting and Importing Items": multi-store items):
 * `Available for sale [<store>]` (Y/N), `Price [<store>]` (the price at that store; empty: the price is
 * entered at the till), `In stock [<store>]`, `Low stock [<store>]`, `Optimal stock [<store>]`. A file
 * with one store may name the columns without it (`Price`, `Available for sale`).
 */

/** Each per-store column's name in the export's languages (English, Spanish, Portuguese, French). */
const STORE_KINDS = {
  available: [
    'available for sale',
    'disponibles? para la venta',
    'dispon[ií]vel para venda',
    'disponible [àa] la vente',
  ],
  price: ['price', 'precio', 'pre[çc]o', 'prix'],
  in_stock: ['in stock', 'en inventario', 'em estoque', 'en stock'],
  low_stock: ['low stock', 'existencias bajas', 'estoque baixo', 'stock bas'],
  optimal_stock: ['optimal stock', 'stock [óo]ptimo', 'estoque ideal', 'stock optimal'],
} as const;

type StoreKind = keyof typeof STORE_KINDS;

const KIND_NAMES: readonly (readonly [StoreKind, RegExp])[] = Object.entries(STORE_KINDS).map(
  ([kind, names]) => [kind as StoreKind, new RegExp(`^(?:${names.join('|')})$`, 'iu')] as const,
);

export const STORE_COLUMN = new RegExp(
  `^\\s*(${Object.values(STORE_KINDS).flat().join('|')})\\s*(?:\\[(.*)\\])?\\s*$`,
  'iu',
);

/** Which per-store column a header's name is (`Precio` → price). */
const kindOf = (name: string): StoreKind | undefined =>
  KIND_NAMES.find(([, pattern]) => pattern.test(name))?.[0];

export interface Store {
  readonly name: string;
  /** Column indices, or -1. */
  available: number;
  price: number;
}

/** The stores the header names, in header order, with their availability and price columns. */
export const storesOf = (headers: readonly string[]): Store[] => {
  const stores = new Map<string, Store>();
  headers.forEach((header, index) => {
    const match = STORE_COLUMN.exec(header);
    if (match === null) return;
    const kind = kindOf((match[1] as string).trim());
    if (kind !== 'available' && kind !== 'price') return;
    const name = (match[2] ?? '').trim();
    const store = stores.get(name) ?? { name, available: -1, price: -1 };
    if (kind === 'price') store.price = index;
    else store.available = index;
    stores.set(name, store);
  });
  return [...stores.values()];
};

const YES = /^(?:y|yes|true|1)$/i;
const NO = /^(?:n|no|false|0)$/i;

/** `Y`/`N` as true/false; null for blank or anything else (then the store is not ruled out). */
export const yesNo = (cells: RowCells, row: TableRow, column: number): boolean | null => {
  if (column < 0) return null;
  const value = cells.text(row, [column]);
  if (value === null) return null;
  return YES.test(value) ? true : NO.test(value) ? false : null;
};

/**
 * The price of a variant row: the price at the first store that sells it (the first, in header order,
 * whose price cell is filled, else the first that sells it), with a warning when another store that sells
 * it charges a different price; `null` when no store sells it. An empty price is priced at the till.
 */
export const storePrice = (
  stores: readonly Store[],
  cells: RowCells,
  row: TableRow,
  ctx: TableContext,
): PriceCell | null => {
  const selling = stores.filter((s) => yesNo(cells, row, s.available) !== false);
  if (selling.length === 0) return null;
  const priced = selling.filter((s) => s.price >= 0);
  const chosen = priced.find((s) => cells.first(row, [s.price]) >= 0) ?? priced[0];
  if (chosen === undefined) return { kind: 'empty' };
  const cell = cells.price(row, chosen.price, ctx.currency);
  if (cell.kind !== 'price') return cell;
  for (const other of priced) {
    if (other === chosen || cells.first(row, [other.price]) < 0) continue;
    const theirs = cells.price(row, other.price, ctx.currency);
    if (
      theirs.kind === 'price' &&
      (theirs.price.amount !== cell.price.amount || theirs.price.currency !== cell.price.currency)
    ) {
      ctx.warn(
        row.row,
        cells.label(other.price),
        'conflicting_values',
        `the price at ${other.name} differs from the price at ${chosen.name}; ${cells.label(chosen.price)} is used`,
      );
      break;
    }
  }
  return cell;
};
