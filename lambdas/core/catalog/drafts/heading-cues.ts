import type { Line } from './layout';
import type { PricedLine } from './priced-lines';
import { median, unionBox } from './text-runs';

/**
 * Where a line sits, and what repeats, tell a heading from the other lines without prices (issue 23), where
 * size, weight and case do not (an OCR'd line's height depends on its descenders as much as on its type):
 * - a short line centred over a column of dishes that are set flush left is the column's heading
 *   (`soups` over `Cream of Tomato Soup  80`), whatever its size or case;
 * - a short text that recurs under dish after dish on one page (a row of allergen icons read as `CIG`,
 *   `8 CIG`, `BCIG`) is a mark, not a heading: a menu does not repeat a section heading three times;
 * - a short line set over the prices of the dishes below it (`klein  groß` over `7,40  9,40`) names those
 *   prices (sizes), it heads no section;
 * - a note in parentheses, or a list (two commas or more: `Choice Top Round, Cheese, Lettuce, Tomato`), is
 *   never a heading.
 */

/** Lines looked at below a heading candidate for the dishes it stands over. */
const LOOK_AHEAD = 6;
/** A repeated text is a mark when it occurs this often (near-identically) on one page. */
const MARK_REPEATS = 3;
/** Marks are short: icons read as letters, `V`, `GF`, `(v)`. */
const MARK_LETTERS = 8;

/** The words of a text (runs of non-space). */
export const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/** Two commas or more: a list of things (ingredients), which names no dish and heads no section. */
export const isList = (text: string): boolean => (text.match(/,/g) ?? []).length >= 2;

/**
 * Contact details: a phone number or opening hours (eight digits or more, as many as its letters or more:
 * `Tel: (717) 436-9863`, `11:30 - 22:00`), a web or mail address.
 */
export const isContact = (text: string): boolean => {
  const digits = text.match(/\d/g)?.length ?? 0;
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  return (
    (digits >= 8 && digits >= letters) || /(?:https?:\/\/|www\.)\S|[\w.+-]+@[\w-]+\.\p{L}{2,}/iu.test(text)
  );
};

/**
 * A parenthesised note, a list of things or contact details: text that is never a section heading (a
 * restaurant's phone number set large at the top of its menu names no category).
 */
export const neverHeading = (text: string): boolean => {
  const trimmed = text.trim();
  return trimmed.startsWith('(') || isList(trimmed) || isContact(trimmed);
};

const shortHeadingText = (text: string): boolean => {
  const trimmed = text.trim();
  return (
    trimmed.length <= 40 &&
    words(trimmed) <= 6 &&
    /\p{L}{2}/u.test(trimmed) &&
    !/[,;:.]$/.test(trimmed) &&
    !neverHeading(trimmed)
  );
};

const overlapsAcross = (a: Line, b: Line): boolean => a.x < b.x + b.width && b.x < a.x + a.width;

/**
 * The priced lines under `priced[index]` on its page (within a few lines), that reach across it: the dishes
 * a heading there would stand over.
 */
const dishesBelow = (
  priced: readonly PricedLine[],
  index: number,
  hasPrice: (p: PricedLine) => boolean,
): PricedLine[] => {
  const line = priced[index]!.line;
  return priced
    .slice(index + 1, index + 1 + LOOK_AHEAD)
    .filter(
      (q) => q.line.page === line.page && q.line.y > line.y && hasPrice(q) && overlapsAcross(q.line, line),
    );
};

/** A line without a price that is a note in parentheses, or a row of short labels (`Pt.  Qt.`, `Small  Large`). */
const isSubtitle = (p: PricedLine): boolean => {
  if (p.prices.length > 0) return false;
  const cells = p.line.cells;
  return (
    /^\(.*\)$/.test(p.line.text.trim()) ||
    (cells.length >= 2 && cells.every((c) => c.text.length <= 24 && words(c.text) <= 3))
  );
};

/**
 * A short line without a price, centred over the flush-left column of dishes that starts right under it (or
 * under its note and size labels: isSubtitle): the next line is one of those dishes, two or more of them start at one left edge, and the line starts
 * well inside that edge (indented by two of its heights) with its centre on the column's centre.
 */
