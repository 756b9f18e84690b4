import type { DraftVariant } from '../draft';
import type { PriceCell } from './prices';

/**
 * Turns what a row says about prices into variants: one price (or a market price), several prices in one
 * cell, or one price column per size. Pure; the caller warns about what it refused.
 */

export interface VariantBase {
  readonly name?: string | null;
  readonly sku?: string | null;
  readonly gtin?: string | null;
  readonly size?: string | null;
  readonly unit?: string | null;
}

/** One variant from one price cell (empty and refused cells give a variant without a price). */
export const singleVariant = (cell: PriceCell, base: VariantBase): DraftVariant => ({
  // Written out (no spread): one object shape for every variant keeps the hot path monomorphic.
  name: base.name ?? null,
  sku: base.sku ?? null,
  gtin: base.gtin ?? null,
  size: base.size ?? null,
  unit: base.unit ?? null,
  price: cell.kind === 'price' ? cell.price : null,
  pricing: cell.kind === 'variable' ? 'variable' : 'fixed',
});

export interface SeveralPrices {
  readonly variants: DraftVariant[];
  /** True when some prices had no label from the cell or the header (they are numbered). */
  readonly unlabelled: boolean;
}

/**
 * Several prices of one cell as variants named by their labels: the cell's own (`Glass 11 / Bottle 42`),
 * else the header's (`Price (glass / bottle)`), else numbered (`1`, `2`) and reported.
 */
export const severalVariants = (
  cell: Extract<PriceCell, { kind: 'prices' }>,
  headerLabels: readonly string[] | null,
  base: VariantBase,
): SeveralPrices => {
  const fromHeader =
    headerLabels !== null && headerLabels.length === cell.prices.length ? headerLabels : null;
  let unlabelled = false;
  const variants: DraftVariant[] = [];
  cell.prices.forEach((p, i) => {
    if (p.price === null) return;
    let label = p.label ?? fromHeader?.[i] ?? null;
    if (label === null) {
      unlabelled = true;
      label = String(i + 1);
    }
    variants.push({ ...base, name: label, options: { Size: label }, price: p.price, pricing: 'fixed' });
  });
  return { variants, unlabelled };
};

/** A variant of a per-size price column (`Small (10")` → name `Small`, size `10"`). */
export const sizedVariant = (
  cell: PriceCell,
  column: { readonly label: string; readonly size: string | null },
  base: VariantBase,
): DraftVariant | null => {
  if (cell.kind !== 'price' && cell.kind !== 'variable') return null;
  const named = {
    ...base,
    name: column.label,
    options: { Size: column.label },
    size: column.size ?? base.size ?? null,
  };
  return cell.kind === 'price'
    ? { ...named, price: cell.price, pricing: 'fixed' }
    : { ...named, price: null, pricing: 'variable' };
};
