import type { DraftItem, DraftVariant } from '../draft';
import {
  headsList,
  isBelow,
  letterPitch,
  looksLikeDescription,
  nameStyles,
  sameStyle,
  styledBelow,
  styleKey,
} from './dish-names';
import type { DraftWarning } from './draft-result';
import {
  centredOverDishes,
  isList,
  neverHeading,
  overPriceColumn,
  repeatedMarks,
  words,
} from './heading-cues';
import type { Cell, Line } from './layout';
import { nameParts, scriptLettersOf } from './name-scripts';
import { type PricedLine, readPricedLine } from './priced-lines';
import { type Box, median, type PageGeometry, relativeBox, type TextRun, unionBox } from './text-runs';

/**
 * Rebuilt lines → drafted dishes. Prices anchor the dishes: a line ending in one or more prices is a dish
 * (its name is the text before them, or the line above when the price stands alone or the text is styled
 * as a description). Lines without prices are section headings (larger, bold or capitals compared with the
 * dish names, and short), size headings (short labels above columns of prices: `Small  Medium  Large`),
 * descriptions (the lines just under a dish, in its column), or text a person must place (a warning).
 */

export interface DraftContext {
  readonly source: string;
  readonly sourceIndex: number;
  readonly currency: string;
  readonly pages: readonly PageGeometry[];
  /** The job's language (`en_us`): a name in two scripts keeps the part in its script. */
  readonly language?: string;
}

interface Heading {
  readonly text: string;
  readonly level: number;
}

interface Open {
  readonly first: PricedLine;
  readonly name: string;
  readonly nameLine: Line;
  description: string[];
  readonly lines: Line[];
  readonly priced: PricedLine;
  readonly doubts: string[];
  /** The dish's portions, a priced line each (`- 6 pièces … 12`, `- 12 pièces … 18,50`): its variants. */
  portions?: readonly PricedLine[];
}

/** An OCR'd price is trusted this much at most unless its word is clear and looks like the menu's other prices. */
const OCR_PRICE_CAP = 0.5;
const OCR_CONFIRMED_CAP = 0.85;

const isShortLabel = (text: string): boolean =>
  text.length <= 24 && words(text) <= 3 && /\p{L}|\d/u.test(text);

/**
 * The size labels of `cells` for `count` prices: a cell each, or a word each where the words of fewer cells
 * than prices make as many labels as prices (`Pt. Qt.` set close together over two prices).
 */
const sizeWords = (cells: readonly Cell[], count: number): { text: string; centre: number }[] => {
  const labels = cells.map((c) => ({ text: c.text, centre: c.x + c.width / 2 }));
  if (labels.length >= count) return labels;
  const words = cells.flatMap((c) => c.runs.map((r) => ({ text: r.text, centre: r.x + r.width / 2 })));
  return words.length === count ? words : labels;
};

/** Size headings (`Small  Large`, `Glass  Bottle`): two or more short cells and no price. */
const sizeLabels = (line: PricedLine): { text: string; centre: number }[] | undefined => {
  if (line.prices.length > 0) return undefined;
  const cells = line.line.cells;
  const labels = cells.length >= 2 && cells.every((c) => isShortLabel(c.text)) ? cells : undefined;
  return labels?.map((c) => ({ text: c.text, centre: c.x + c.width / 2 }));
};