export const centredOverDishes = (
  priced: readonly PricedLine[],
  index: number,
  hasPrice: (p: PricedLine) => boolean,
): boolean => {
  const p = priced[index]!;
  // Between a heading and its first dish there may stand a note in parentheses or the size labels.
  let first = index + 1;
  while (first <= index + 2 && priced[first] !== undefined && isSubtitle(priced[first]!)) first++;
  const next = priced[first];
  if (hasPrice(p) || p.notAPrice !== null || !shortHeadingText(p.line.text)) return false;
  if (!next || !hasPrice(next) || next.line.page !== p.line.page) return false;
  const column = dishesBelow(priced, index, hasPrice);
  if (column.length < 2 || !column.includes(next)) return false;
  const lefts = column.map((q) => q.line.x);
  const height = p.line.height;
  const left = median(lefts);
  // Flush left, two thirds of them at least: not the odd indented line (a long name's second line and prices).
  const aligned = lefts.filter((x) => Math.abs(x - left) <= height / 2).length;
  if (aligned < 2 || aligned * 3 < lefts.length * 2) return false;
  const width = median(column.map((q) => q.line.width));
  const centre = median(column.map((q) => q.line.x + q.line.width / 2));
  const ownCentre = p.line.x + p.line.width / 2;
  return (
    p.line.x >= left + 2 * height &&
    p.line.width <= 0.7 * width &&
    Math.abs(ownCentre - centre) <= 0.1 * width
  );
};

/** True when `a` becomes `b` by at most one inserted, deleted or replaced letter. */
const withinOneEdit = (a: string, b: string): boolean => {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
};

/**
 * Lines without prices whose short text recurs near-identically (letters compared, case and digits
 * ignored) three times or more on one page: marks set under the dishes (icons, diet letters), not headings.
 */
export const repeatedMarks = (
  priced: readonly PricedLine[],
  hasPrice: (p: PricedLine) => boolean,
): Set<PricedLine> => {
  const candidates = priced
    .filter((p) => !hasPrice(p))
    .map((p) => ({ p, key: p.line.text.replace(/[^\p{L}]/gu, '').toLowerCase() }))
    .filter((c) => c.key.length > 0 && c.key.length <= MARK_LETTERS);
  const marks = new Set<PricedLine>();
  for (const c of candidates) {
    const alike = candidates.filter((d) => d.p.line.page === c.p.line.page && withinOneEdit(c.key, d.key));
    if (alike.length >= MARK_REPEATS) marks.add(c.p);
  }
  return marks;
};

/**
 * A short line without a price whose whole width lies over the prices of the next priced line (within a few
 * lines, on its right side rather than over its name): the labels of that price column (`klein  groß` over
 * `7,40  9,40`), not a heading. Undefined when the line is not set over prices; else its words as one label
 * per price, each centred on its price, or no labels when its words are not one per price.
 */
export const overPriceColumn = (
  priced: readonly PricedLine[],
  index: number,
  hasPrice: (p: PricedLine) => boolean,
): { labels: { text: string; centre: number }[] | undefined } | undefined => {
  const p = priced[index]!;
  if (hasPrice(p) || p.notAPrice !== null) return undefined;
  const text = p.line.text.trim();
  if (text.length > 30 || !/\p{L}|\d/u.test(text)) return undefined;
  const below = priced
    .slice(index + 1, index + 4)
    .find((q) => hasPrice(q) && q.line.page === p.line.page && q.line.y > p.line.y);
  if (!below || below.prices.length === 0) return undefined;
  const boxes = below.prices.map((t) => t.box).sort((a, b) => a.x - b.x);
  const prices = unionBox(boxes);
  const slack = Math.max(p.line.height, prices.height);
  // Only where the prices' own boxes are known (a run of their own, right of the name), not the whole line's.
  const overPrices =
    prices.x >= below.line.x + below.line.width * 0.4 &&
    p.line.x >= prices.x - slack &&
    p.line.x + p.line.width <= prices.x + prices.width + slack &&
    p.line.x >= below.line.x + below.line.width * 0.4;
  if (!overPrices) return undefined;
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length !== boxes.length) return { labels: undefined };
  return { labels: words.map((word, i) => ({ text: word, centre: boxes[i]!.x + boxes[i]!.width / 2 })) };
};
