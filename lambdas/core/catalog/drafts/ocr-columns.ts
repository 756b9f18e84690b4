import { groupRows, type Line, type Row, rebuildLines } from './layout';
import { isPriceText } from './line-prices';
import { median, type PageGeometry, type TextRun } from './text-runs';

/**
 * Columns of a photographed menu kept apart before the layout rebuild (issue 23). A photo taken at an
 * angle (perspective, a curled page) has no straight empty gutter between its columns, so the layout's
 * XY-cut finds none and reads `Fish and Chips $9.00   Triton Cheeseburger $8` as one line. What a photo
 * does keep is the word boxes' geometry: on rows where a dish of the left column ends in its price, a wide
 * gap follows and the next column's dish starts with a word. Those gaps, row after row, lie along one line
 * (slanted as the photo is); the runs left and right of that line are two columns, read one after the
 * other, and rows that cross it (a title, a heading over both columns) interrupt them. Each part is then
 * rebuilt by the layout on its own, so headings apply within their column.
 */

/** A gap this wide (in the row's text heights) after a price, before a word, may be a column boundary. */
const PRICE_GAP = 1;
/** A gap between two words this wide (in text heights) supports a boundary found by the price gaps. */
const WORD_GAP = 3;
/** Words of one phrase are closer than this (in text heights): a row whose words run on across a boundary. */
const PHRASE_GAP = 0.6;
/** A boundary needs this many rows with a price gap on it, and this many gaps in all. */
const MIN_PRICE_GAPS = 2;
const MIN_GAPS = 3;
/** Steepest boundary (horizontal pixels per vertical pixel): a photo tilted ~11°. */
const MAX_SLOPE = 0.2;
/** Columns within columns: at most this deep. */
const MAX_DEPTH = 3;

/** Where a boundary may pass on one row: the gap between two runs. */
interface Gap {
  readonly y: number;
  readonly from: number;
  readonly to: number;
  readonly afterPrice: boolean;
}

/** A boundary `x = x0 + slope × (y − y0)`. */
interface Boundary {
  readonly x0: number;
  readonly y0: number;
  readonly slope: number;
}

const centreY = (r: TextRun): number => r.y + r.height / 2;
const xAt = (b: Boundary, y: number): number => b.x0 + b.slope * (y - b.y0);

const startsWithWord = (text: string): boolean => /^\p{L}/u.test(text.trim());
/**
 * Whether a text is a price, remembered: the search for a column boundary asks it of the same rows' texts
 * for every candidate line (on a page of 500 lines, the price grammar was a fifth of the page's drafting).
 * Bounded, so that a long-lived worker does not keep every text it has seen.
 */
const priceTexts = new Map<string, boolean>();
const PRICE_TEXTS_KEPT = 20_000;
const isPrice = (text: string, currency: string): boolean => {
  if (!/\d/.test(text)) return false;
  const key = `${currency} ${text}`;
  let known = priceTexts.get(key);
  if (known === undefined) {
    if (priceTexts.size >= PRICE_TEXTS_KEPT) priceTexts.clear();
    known = isPriceText(text, currency);
    priceTexts.set(key, known);
  }
  return known;
};

const rowGaps = (runs: readonly TextRun[], currency: string): Gap[] => {
  const gaps: Gap[] = [];
  for (const row of groupRows(runs)) {
    const height = median(row.runs.map((r) => r.height));
    row.runs.forEach((run, i) => {
      const next = row.runs[i + 1];
      if (!next || !startsWithWord(next.text)) return;
      const from = run.x + run.width;
      const width = next.x - from;
      const afterPrice = isPrice(run.text, currency);
      if (width >= (afterPrice ? PRICE_GAP : WORD_GAP) * height)
        gaps.push({ y: (row.top + row.bottom) / 2, from, to: next.x, afterPrice });
    });
  }
  return gaps;
};