export const draftMenu = (
  lines: readonly Line[],
  context: DraftContext,
): { items: DraftItem[]; warnings: DraftWarning[] } => {
  const priced = lines.map((line) => readPricedLine(line, context.currency));
  const withPrices = priced.filter((p) => p.prices.length > 0 && !p.weak);
  const weakLines = priced.filter((p) => p.weak);
  // Bare numbers are prices when the menu writes its prices that way (several lines, a good share of them).
  const acceptWeak =
    weakLines.length >= 2 && weakLines.length >= 0.3 * (withPrices.length + weakLines.length);
  /**
   * Where the page's clear prices stand. A bare number stuck to a name (`Brussels Sprouts 5`) standing among
   * them — its left edge, centre or right edge within a line's height of those of two or more of them (a price
   * column aligned any way) — is a price whose currency sign or decimals OCR lost (`$5` read `5`), not a
   * heading; the dish keeps the doubt of a bare number (its confidence low, for the operations team).
   */
  const priceBoxes = withPrices.flatMap((p) =>
    p.prices.map((price) => ({ page: p.line.page, box: price.box })),
  );
  const edges = (box: Box): number[] => [box.x, box.x + box.width / 2, box.x + box.width];
  const standsWithPrices = (p: PricedLine): boolean => {
    const last = p.prices.at(-1);
    if (!last) return false;
    const mine = edges(last.box);
    const near = priceBoxes.filter(
      (c) =>
        c.page === p.line.page && edges(c.box).some((edge, i) => Math.abs(edge - mine[i]!) <= p.line.height),
    );
    return near.length >= 2;
  };
  const hasPrice = (p: PricedLine): boolean =>
    p.prices.length > 0 && (!p.weak || acceptWeak || standsWithPrices(p));
  const dishLines = priced.filter((p) => hasPrice(p) && p.label !== '');
  const indexOf = new Map(priced.map((p, i) => [p, i]));
  const bodySize = median(dishLines.map((p) => p.line.fontSize)) || median(lines.map((l) => l.fontSize));
  /** The dish lines' letter pitch, where OCR read them (letterPitch). */
  const bodyPitch = median(
    dishLines.filter((p) => p.line.confidence !== undefined).map((p) => letterPitch(p.line)),
  );
  /** Where the dishes of each flow start: the left edges of its priced lines with a name. */
  const dishEdges = new Map<string, number[]>();
  for (const q of dishLines) {
    const key = `${q.line.page}|${q.line.flow}`;
    (dishEdges.get(key) ?? dishEdges.set(key, []).get(key)!).push(q.line.x);
  }
  /**
   * A dish name that ran out of room and goes on, indented, in the priced line under it (`Wonton & Egg Drop` /
   * `    Mixed Soup ....... 3.50  4.75`): the line above starts where two or more of its flow's dishes start,
   * the priced line right of that edge by a hanging indent (half a line's height to six), in the same style,
   * and the line above is a few words that do not end a sentence.
   */
  const hangsUnder = (above: Line, priced: PricedLine): boolean => {
    const below = priced.line;
    const indent = below.x - above.x;
    const edges = dishEdges.get(`${above.page}|${above.flow}`) ?? [];
    const text = above.text.trim();
    return (
      isBelow(above, below) &&
      sameStyle(above, below) &&
      indent >= above.height * 0.5 &&
      indent <= above.height * 6 &&
      edges.filter((x) => Math.abs(x - above.x) <= above.height / 2).length >= 2 &&
      words(text) <= 6 &&
      !/[.:!?;)]$/.test(text) &&
      !text.startsWith('(') &&
      !isList(text)
    );
  };
  /** `above` (a line without a price) names the dish whose name goes on in the priced line under it. */
  const runsOnto = (above: Line, priced: PricedLine): boolean =>
    priced.label !== '' && (wrapsOnto(above, priced) || hangsUnder(above, priced));

  const namesBold = dishLines.filter((p) => p.line.bold).length > dishLines.length / 2;
  const namesCaps = dishLines.filter((p) => p.line.caps > 0.8).length > dishLines.length / 2;
  const ocrPrices = priced.flatMap((p) => (hasPrice(p) ? p.prices : []));
  const decimalsUsed = ocrPrices.filter((p) => /\d[.,]\d{2}\b/.test(p.text)).length > ocrPrices.length / 2;

  // Headings told by place, and marks by repetition (heading-cues.ts).
  const centred = new Set(priced.filter((_, i) => centredOverDishes(priced, i, hasPrice)));
  const marks = repeatedMarks(priced, hasPrice);
  // Menus that set each dish's name on a line of its own, above its description and price (dish-names.ts).
  const names = nameStyles(priced, hasPrice);
  const nameLines = new Set(
    priced.filter(
      (p, i) =>
        !hasPrice(p) && !centred.has(p) && names.has(styleKey(p.line)) && !headsList(priced, i, hasPrice),
    ),
  );
  const nameSize = nameLines.size > 0 ? Math.min(...[...nameLines].map((p) => p.line.fontSize)) : 0;

  const textPages = new Set(context.pages.filter((g) => g.method === 'text').map((g) => g.page));
  const plainHeadings = new Set(
    priced.filter((p, i) => textPages.has(p.line.page) && headsDishes(priced, i, hasPrice)),
  );

  /**
   * The portions under an unpriced line (`Escargots de Bourgogne` / `- 6 pièces … 12` / `- 12 pièces …
   * 18,50`): two or more priced lines right under it, one after the other, each a portion's label and one
   * price, set at or right of its left edge. The line is their dish, not a heading.
   */
  const portionsUnder = (index: number): PricedLine[] => {
    const name = priced[index]!;
    if (hasPrice(name) || name.prices.length > 0) return [];
    const portions: PricedLine[] = [];
    let above = name.line;
    for (const q of priced.slice(index + 1, index + 1 + MAX_PORTIONS)) {
      if (!hasPrice(q) || portionLabel(q) === undefined || !isBelow(above, q.line)) break;
      if (q.line.x < name.line.x - name.line.height || q.line.page !== name.line.page) break;
      portions.push(q);
      above = q.line;
    }
    return portions.length >= 2 ? portions : [];
  };
  const namesPortions = new Set(priced.filter((_, i) => portionsUnder(i).length > 0));

  const isHeading = (p: PricedLine): boolean => {
    const { line } = p;
    if (marks.has(p) || neverHeading(line.text) || namesPortions.has(p)) return false;
    // A name that goes on, indented, in the priced line under it.
    const following = priced[indexOf.get(p)! + 1];
    if (
      following !== undefined &&
      hasPrice(following) &&
      following.label !== '' &&
      hangsUnder(line, following)
    )
      return false;
    if (centred.has(p)) return true;
    // Drawn, not written, on a page whose text is written (drawn-lines.ts): display type, a heading when short.
    if (textPages.has(line.page) && line.confidence !== undefined && !hasPrice(p) && words(line.text) <= 8)
      return true;
    if (plainHeadings.has(p) && !nameLines.has(p)) return true;
    // A heading is not set smaller than the dish names.
    if (nameLines.has(p) || line.fontSize < nameSize * 0.95) return false;
    if (hasPrice(p) || line.text.length > 60 || words(line.text) > 8 || /[,;]$/.test(line.text)) return false;
    if (!/\p{L}{2}/u.test(line.text)) return false;
    // Where OCR measured the size, by the height of a line's box, its letters must be larger too: glare, blur
    // or a detector's loose box make a dish line's box taller, not its letters wider.
    const larger =
      line.fontSize >= bodySize * 1.15 &&
      (line.confidence === undefined ||
        textPages.has(line.page) ||
        !bodyPitch ||
        letterPitch(line) >= bodyPitch * 1.15);
    const caps = line.caps >= 0.8 && line.text.replace(/[^\p{L}]/gu, '').length >= 3 && !namesCaps;
    const bold = line.bold && !namesBold && !line.italic;
    return larger || caps || bold;
  };

  const headingLines = priced.filter(isHeading);
  // OCR row heights vary more than font sizes: headings within 20% of each other are one level there.
  const tolerance = context.pages.some((g) => g.method === 'ocr') ? 0.2 : 0.08;
  let headingSizes = levelsOf(
    headingLines.map((p) => p.line.fontSize),
    tolerance,
  );
  // The menu's title: the one heading of the largest size, before any dish. It names no category.
  const firstDish = priced.findIndex((p) => hasPrice(p));
  const top = headingLines.filter(
    (p) => Math.abs(p.line.fontSize - (headingSizes[0] ?? 0)) <= (headingSizes[0] ?? 0) * tolerance,
  );
  const title =
    headingSizes.length >= 2 && top.length === 1 && priced.indexOf(top[0]!) < firstDish
      ? top[0]
      : titleOverSections(headingLines, priced, firstDish, tolerance);
  // Lines set tight under the title and centred on it (`PIZZERIA` under `FATTO A MANO`, a tagline, an
  // address) are the title's: they name no category either.
  const titleBlock = new Set<PricedLine>(title ? [title] : []);
  if (title) {
    let above = title.line;
    for (let i = priced.indexOf(title) + 1; i < (firstDish < 0 ? priced.length : firstDish); i++) {
      const p = priced[i]!;
      if (!headingLines.includes(p) || !underTitle(title.line, above, p.line)) break;
      titleBlock.add(p);
      above = p.line;
    }
    headingSizes = levelsOf(
      headingLines.filter((p) => !titleBlock.has(p)).map((p) => p.line.fontSize),
      tolerance,
    );
  }
  const items: DraftItem[] = [];
  const warnings: DraftWarning[] = [];
  const unplaced: Line[] = [];
  let path: Heading[] = [];
  let labels: { text: string; centre: number }[] | undefined;
  let open: Open | undefined;
  let pending: PricedLine | undefined;
  /** A name line (and the description lines under it) waiting for the line that carries its price. */
  let held: { first: PricedLine; name: string; description: string[]; lines: Line[] } | undefined;
  const dropHeld = () => {
    if (held) unplaced.push(...held.lines);
    held = undefined;
  };

  const close = () => {
    if (open) items.push(finish(open, path, labels, context, { decimalsUsed }));
    open = undefined;
  };
  const drop = (p: PricedLine | undefined) => {
    if (p) unplaced.push(p.line);
  };

  const skippedMarks: PricedLine[] = [];
  /** The priced heading whose price the unpriced dishes under it take (`COCKTAILS SANS ALCOOL 6,90€`). */
  let sectionPrice: PricedLine | undefined;
  /** The last heading line read, to join a heading set on two lines. */
  let headingLine: Line | undefined;
  /** Name lines read out of order, after the price on their row: taken with that price. */
  const taken = new Set<PricedLine>();
  /**
   * The line at `index` starts a dish name that runs on, line after line (continuesOnto), into the priced line
   * that ends it (runsOnto), within MAX_NAME_LINES: a name, not a description of the dish above.
   */
  const runsOnToPrice = (index: number): boolean => {
    for (let i = index; i + 1 < priced.length && i + 1 - index < MAX_NAME_LINES; i++) {
      const line = priced[i]!;
      const following = priced[i + 1]!;
      if (hasPrice(following)) return runsOnto(line.line, following);
      if (!continuesOnto(line.line, following.line, following.line.width)) return false;
    }
    return false;
  };

  priced.forEach((p, index) => {
    if (taken.has(p)) return;
    if (marks.has(p)) {
      skippedMarks.push(p);
      return;
    }
    if (namesPortions.has(p)) {
      close();
      drop(pending);
      pending = undefined;
      const portions = portionsUnder(index);
      for (const q of portions) taken.add(q);
      open = start(p, p.line.text, portions[0]!, []);
      open.portions = portions;
      open.lines.push(...portions.slice(1).map((q) => q.line));
      return;
    }
    const next = priced[index + 1];
    const heldLine = held?.lines.at(-1);
    if (
      held &&
      heldLine &&
      hasPrice(p) &&
      isBelow(heldLine, p.line) &&
      styledBelow(p.line, held.first.line)
    ) {
      close();
      drop(pending);
      pending = undefined;
      open = start(held.first, held.name, p, []);
      open.lines.splice(0, open.lines.length, ...held.lines, p.line);
      open.description.push(...held.description, ...(p.label === '' ? [] : [p.label]));
      held = undefined;
      return;
    }
    if (held && heldLine && !hasPrice(p) && isBelow(heldLine, p.line) && !isHeading(p)) {
      // A name set on two lines (`Tequila, Lime &` / `Sunshine`), else a line of the description.
      if (nameLines.has(p) && held.description.length === 0) held.name += ` ${p.line.text}`;
      else held.description.push(p.line.text);
      held.lines.push(p.line);
      return;
    }
    dropHeld();
    // A description set indented under its dish name, whatever its size: a line starting where the
    // description's last line starts, right under it (`and House Dressing`), or the first indented line
    // under the dish when the next dish starts back at the names' edge.
    const under = open?.lines.at(-1);
    const indented = open !== undefined && p.line.x >= open.nameLine.x + open.nameLine.height;
    const continues =
      under !== undefined &&
      under !== open?.nameLine &&
      under.x >= (open?.nameLine.x ?? 0) + (open?.nameLine.height ?? 0) &&
      Math.abs(p.line.x - under.x) <= under.height;
    const nextBackAtNames = next === undefined || !hasPrice(next) || next.line.x < p.line.x - p.line.height;
    if (
      open &&
      under &&
      !hasPrice(p) &&
      p.notAPrice === null &&
      !centred.has(p) &&
      open.first.line === open.priced.line &&
      indented &&
      (continues || nextBackAtNames) &&
      isBelow(under, p.line) &&
      p.line.caps < 0.8
    ) {
      open.description.push(p.line.text);
      open.lines.push(p.line);
      return;
    }
    if (nameLines.has(p)) {
      close();
      drop(pending);
      pending = undefined;
      held = { first: p, name: p.line.text, description: [], lines: [p.line] };
      return;
    }
    if (hasPrice(p) && sectionHeading(priced, index, hasPrice, { bodySize, namesCaps })) {
      close();
      drop(pending);
      pending = undefined;
      const text = p.label.replace(/\s{2,}/g, ' ');
      const last = path.at(-1);
      if (last && headingLine && isUnder(headingLine, p.line)) {
        path = [...path.slice(0, -1), { text: `${last.text} ${text}`, level: last.level }];
      } else {
        const level = headingSizes.indexOf(nearestLevel(headingSizes, p.line.fontSize));
        path = [...path.filter((h) => h.level < level), { text, level: Math.max(0, level) }];
      }
      headingLine = p.line;
      sectionPrice = p;
      labels = undefined;
      return;
    }
    if (hasPrice(p)) {
      // `selon arrivage`, `market price` alone under a dish that has its price: a description.
      const lastLine = open?.lines.at(-1);
      if (
        open &&
        lastLine &&
        p.label === '' &&
        p.prices.every((t) => t.variable) &&
        isBelow(lastLine, p.line)
      ) {
        open.description.push(p.line.text);
        open.lines.push(p.line);
        return;
      }
      close();
      // A price read before the name on its row (set a little higher than the name): the name follows.
      if (p.label === '' && next && !hasPrice(next) && sameRowBefore(p.line, next.line)) {
        drop(pending);
        pending = undefined;
        taken.add(next);
        open = start(next, next.line.text, p, []);
        return;
      }
      // A note in parentheses (`(1/3 lb. beef used)`) above a dish names no dish.
      const styledAsDescription =
        pending !== undefined &&
        !/^\(.*\)$/.test(pending.line.text.trim()) &&
        !isList(pending.line.text) &&
        p.label !== '' &&
        isBelow(pending.line, p.line) &&
        looksLikeDescription(p.line, pending.line);
      if (p.label === '' && pending && isBelow(pending.line, p.line)) {
        open = start(pending, pending.line.text, p, ['name read from the line above its price']);
      } else if (pending && runsOnto(pending.line, p)) {
        // Before a description: a line that stops mid-phrase goes on in the next.
        open = start(pending, `${pending.line.text} ${p.label}`, p, ['name joined from two lines']);
      } else if (styledAsDescription && pending) {
        open = start(pending, pending.line.text, p, []);
        open.description.push(p.label);
        open.lines.push(p.line);
      } else if (p.label === '') {
        warnings.push({
          page: p.line.page,
          code: 'unreadable_record',
          message: `a price (${p.prices.map((t) => t.text).join(' ')}) with no dish next to it was left out`,
        });
      } else {
        drop(pending);
        open = start(p, p.label, p, []);
      }
      pending = undefined;
      return;
    }
    if (p.notAPrice !== null && p.label !== '') {
      close();
      drop(pending);
      pending = undefined;
      open = start(p, p.label, p, [`"${p.notAPrice}" is not a single price: kept without one`]);
      return;
    }
    const sizes = sizeLabels(p);
    if (sizes && next && hasPrice(next) && next.prices.length >= 2) {
      close();
      drop(pending);
      pending = undefined;
      // `PIZZA      Small  Large`: a heading with the size headings on its line; a first cell that ends
      // before the prices start stands over the names (a heading, or a note: `(w. Fried Noodles)  Pt. Qt.`).
      const first = p.line.cells[0]!;
      const overNames = first.x + first.width <= Math.min(...next.prices.map((price) => price.box.x));
      if (
        (sizes.length > next.prices.length || overNames) &&
        isHeadingCell(first.runs, bodySize, namesBold, namesCaps)
      ) {
        const level = headingSizes.indexOf(nearestLevel(headingSizes, p.line.fontSize));
        path = [...path.filter((h) => h.level < level), { text: first.text, level }];
        labels = sizeWords(p.line.cells.slice(1), next.prices.length);
      } else labels = sizeWords(overNames ? p.line.cells.slice(1) : p.line.cells, next.prices.length);
      return;
    }
    const column = overPriceColumn(priced, index, hasPrice);
    if (column) {
      close();
      drop(pending);
      pending = undefined;
      if (column.labels) labels = column.labels;
      return;
    }
    const nextIsPriceOnly =
      next !== undefined && hasPrice(next) && next.label === '' && isBelow(p.line, next.line);
    const nextIsDescribedDish =
      next !== undefined &&
      hasPrice(next) &&
      next.label !== '' &&
      isBelow(p.line, next.line) &&
      looksLikeDescription(next.line, p.line);
    const namesNext = (nextIsPriceOnly || nextIsDescribedDish) && p.line.fontSize < bodySize * 1.15;
    if (titleBlock.has(p)) {
      close();
      drop(pending);
      pending = undefined;
      return;
    }
    if ((isHeading(p) && !namesNext) || centred.has(p)) {
      close();
      drop(pending);
      pending = undefined;
      const level = headingSizes.indexOf(nearestLevel(headingSizes, p.line.fontSize));
      const text = p.line.text.replace(/\s{2,}/g, ' ');
      const last = path.at(-1);
      // A heading set on two lines (`SECONDI` / `MAIN COURSE`): the line right under the last heading, of its
      // level, nothing between them, no farther below it than a line's height.
      const above = priced[index - 1]?.line;
      if (
        last?.level === level &&
        above !== undefined &&
        above === headingLine &&
        isUnder(above, p.line) &&
        p.line.y - (above.y + above.height) <= Math.min(above.height, p.line.height)
      )
        path = [...path.slice(0, -1), { text: `${last.text} ${text}`, level }];
      else path = [...path.filter((h) => h.level < level), { text, level }];
      labels = undefined;
      sectionPrice = undefined;
      headingLine = p.line;
      return;
    }
    // A dish named without a price under a heading that carries the section's price.
    if (sectionPrice && sectionPrice.line.page === p.line.page && namesUnpricedDish(p)) {
      close();
      drop(pending);
      pending = undefined;
      open = start(p, p.line.text, { ...sectionPrice, line: p.line, label: p.line.text }, [
        'price taken from the section heading',
      ]);
      return;
    }
    // A list of things (two commas or more) under a dish is its description, not the next dish's name.
    const listUnderDish = isList(p.line.text) && !nextIsPriceOnly;
    if (
      open &&
      isBelow(open.lines.at(-1)!, p.line) &&
      ((!nextIsPriceOnly && !nextIsDescribedDish) || listUnderDish) &&
      !runsOnToPrice(index)
    ) {
      open.description.push(p.label || p.line.text);
      open.lines.push(p.line);
      return;
    }
    close();
    // A dish name over three lines: the line before ran out of room and goes on in this one.
    if (pending && p.prices.length === 0 && continuesOnto(pending.line, p.line, p.line.width)) {
      pending = { ...pending, line: joinLines(pending.line, p.line) };
      return;
    }
    drop(pending);
    pending = p;
  });
  close();
  drop(pending);
  dropHeld();
  if (skippedMarks.length > 0) {
    warnings.push({
      page: null,
      code: 'unreadable_record',
      message: `${skippedMarks.length} short line(s) repeated under the dishes (e.g. "${skippedMarks[0]!.line.text.slice(0, 20)}") were left out as marks (icons, symbols), not read as headings`,
    });
  }
  if (unplaced.length > 0) {
    const pages = [...new Set(unplaced.map((l) => l.page))].join(', ');
    warnings.push({
      page: null,
      code: 'unreadable_record',
      message: `${unplaced.length} line(s) of text (page ${pages}) are not in the draft: no price was found for them (e.g. "${unplaced[0]!.text.slice(0, 60)}")`,
    });
  }
  // A menu with a title and no section heading under it is one section, named by its title (`Subs`,
  // `Herzhafte Pfannkuchen`); with sections, the title is the restaurant's or the card's and names none.
  if (title && items.length > 0 && items.every((item) => item.categoryPath.length === 0)) {
    const name = title.line.text.replace(/\s{2,}/g, ' ').trim();
    return { items: items.map((item) => ({ ...item, categoryPath: [withoutOrnaments(name)] })), warnings };
  }
  return { items, warnings };
};

