import type { Line } from './layout';
import type { PricedLine } from './priced-lines';

/**
 * Dish names set on a line of their own, in a style of their own (larger, bold or capitals), above a
 * description whose last line carries the price:
 *
 *     BIG GREEK SALAD                      <- the name style
 *     Feta, tomatoes, cucumber, peppers,
 *     red onion and olives ........ £3.75  <- description and price
 *
 * Which style names the dishes is learnt from the menu itself: the style of the line just above the
 * description lines of most priced lines. A heading is a line in another style (or a line in the name style
 * followed by a list of priced lines, each a dish of its own: `Sides` over `fries $6`, `rice $6`).
 */

/**
 * A line's width per character (its cells' widths over their characters, a space between words counted
 * once): the size of its letters as set, whatever the height of the box around them.
 */
export const letterPitch = (line: Line): number => {
  const width = line.cells.reduce((sum, c) => sum + c.width, 0);
  const characters = line.cells.reduce((sum, c) => sum + c.text.trim().replace(/\s+/g, ' ').length, 0);
  return characters > 0 ? width / characters : 0;
};

/**
 * `line` set smaller than `name` (by 8 %). Where OCR measured both, by the height of their boxes, the letters
 * must be narrower too: glare, blur or a loose box make a line's box taller, not its letters wider.
 */
export const smallerLetters = (line: Line, name: Line): boolean =>
  line.fontSize < name.fontSize * 0.92 &&
  (line.confidence === undefined ||
    name.confidence === undefined ||
    letterPitch(line) < letterPitch(name) * 0.92);

/** A line's style: size (to half a point), weight, slant, capitals. */
export const styleKey = (line: Line): string =>
  `${Math.round(line.fontSize * 2) / 2}|${line.bold}|${line.italic}|${line.caps >= 0.8}`;

/** `below` is the next line down in the same flow, close enough to belong with `above`. */
export const isBelow = (above: Line, below: Line): boolean =>
  above.page === below.page &&
  above.flow === below.flow &&
  below.y >= above.y + above.height * 0.5 &&
  below.y - (above.y + above.height) <= Math.max(above.height, below.height) * 1.1;

/** Same size (within `sizeTolerance`, 8 % unless told), weight and slant: lines of one paragraph. */
export const sameStyle = (a: Line, b: Line, sizeTolerance = 0.08): boolean =>
  Math.abs(a.fontSize - b.fontSize) <= Math.max(a.fontSize, b.fontSize) * sizeTolerance &&
  a.bold === b.bold &&
  a.italic === b.italic;

/**
 * Smaller, italic, lighter or lower-case compared with the name line: a description. A line in capitals
 * under one in lower case is not (`the B.L.A.T. $9` under `roasted garlic bacon mayo`: a dish under the last
 * line of another's description, its name starting with a lower-case article).
 */
export const looksLikeDescription = (line: Line, name: Line): boolean =>
  !(line.caps >= 0.5 && name.caps < 0.3) &&
  (smallerLetters(line, name) ||
    (line.italic && !name.italic) ||
    (name.bold && !line.bold) ||
    /^[\p{Ll}(]/u.test(line.text));

/**
 * Set apart from a name line by style alone: smaller, italic, lighter, or not in the name's capitals. (Only
 * where the menu's name style is learnt from many dishes: capitals alone also mark headings.)
 */
export const styledBelow = (line: Line, name: Line): boolean =>
  line.fontSize < name.fontSize * 0.92 ||
  (line.italic && !name.italic) ||
  (name.bold && !line.bold) ||
  (name.caps >= 0.8 && line.caps < 0.5 && /\p{L}{3}/u.test(name.text));

/** Description lines above a priced line, at most this many (the priced line is the last of them). */
const MAX_DESCRIPTION_LINES = 5;
/** Share of the menu's named priced lines that must sit under a name line for the style to name dishes. */
const NAMED_SHARE = 0.5;

/**
 * The index of the name line above the priced line at `index` (walking up through description lines in the
 * priced line's style), or undefined when the line above is not set apart from them by its style.
 */
export const nameAbove = (
  priced: readonly PricedLine[],
  index: number,
  isPriced: (p: PricedLine) => boolean,
): number | undefined => {
  const last = priced[index]!.line;
  let j = index - 1;
  while (
    j >= 0 &&
    index - j < MAX_DESCRIPTION_LINES &&
    !isPriced(priced[j]!) &&
    isBelow(priced[j]!.line, priced[j + 1]!.line) &&
    sameStyle(priced[j]!.line, last) &&
    !styledBelow(last, priced[j]!.line)
  )
    j--;
  const name = priced[j];
  if (!name || isPriced(name) || !isBelow(name.line, priced[j + 1]!.line)) return undefined;
  return styledBelow(last, name.line) ? j : undefined;
};

/**
 * The styles that name the dishes of this menu: the style of the name line above the description of at least
 * half of its priced lines with text, and seldom (under half as often) over a list of dishes, which is
 * what a heading does. Empty when the menu puts its names on the price line.
 */
export const nameStyles = (
  priced: readonly PricedLine[],
  isPriced: (p: PricedLine) => boolean,
): Set<string> => {
  const counts = new Map<string, number>();
  let dishes = 0;
  priced.forEach((p, index) => {
    if (!isPriced(p) || p.label === '') return;
    dishes++;
    const name = nameAbove(priced, index, isPriced);
    if (name === undefined) return;
    const key = styleKey(priced[name]!.line);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  const lists = new Map<string, number>();
  priced.forEach((p, index) => {
    const key = styleKey(p.line);
    if (!isPriced(p) && counts.has(key) && headsList(priced, index, isPriced))
      lists.set(key, (lists.get(key) ?? 0) + 1);
  });
  return new Set(
    [...counts]
      .filter(([key, n]) => n >= 2 && n >= dishes * NAMED_SHARE && n > 2 * (lists.get(key) ?? 0))
      .map(([key]) => key),
  );
};

/**
 * Whether the line at `index` (in a name style) heads a list of dishes rather than naming one: after it come
 * two priced lines in a row, one under the other in the same style, with no name line between them.
 */
export const headsList = (
  priced: readonly PricedLine[],
  index: number,
  isPriced: (p: PricedLine) => boolean,
): boolean => {
  let j = index + 1;
  while (j < priced.length && !isPriced(priced[j]!) && j - index < MAX_DESCRIPTION_LINES) j++;
  const first = priced[j];
  const second = priced[j + 1];
  return (
    first !== undefined &&
    second !== undefined &&
    isPriced(second) &&
    second.label !== '' &&
    isBelow(first.line, second.line) &&
    sameStyle(first.line, second.line)
  );
};