const through = (b: Boundary, gap: Gap): boolean => {
  const x = xAt(b, gap.y);
  return x > gap.from && x < gap.to;
};

const straddles = (b: Boundary, run: TextRun): boolean => {
  const x = xAt(b, centreY(run));
  return run.x < x && run.x + run.width > x;
};

const isLeftOf = (b: Boundary, r: TextRun): boolean => r.x + r.width / 2 < xAt(b, centreY(r));

/**
 * A row the boundary would cut from its price: words left of it and no price there, nothing but prices right
 * of it, one price (`Tiramisu … € 8.00` on a one-column page whose prices stand far right). Columns of dishes each end
 * in their own price; a line through a dish's name-to-price gap is no gutter.
 */
const cutsFromPrice = (
  b: Boundary,
  runs: readonly TextRun[],
  currency: string,
  priced: (run: TextRun) => boolean = (r) => isPrice(r.text, currency),
): boolean => {
  // Asked of every row for every candidate line (columnBoundary): the cheap refusal first (a price left of
  // the line), and the right side's text joined only when it could still be one price.
  let left = 0;
  for (const r of runs) {
    if (!isLeftOf(b, r)) continue;
    if (priced(r)) return false;
    left++;
  }
  if (left === 0 || left === runs.length) return false;
  return isPrice(
    runs
      .filter((r) => !isLeftOf(b, r))
      .map((r) => r.text)
      .join(' '),
    currency,
  );
};

/**
 * A row crosses the boundary where a run straddles it, where it runs on across it (a phrase's word gap), or
 * where the boundary would cut a dish from its price (cutsFromPrice).
 */
const crosses = (b: Boundary, runs: readonly TextRun[], currency: string): boolean => {
  if (runs.some((r) => straddles(b, r))) return true;
  if (cutsFromPrice(b, runs, currency)) return true;
  const isLeft = (r: TextRun) => isLeftOf(b, r);
  const before = runs.filter(isLeft).at(-1);
  const after = runs.find((r) => !isLeft(r));
  if (!before || !after) return false;
  return after.x - (before.x + before.width) < PHRASE_GAP * Math.min(before.height, after.height);
};

/**
 * The runs a boundary straddles and the rows it would cut from their prices, counted up to `limit` (a count
 * that reaches it is returned as it stands: the line is no better than one already found). On a page of 500
 * lines a thousand lines may pass through the most gaps, most of them crossing many runs: counted to the end,
 * each row's texts looked up again for each, they took 0.2 s of the page's drafting.
 */
const crossings = (
  b: Boundary,
  runs: readonly TextRun[],
  rows: readonly Row[],
  priced: (run: TextRun) => boolean,
  currency: string,
  limit: number,
): number => {
  let crossed = 0;
  for (const run of runs) if (straddles(b, run) && ++crossed >= limit) return crossed;
  for (const row of rows)
    if (cutsFromPrice(b, row.runs, currency, priced) && ++crossed >= limit) return crossed;
  return crossed;
};

/**
 * The line through the most gaps (at least MIN_GAPS, MIN_PRICE_GAPS of them after a price) that the fewest
 * runs straddle; undefined when there is none, or when it would cross more (runs it straddles, rows it would
 * cut from their prices) than it keeps apart.
 */