/** Marks set around a heading as ornaments (`= SOFT`, `▪CHAUD`, `~ Pasta ~`, `*** DESSERTS ***`, `DRINKS:`). */
const ORNAMENT = String.raw`[\s\-–—=~*•·●▪■□◆◇♦★☆✦✧|_#+:>»<«]`;
const ORNAMENTS = new RegExp(`^${ORNAMENT}+|${ORNAMENT}+$`, 'gu');

/** A heading's text without the ornaments around it (a category's name). */
const withoutOrnaments = (text: string): string => text.replace(ORNAMENTS, '');

/** A portion's label: `6 pièces`, `- 12 pcs`, `• Glass`, `1/2 l`: a few words after a dash, or a quantity. */
const portionLabel = (p: PricedLine): string | undefined => {
  if (p.prices.length !== 1) return undefined;
  const text = p.label.trim();
  const dashed = /^[-–—•·*]\s*/u.test(text);
  const label = text.replace(/^[-–—•·*]\s*/u, '').trim();
  if (label === '' || label.length > 24 || words(label) > 3) return undefined;
  return dashed || /^\d/.test(label) ? label : undefined;
};

/** A dish has at most this many portions on lines of their own (portionsUnder). */
const MAX_PORTIONS = 6;

/** A dish name runs over at most this many lines (runsOnToPrice). */
const MAX_NAME_LINES = 3;

