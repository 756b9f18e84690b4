import { currencyDecimals } from '../../lambdas/core/catalog';

/** As much of a catalog document (format 2, SPEC 5.5) as the table shows. */
export interface CatalogLike {
  readonly currency?: string;
  readonly categories?: readonly { id: string; name: string; parent_id?: string | null; sort?: number }[];
  readonly items?: readonly {
    name: string;
    category_id?: string | null;
    variants: readonly {
      name?: string | null;
      options?: Readonly<Record<string, string>>;
      sku?: string | null;
      gtin?: string | null;
      price?: { amount: number; currency: string } | null;
      pricing?: string;
    }[];
  }[];
}

/** 1250 USD → `12.50 USD`; a market price `variable`; none `—`. */
const priceText = (
  price: { amount: number; currency: string } | null | undefined,
  pricing: string | undefined,
): string => {
  if (pricing === 'variable') return 'variable';
  if (!price) return '—';
  const decimals = currencyDecimals(price.currency);
  const whole = (price.amount / 10 ** decimals).toFixed(decimals);
  return `${whole} ${price.currency}`;
};

/** Terminal width of a string (characters; wide scripts are not measured, only counted). */
const width = (text: string): number => [...text].length;
const pad = (text: string, to: number): string => text + ' '.repeat(Math.max(0, to - width(text)));

/**
 * A catalog for people, one line per variant: category path, item, variant (its name or options), price,
 * SKU and GTIN, in the document's order, columns aligned; then the counts.
 */
export const catalogTable = (catalog: CatalogLike): string => {
  const categories = new Map((catalog.categories ?? []).map((c) => [c.id, c]));
  const pathOf = (id: string | null | undefined): string => {
    const names: string[] = [];
    const seen = new Set<string>();
    for (let at = id ?? null; at && !seen.has(at); at = categories.get(at)?.parent_id ?? null) {
      seen.add(at);
      names.unshift(categories.get(at)?.name ?? '?');
    }
    return names.join(' > ');
  };
  const rows: string[][] = [];
  let variantCount = 0;
  for (const item of catalog.items ?? []) {
    for (const [i, variant] of item.variants.entries()) {
      variantCount += 1;
      const options = Object.values(variant.options ?? {}).join(' / ');
      rows.push([
        i === 0 ? pathOf(item.category_id) : '',
        i === 0 ? item.name : '',
        variant.name ?? options,
        priceText(variant.price, variant.pricing),
        variant.sku ?? '',
        variant.gtin ?? '',
      ]);
    }
  }
  const header = ['Category', 'Item', 'Variant', 'Price', 'SKU', 'GTIN'];
  const widths = header.map((h, c) => Math.max(width(h), ...rows.map((r) => width(r[c]!))));
  const line = (cells: string[]) =>
    cells
      .map((cell, c) =>
        c === 3 ? ' '.repeat(Math.max(0, widths[c]! - width(cell))) + cell : pad(cell, widths[c]!),
      )
      .join('  ')
      .trimEnd();
  const items = catalog.items?.length ?? 0;
  return [
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `${items} item${items === 1 ? '' : 's'}, ${variantCount} variant${variantCount === 1 ? '' : 's'}, ` +
      `${categories.size} categor${categories.size === 1 ? 'y' : 'ies'}`,
    '',
  ].join('\n');
};