export const columnBoundary = (runs: readonly TextRun[], currency: string): Boundary | undefined => {
  const gaps = rowGaps(runs, currency);
  const anchors = gaps.filter((g) => g.afterPrice);
  if (anchors.length < MIN_PRICE_GAPS) return undefined;
  const candidates: Boundary[] = [];
  for (const a of anchors) {
    const mid = (a.from + a.to) / 2;
    candidates.push({ x0: mid, y0: a.y, slope: 0 });
    for (const b of anchors) {
      if (b.y <= a.y) continue;
      const slope = ((b.from + b.to) / 2 - mid) / (b.y - a.y);
      if (Math.abs(slope) <= MAX_SLOPE) candidates.push({ x0: mid, y0: a.y, slope });
    }
  }
  // The most gaps first (cheap to count); what the line crosses only for the lines with that many (a page
  // of 500 lines has thousands of candidate lines, and a crossing counts every run).
  let most = 0;
  const counted = candidates.map((boundary) => {
    const on = gaps.filter((g) => through(boundary, g));
    const prices = on.filter((g) => g.afterPrice).length;
    const fit = on.length >= MIN_GAPS && prices >= MIN_PRICE_GAPS;
    if (fit) most = Math.max(most, on.length);
    return { boundary, gaps: fit ? on.length : 0 };
  });
  const rows = groupRows(runs);
  const prices = new Set(runs.filter((r) => isPrice(r.text, currency)));
  const priced = (r: TextRun) => prices.has(r);
  let best: { boundary: Boundary; gaps: number; crossed: number } | undefined;
  for (const { boundary, gaps: on } of counted) {
    if (on === 0 || on < most) continue;
    const crossed = crossings(
      boundary,
      runs,
      rows,
      priced,
      currency,
      best?.crossed ?? Number.POSITIVE_INFINITY,
    );
    if (!best || crossed < best.crossed) best = { boundary, gaps: on, crossed };
  }
  // A boundary that more rows cross than keep apart is no column gutter.
  return best && best.crossed <= best.gaps ? best.boundary : undefined;
};

/**
 * The runs of one OCR page as groups in reading order: the columns either side of each boundary (left
 * first), interrupted by rows that cross it, each column split again where it has columns of its own.
 */
export const ocrColumnGroups = (runs: readonly TextRun[], currency: string, depth = 0): TextRun[][] => {
  const boundary = depth < MAX_DEPTH ? columnBoundary(runs, currency) : undefined;
  if (!boundary) return [[...runs]];
  const groups: TextRun[][] = [];
  let left: TextRun[] = [];
  let right: TextRun[] = [];
  let crossing: TextRun[] = [];
  const flush = () => {
    if (crossing.length > 0) groups.push(crossing);
    crossing = [];
    if (left.length > 0) groups.push(...ocrColumnGroups(left, currency, depth + 1));
    if (right.length > 0) groups.push(...ocrColumnGroups(right, currency, depth + 1));
    left = [];
    right = [];
  };
  for (const row of groupRows(runs)) {
    if (crosses(boundary, row.runs, currency)) {
      // Rows that cross the boundary one after the other (a title of two lines) stay one group.
      if (left.length > 0 || right.length > 0) flush();
      crossing.push(...row.runs);
      continue;
    }
    if (crossing.length > 0) flush();
    for (const run of row.runs) {
      if (isLeftOf(boundary, run)) left.push(run);
      else right.push(run);
    }
  }
  flush();
  return groups;
};

/**
 * The lines of every page in reading order (layout.ts), the columns of pages read by OCR first kept apart
 * (`ocrColumnGroups`). Text-layer pages go to the layout as they are.
 */
export const rebuildPageLines = (
  runs: readonly TextRun[],
  pages: readonly PageGeometry[],
  currency: string,
): Line[] => {
  const ocrPages = new Set(pages.filter((p) => p.method === 'ocr').map((p) => p.page));
  const numbers = [...new Set(runs.map((r) => r.page))].sort((a, b) => a - b);
  const lines: Line[] = [];
  for (const page of numbers) {
    const pageRuns = runs.filter((r) => r.page === page);
    if (!ocrPages.has(page)) {
      lines.push(...rebuildLines(pageRuns));
      continue;
    }
    let flows = 0;
    for (const group of ocrColumnGroups(pageRuns, currency)) {
      const rebuilt = rebuildLines(group);
      const offset = flows;
      for (const line of rebuilt) lines.push({ ...line, flow: offset + line.flow });
      flows = offset + Math.max(-1, ...rebuilt.map((l) => l.flow)) + 1;
    }
  }
  return lines;
};