/**
 * Where the words of a priced line end: the right edge of its last cell that is not a price (a menu sets
 * its prices in a column of their own, far right of a short name).
 */
const textRight = (p: PricedLine): number => {
  const cells = p.line.cells.filter((c) => !p.prices.some((price) => price.text === c.text.trim()));
  return cells.length > 0 ? Math.max(...cells.map((c) => c.x + c.width)) : p.line.x + p.line.width;
};

/**
 * A dish name that ran out of room and goes on in the priced line under it (`kleiner Toast „Hawaii“ mit
 * gekochtem Schinken,` / `Ananas und Käse überbacken  4,50 €`): the line above in the same style and at the
 * same left edge, as wide as most of the priced line or wider (after a comma: as most of its words, since its
 * price may stand far right), and stopping mid-phrase (a comma, or a last word in lower case, not a full stop
 * or a colon).
 */
const wrapsOnto = (above: Line, priced: PricedLine): boolean => {
  const continued = startsMidPhrase(priced.label);
  return continuesOnto(
    above,
    priced.line,
    // Against the words alone only after a comma or before a word in lower case: a short description in lower
    // case under a dish is as wide as the next dish's name (`lemon aioli` / `Bruschetta  8.25`), and no wrapped name.
    above.text.trim().endsWith(',') || continued ? textRight(priced) - priced.line.x : priced.line.width,
    continued,
  );
};

