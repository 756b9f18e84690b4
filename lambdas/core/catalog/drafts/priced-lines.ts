import type { Line } from './layout';
import { type PriceToken, readLinePrices } from './line-prices';
import type { Box } from './text-runs';

/** A line with its prices read: cells that are only prices first (right to left), then the text's end. */
export interface PricedLine {
  readonly line: Line;
  readonly label: string;
  readonly prices: readonly (PriceToken & { readonly box: Box; readonly confidence?: number })[];
  /** Only bare numbers stuck to the text (`Pizza 12`): a price only if the menu writes prices that way. */
  readonly weak: boolean;
  readonly notAPrice: string | null;
}

/**
 * Reads the prices of one rebuilt line. Whole cells that are prices (right-aligned prices, size columns)
 * are taken from the right; then prices written at the end of the remaining text (`Soup ..... 6.50`).
 */
export const readPricedLine = (line: Line, currency: string): PricedLine => {
  const cells = [...line.cells];
  const fromCells: PricedLine['prices'][number][] = [];
  while (cells.length > 1) {
    const last = cells.at(-1)!;
    const read = readLinePrices(last.text, currency);
    if (read.label !== '' || read.prices.length === 0) break;
    const confidence = minConfidence(last.runs);
    fromCells.unshift(...read.prices.map((p) => ({ ...p, box: last, ...confidence })));
    cells.pop();
  }
  const text = cells.map((c) => c.text).join('  ');
  const rest = readLinePrices(text, currency);
  const tail = cells.at(-1);
  const restBoxes = rest.prices.map((p) => {
    // The run holding the token, for its box and OCR confidence; else the last cell.
    const run = tail?.runs.findLast((r) => r.text.includes(p.text.split(/\s/).at(-1) ?? p.text));
    const box = run ?? tail ?? line;
    return { ...p, box, ...minConfidence(run ? [run] : (tail?.runs ?? [])) };
  });
  return {
    line,
    label: rest.label,
    prices: [...restBoxes, ...fromCells],
    weak: fromCells.length === 0 && rest.weak,
    notAPrice: rest.notAPrice,
  };
};

const minConfidence = (runs: readonly { confidence?: number }[]): { confidence?: number } => {
  const values = runs.flatMap((r) => (r.confidence === undefined ? [] : [r.confidence]));
  return values.length > 0 ? { confidence: Math.min(...values) } : {};
};
