import { DOLLAR_CURRENCIES } from '../prices';
import type { Cell, Line } from './layout';
import { type PriceToken, readLinePrices } from './line-prices';
import type { Box } from './text-runs';

/** A line with its prices read: cells that are only prices first (right to left), then the text's end. */
export interface PricedLine {
  readonly line: Line;
  readonly label: string;
  readonly prices: readonly (PriceToken & {
    readonly box: Box;
    readonly confidence?: number;
    /** The OCR text as read, when it was corrected (`17:75` read as 17.75). */
    readonly readAs?: string;
  })[];
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
    const text = ocrDollar(ocrDecimal(last), last, currency);
    const read = readLinePrices(text, currency);
    if (read.label !== '' || read.prices.length === 0) break;
    const confidence = minConfidence(last.runs);
    const readAs = text === last.text ? {} : { readAs: last.text };
    fromCells.unshift(...read.prices.map((p) => ({ ...p, box: last, ...confidence, ...readAs })));
    cells.pop();
  }
  const read = cells
    .map((c, i) => (i === 0 ? withoutTrailingLeaders(c) : withoutLeaderNoise(c)))
    .filter(Boolean)
    .join('  ');
  const tail = cells.at(-1);
  // A dollar sign read as `S` at the end of the text, after the name (never a line's first word: `S4` there
  // is a dish number).
  const text = tail && /\S\s+\S+$/.test(read) ? ocrDollar(read, tail, currency) : read;
  const rest = readLinePrices(text, currency);
  const restBoxes = rest.prices.map((p) => {
    // The run holding the token, for its box and OCR confidence; else the last cell.
    const token = p.text.split(/\s/).at(-1) ?? p.text;
    const run = tail?.runs.findLast(
      (r) => r.text.includes(token) || r.text.includes(token.replace('$', 'S')),
    );
    const box = run ?? tail ?? line;
    const readAs = text !== read && run?.text.includes('S') ? { readAs: run.text } : {};
    return { ...p, box, ...minConfidence(run ? [run] : (tail?.runs ?? [])), ...readAs };
  });
  return {
    line,
    label: rest.label,
    prices: [...restBoxes, ...fromCells],
    weak: fromCells.length === 0 && rest.weak,
    notAPrice: rest.notAPrice,
  };
};

/**
 * OCR reads the dot leaders of a photographed menu as words it is unsure of (`ales neal nia iii`): after the
 * name, words OCR gives less than this confidence are dropped unless they look like a price.
 */
const LEADER_NOISE = 0.4;

const withoutLeaderNoise = (cell: Cell): string =>
  cell.runs
    .filter((r) => r.confidence === undefined || r.confidence >= LEADER_NOISE || /\d/.test(r.text))
    .map((r) => r.text)
    .join(' ');

/**
 * Leader dots OCR read after a name (`Style .........c..oiue`): words holding them are dropped, and dots
 * glued to the name's last word (`Fried Rice..`) are taken off it, the word kept.
 */
const withoutTrailingLeaders = (cell: Cell): string => {
  const words = cell.runs.map((r) => r.text);
  while (words.length > 1 && /[.·…_]{2,}/u.test(words.at(-1)!)) {
    const glued = /^(.*[\p{L}\d)])[.·…_]{2,}$/u.exec(words.at(-1)!)?.[1];
    if (glued !== undefined && !/[.·…_]{2,}/u.test(glued)) {
      words[words.length - 1] = glued;
      break;
    }
    words.pop();
  }
  return words.join(' ') === cell.runs.map((r) => r.text).join(' ') ? cell.text : words.join(' ');
};

/**
 * OCR reads the decimal point of a small price as a colon (`17:75`): in a cell of its own, read by OCR and
 * holding nothing but that number, it is read as a decimal point. The price stays unconfirmed (menu-draft).
 */
const ocrDecimal = (cell: Cell): string =>
  cell.runs.every((r) => r.confidence !== undefined) && /^[$€£]?\d{1,3}[:;]\d{2}\s?[$€£]?$/u.test(cell.text)
    ? cell.text.replace(/[:;]/, '.')
    : cell.text;

/**
 * OCR reads the `$` of a display font as an `S` (`S4`, `S7.75`, `+S2.5`): on a menu priced in a dollar
 * currency, a word of the cell's OCR runs at the end of the text that is `S` and an amount is read as a price
 * in dollars. The price stays unconfirmed (menu-draft: `OCR read "S4", taken as $4`).
 */
const ocrDollar = (text: string, cell: Cell, currency: string): string =>
  DOLLAR_CURRENCIES.includes(currency) && cell.runs.every((r) => r.confidence !== undefined)
    ? text.replace(/(^|\s)(\+?)S(\d{1,4}(?:[.,]\d{1,2})?)$/u, '$1$2$$$3')
    : text;

const minConfidence = (runs: readonly { confidence?: number }[]): { confidence?: number } => {
  const values = runs.flatMap((r) => (r.confidence === undefined ? [] : [r.confidence]));
  return values.length > 0 ? { confidence: Math.min(...values) } : {};
};