/** A text that starts in lower case (`und gemischtem Salatteller`): it goes on from the line above. */
const startsMidPhrase = (text: string): boolean => /^\p{Ll}{2,}\s/u.test(text.trim());

/** `above` runs on in `below` (wrapsOnto), whose words are `belowWidth` wide. */
const continuesOnto = (above: Line, below: Line, belowWidth: number, belowContinues = false): boolean => {
  const text = above.text.trim();
  const last = text.split(/\s+/).at(-1) ?? '';
  return (
    isBelow(above, below) &&
    (sameStyle(above, below) ||
      ((endsOnJoiningWord(text) || belowContinues) && sameStyle(above, below, PHRASE_SIZE_TOLERANCE))) &&
    Math.abs(above.x - below.x) <= above.height &&
    above.width >= belowWidth * 0.75 &&
    !(below.caps >= 0.5 && above.caps < 0.3) &&
    !isList(text) &&
    !/[.:!?;)]$/.test(text) &&
    (text.endsWith(',') || /^\p{Ll}+$/u.test(last) || belowContinues)
  );
};

/**
 * Words that join what comes after them to what came before (`and`, `oder`, `avec`, `con`…, in the languages
 * menus are drafted in): a line ending in one stops mid-phrase whatever its look.
 */
const JOINING_WORDS = new Set(
  [
    'and or with of in on the a an to &',
    'und oder mit von vom auf im in an am zu zum zur aus',
    'et ou avec de du des au aux à la le les en sur',
    'y o con de del en al la el los las',
    'e o con di del della al alla in',
    'e ou com de do da no na',
    'en of met van op in de het',
  ].flatMap((words) => words.split(' ')),
);
const endsOnJoiningWord = (text: string): boolean =>
  JOINING_WORDS.has((text.split(/\s+/).at(-1) ?? '').toLowerCase());

/**
 * Sizes within a fifth are close enough for the lines of one phrase read by OCR, whose boxes take in
 * descenders and capitals or not (`pochierter … Soße oder` over `Meerrettichrahm, Bratkartoffeln`: 13 %
 * apart), when the text says the phrase goes on (a joining word, a next line in lower case).
 */
const PHRASE_SIZE_TOLERANCE = 0.2;

/** Two lines of one text, the second under the first: one line over both. */
const joinLines = (first: Line, second: Line): Line => {
  const box = unionBox([first, second]);
  return { ...first, ...box, text: `${first.text} ${second.text}`, cells: [...first.cells, ...second.cells] };
};

/** A short line that can name a dish: not a note in parentheses, not a list, a few words with letters. */
const namesUnpricedDish = (p: PricedLine): boolean => {
  const text = p.line.text.trim();
  return (
    p.prices.length === 0 &&
    p.notAPrice === null &&
    !text.startsWith('(') &&
    !isList(text) &&
    words(text) <= 6 &&
    text.length <= 40 &&
    /\p{L}{3}/u.test(text)
  );
};

/**
 * A heading that carries its section's price (`ALCOOL 6,90€` under `COCKTAIL SANS`): a priced line in
 * capitals, set larger than the dishes (whose names are not in capitals), followed by two or more lines that
 * name dishes without a price before any other priced line.
 */
const sectionHeading = (
  priced: readonly PricedLine[],
  index: number,
  hasPrice: (p: PricedLine) => boolean,
  style: { bodySize: number; namesCaps: boolean },
): boolean => {
  const p = priced[index]!;
  if (style.namesCaps || p.line.caps < 0.8 || p.line.fontSize < style.bodySize * 1.25) return false;
  if (p.prices.length !== 1 || p.label.replace(/[^\p{L}]/gu, '').length < 3) return false;
  let names = 0;
  for (const q of priced.slice(index + 1, index + 16)) {
    if (q.line.page !== p.line.page || hasPrice(q)) break;
    if (namesUnpricedDish(q)) names++;
  }
  return names >= 2;
};

/**
 * `name` is on the row of `price` (their heights overlap by a third of the smaller one or more) and ends
 * left of it: the OCR gave the row's price first because it is set a little higher.
 */
const sameRowBefore = (price: Line, name: Line): boolean => {
  const overlap = Math.min(price.y + price.height, name.y + name.height) - Math.max(price.y, name.y);
  return (
    price.page === name.page &&
    overlap >= Math.min(price.height, name.height) / 3 &&
    name.x + name.width <= price.x
  );
};

/** `below` starts under `above` (the same column or the next flow down), within two and a half lines. */
const isUnder = (above: Line, below: Line): boolean =>
  above.page === below.page &&
  below.y >= above.y + above.height * 0.5 &&
  below.y - (above.y + above.height) <= Math.max(above.height, below.height) * 2.5 &&
  below.x < above.x + above.width &&
  above.x < below.x + below.width;

/**
 * A short line without a price, set like the dishes (same size, weight and case), over two or more dishes,
 * one under the other: a heading (`Soft Drinks` over `Cola 3.00`, `Water 2.00`) on a menu that marks its
 * headings by place only. Not a description: it starts with a capital or a digit, ends without punctuation,
 * and is not styled below the dish under it.
 */
const headsDishes = (
  priced: readonly PricedLine[],
  index: number,
  hasPrice: (p: PricedLine) => boolean,
): boolean => {
  const [p, a, b] = [priced[index]!, priced[index + 1], priced[index + 2]];
  const text = p.line.text.trim();
  return (
    a !== undefined &&
    b !== undefined &&
    !hasPrice(p) &&
    p.notAPrice === null &&
    words(text) <= 5 &&
    text.length <= 40 &&
    /^[\p{Lu}\p{N}]/u.test(text) &&
    !/[,;:.!]$/.test(text) &&
    [a, b].every((d) => hasPrice(d) && d.label !== '') &&
    isUnder(p.line, a.line) &&
    isBelow(a.line, b.line) &&
    !looksLikeDescription(p.line, a.line)
  );
};

const start = (first: PricedLine, name: string, priced: PricedLine, doubts: string[]): Open => ({
  first,
  name: name.replace(/\s{2,}/g, ' ').trim(),
  nameLine: first.line,
  description: [],
  lines: first.line === priced.line ? [first.line] : [first.line, priced.line],
  priced,
  doubts: [...doubts],
});

const isHeadingCell = (
  runs: readonly TextRun[],
  bodySize: number,
  namesBold: boolean,
  namesCaps: boolean,
): boolean => {
  const text = runs.map((r) => r.text).join(' ');
  const letters = text.replace(/[^\p{L}]/gu, '');
  const caps = letters.length >= 3 && letters.replace(/[^\p{Lu}]/gu, '').length / letters.length >= 0.8;
  return (
    median(runs.map((r) => r.fontSize)) >= bodySize * 1.15 ||
    (runs.every((r) => r.bold) && !namesBold) ||
    (caps && !namesCaps)
  );
};

/**
 * The menu's title when OCR measured it less than a level apart from the largest section heading (`Trattoria
 * Roma` 41 px, `Dolci` 34 px, `Antipasti` 31 px: one level at 20 %): the first heading, before any dish, with
 * a section heading between it and the first dish, larger than every other heading by half a level's
 * tolerance. A section heading whose dishes follow it at once is never taken for it.
 */
const titleOverSections = (
  headings: readonly PricedLine[],
  priced: readonly PricedLine[],
  firstDish: number,
  tolerance: number,
): PricedLine | undefined => {
  const [first, ...others] = headings;
  if (!first || others.length === 0 || firstDish < 0) return undefined;
  const at = priced.indexOf(first);
  const sectionBefore = others.some((h) => {
    const i = priced.indexOf(h);
    return i > at && i < firstDish;
  });
  const largestOther = Math.max(...others.map((h) => h.line.fontSize));
  return at < firstDish && sectionBefore && first.line.fontSize >= largestOther * (1 + tolerance / 2)
    ? first
    : undefined;
};

/**
 * `line` is set right under `above` (the title or a line under it), closer than half a line, smaller than
 * the title and centred on it: a line of the title's block, not a section heading (a section heading stands
 * apart from the title).
 */
const underTitle = (title: Line, above: Line, line: Line): boolean =>
  line.page === title.page &&
  line.fontSize < title.fontSize &&
  line.y >= above.y + above.height * 0.5 &&
  line.y - (above.y + above.height) <= Math.min(above.height, line.height) * 0.5 &&
  Math.abs(line.x + line.width / 2 - (title.x + title.width / 2)) <=
    Math.max(title.height, title.width * 0.1);

/** Distinct heading sizes (within `tolerance`), largest first: level 0 is the outermost category. */
const levelsOf = (sizes: readonly number[], tolerance: number): number[] => {
  const levels: number[] = [];
  for (const size of [...sizes].sort((a, b) => b - a)) {
    if (!levels.some((l) => Math.abs(l - size) <= l * tolerance)) levels.push(size);
  }
  return levels;
};

const nearestLevel = (levels: readonly number[], size: number): number =>
  levels.reduce((best, l) => (Math.abs(l - size) < Math.abs(best - size) ? l : best), levels[0] ?? size);

const finish = (
  open: Open,
  path: readonly Heading[],
  labels: readonly { text: string; centre: number }[] | undefined,
  context: DraftContext,
  style: { decimalsUsed: boolean },
): DraftItem => {
  const { priced } = open;
  const doubts = [...open.doubts];
  const portions = open.portions ?? [];
  const prices = portions.length > 0 ? portions.flatMap((q) => q.prices) : priced.prices;
  let optionNames: string[] = [];
  let variants: DraftVariant[];
  if (portions.length > 0) {
    optionNames = ['Size'];
    variants = portions.map((q) => {
      const name = portionLabel(q)!;
      const price = q.prices[0]!;
      return {
        name,
        options: { Size: name },
        price: price.price,
        pricing: price.variable ? 'variable' : 'fixed',
      };
    });
  } else if (prices.length === 0) {
    variants = [{ name: null, options: {}, price: null, pricing: 'fixed' }];
  } else if (prices.length === 1) {
    const [only] = prices;
    variants = [
      { name: null, options: {}, price: only!.price, pricing: only!.variable ? 'variable' : 'fixed' },
    ];
  } else {
    const names = variantNames(
      prices.map((p) => p.box),
      labels,
    );
    if (!names.matched)
      doubts.push('several prices and no size heading above them: variant names are placeholders');
    optionNames = ['Size'];
    variants = prices.map((p, i) => ({
      name: names.names[i]!,
      options: { Size: names.names[i]! },
      price: p.price,
      pricing: p.variable ? 'variable' : 'fixed',
    }));
  }
  if (priced.weak) doubts.push('the price is a bare number after the name');
  const page = context.pages.find((g) => g.page === open.nameLine.page);
  const ocr = page?.method === 'ocr';
  let confidence = 0.95;
  if (ocr) {
    const wordConfidence = Math.min(...open.lines.map((l) => l.confidence ?? 1));
    confidence = Math.min(confidence, wordConfidence);
    const priceConfidence = Math.min(...prices.map((p) => p.confidence ?? 1));
    const looksRight = prices.every(
      (p) => p.readAs === undefined && (p.variable || /\d[.,]\d{2}\b/.test(p.text) === style.decimalsUsed),
    );
    for (const p of prices)
      if (p.readAs !== undefined) doubts.push(`OCR read "${p.readAs}", taken as ${p.text}`);
    const confirmed = prices.length > 0 && priceConfidence >= 0.9 && looksRight;
    confidence = Math.min(confidence, confirmed ? OCR_CONFIRMED_CAP : OCR_PRICE_CAP);
    if (!confirmed && prices.length > 0) doubts.push('price read by OCR and not confirmed');
  }
  if (doubts.length > 0) confidence *= 0.8 ** Math.min(doubts.length, 3);
  if (prices.length === 0) confidence = Math.min(confidence, 0.4);
  if (open.name.replace(/[^\p{L}]/gu, '').length < 3) {
    confidence *= 0.5;
    doubts.push('the name is very short');
  }
  const box: Box = unionBox([...open.lines, ...prices.map((p) => p.box)]);
  const parts = nameParts(
    open.name,
    context.language === undefined ? undefined : scriptLettersOf(context.language),
  );
  const description = [...(parts.otherScript === null ? [] : [parts.otherScript]), ...open.description];
  return {
    kind: 'item',
    categoryPath: path.map((h) => withoutOrnaments(h.text)).filter((text) => text !== ''),
    name: parts.name,
    description: description.length > 0 ? description.join(' ').replace(/\s+/g, ' ').trim() : null,
    optionNames,
    variants,
    provenance: {
      source: context.source,
      sourceIndex: context.sourceIndex,
      page: open.nameLine.page,
      box: page ? relativeBox(box, page) : { x: 0, y: 0, width: 1, height: 1 },
      method: ocr ? 'ocr' : 'text',
    },
    confidence: Math.round(confidence * 100) / 100,
    doubts,
  };
};

/** Names the variants after the size headings above their prices (nearest by position), else `Size 1`… */
const variantNames = (
  boxes: readonly Box[],
  labels: readonly { text: string; centre: number }[] | undefined,
): { names: string[]; matched: boolean } => {
  if (labels && labels.length >= boxes.length) {
    const used = new Set<number>();
    const names = boxes.map((box) => {
      const centre = box.x + box.width / 2;
      let best = -1;
      labels.forEach((label, i) => {
        if (used.has(i)) return;
        if (best < 0 || Math.abs(label.centre - centre) < Math.abs(labels[best]!.centre - centre)) best = i;
      });
      used.add(best);
      return labels[best]!.text;
    });
    if (new Set(names).size === names.length) return { names, matched: true };
  }
  return { names: boxes.map((_, i) => `Size ${i + 1}`), matched: false };
};
