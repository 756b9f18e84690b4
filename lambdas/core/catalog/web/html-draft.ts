import type { Document, Element } from 'domhandler';
import type { DraftItem, DraftVariant } from '../draft';
import { locatorOf } from './html';
import { type PageLine, pageLines } from './page-lines';
import { findPrices, type PriceToken } from './price-text';
import type { WebReadContext } from './types';

/**
 * A draft catalog from a page with no structured data (SPEC 5.2: "an HTML menu with no structured data
 * becomes a draft"): headings are categories; a list item, table row, card or paragraph with a price is an
 * item, its other text the name and description; several prices on one item are its variants, named by
 * the labels beside them or a table's header row. Every drafted item says where it came from and how sure
 * the reading is, for the reviewer.
 */

/** Fewer priced things than this on a page is not a menu or a product list (a "$5 off" banner is not). */
export const MIN_DRAFT_ITEMS = 3;

interface Unit {
  readonly lines: readonly PageLine[];
  /** The one line with prices, if any. */
  readonly priced: PageLine | null;
  readonly tokens: readonly PriceToken[];
  readonly container: Element;
}

const LEADERS = /^[\s.,;·…_\-–—:|•*/]+|[\s.,;·…_\-–—:|•*/]+$/g;
const SEPARATOR = /\s+[-–—|:]\s+|,\s+|:\s+/;

const trimLeaders = (text: string): string => text.replace(LEADERS, '').trim();

/** Price-bearing lines per block element. */
const census = (priced: ReadonlyMap<PageLine, PriceToken[]>) => {
  const prices = new Map<Element, number>();
  for (const line of priced.keys())
    for (const block of line.blocks) prices.set(block, (prices.get(block) ?? 0) + 1);
  return prices;
};

/** The largest block around a priced line that holds no other price: the item's card. */
const containerOf = (line: PageLine, prices: ReadonlyMap<Element, number>): Element => {
  let container = line.element;
  for (let i = line.blocks.length - 1; i >= 0; i--) {
    const block = line.blocks[i] as Element;
    if (['body', 'main', 'html', 'table', 'tbody', 'thead'].includes(block.name)) break;
    if ((prices.get(block) ?? 0) !== 1) break;
    container = block;
  }
  return container;
};

const unitsOf = (lines: readonly PageLine[], currency: string): Unit[] => {
  const priced = new Map<PageLine, PriceToken[]>();
  for (const line of lines) {
    const tokens = line.heading === null ? findPrices(line.text, currency) : [];
    if (tokens.length > 0) priced.set(line, tokens);
  }
  const prices = census(priced);
  const containers = new Set<Element>();
  for (const line of priced.keys()) containers.add(containerOf(line, prices));
  const groups: { container: Element; grouped: boolean; lines: PageLine[] }[] = [];
  for (const line of lines) {
    const container = line.blocks.find((b) => containers.has(b)) ?? null;
    const open = groups.at(-1);
    if (container && open?.grouped && open.container === container) open.lines.push(line);
    else groups.push({ container: container ?? line.element, grouped: container !== null, lines: [line] });
  }
  return groups.map(({ container, lines: grouped }) => {
    const pricedLine = grouped.find((l) => priced.has(l)) ?? null;
    return {
      lines: grouped,
      priced: pricedLine,
      tokens: pricedLine ? (priced.get(pricedLine) ?? []) : [],
      container,
    };
  });
};

/** The header row of a line's table: the nearest earlier row of the same table with no prices. */
const headerRow = (line: PageLine, earlier: readonly Unit[]): readonly string[] | null => {
  const table = line.blocks.findLast((b) => b.name === 'table');
  if (!table) return null;
  for (let i = earlier.length - 1; i >= 0; i--) {
    const unit = earlier[i] as Unit;
    const row = unit.lines[0];
    if (!row?.blocks.includes(table)) return null;
    if (row.cells && unit.tokens.length === 0 && row.cells.length > 1) return row.cells;
  }
  return null;
};

interface Reading {
  readonly name: string | null;
  readonly description: string | null;
  readonly labels: readonly (string | null)[];
}

/** A table row: the first text cell is the name, other text cells the description, price cells the variants. */
const readRow = (
  line: PageLine,
  header: readonly string[] | null,
  currency: string,
): Reading & { tokens: PriceToken[] } => {
  const texts: string[] = [];
  const tokens: PriceToken[] = [];
  const labels: (string | null)[] = [];
  (line.cells ?? []).forEach((cell, column) => {
    const found = findPrices(cell, currency);
    if (found.length === 0) {
      if (cell !== '') texts.push(cell);
      return;
    }
    for (const token of found) {
      tokens.push(token);
      const label = trimLeaders(cell.slice(0, token.start) + cell.slice(token.end));
      labels.push(label !== '' ? label : header?.[column]?.trim() || null);
    }
  });
  return { name: texts[0] ?? null, description: texts.slice(1).join(' ') || null, labels, tokens };
};

/** A line of text with prices: `Name ..... 12.50`, `Name — small 8, large 12`, `Small 8 / Large 12`. */
const readLine = (text: string, tokens: readonly PriceToken[], named: boolean): Reading => {
  const before = trimLeaders(text.slice(0, tokens[0]?.start ?? 0));
  const after = trimLeaders(text.slice(tokens.at(-1)?.end ?? text.length));
  if (tokens.length === 1) return { name: before || null, description: after || null, labels: [null] };
  const between = tokens
    .slice(1)
    .map((token, i) => trimLeaders(text.slice((tokens[i] as PriceToken).end, token.start)) || null);
  let name: string | null = before || null;
  let first: string | null = null;
  if (between.some((b) => b !== null) && before !== '') {
    const parts = before.split(SEPARATOR);
    if (parts.length > 1) {
      first = trimLeaders(parts.pop() as string) || null;
      name = trimLeaders(parts.join(' – ')) || null;
    } else if (named) {
      first = before;
      name = null;
    }
  }
  return { name, description: after || null, labels: [first, ...between] };
};

const variantsOf = (
  tokens: readonly PriceToken[],
  labels: readonly (string | null)[],
): { variants: DraftVariant[]; optionNames: string[] } => {
  const base = (token: PriceToken) => ({
    price: token.price,
    pricing: token.kind === 'variable' ? ('variable' as const) : ('fixed' as const),
    sku: null,
    gtin: null,
    images: [],
  });
  if (tokens.length === 1)
    return { variants: [{ ...base(tokens[0] as PriceToken), name: null, options: {} }], optionNames: [] };
  const variants = tokens.map((token, i) => {
    const name = labels[i] ?? `Option ${i + 1}`;
    return { ...base(token), name, options: { Size: name } };
  });
  return { variants, optionNames: ['Size'] };
};

/** How sure the reading is (0–1), and why it is less than sure, in words a reviewer reads. */
const confidenceOf = (
  item: { name: string; categoryPath: readonly string[] },
  tokens: readonly PriceToken[],
  labels: readonly (string | null)[],
  fromContext: boolean,
): { confidence: number; doubts: string[] } => {
  const doubts: [boolean, number, string][] = [
    [tokens.some((t) => t.kind === 'bare'), 0.7, 'price without a currency or cents'],
    [item.name.length > 60, 0.6, 'a long name: perhaps a sentence, not a dish'],
    [item.name.length > 120, 0.5, 'a very long name'],
    [item.categoryPath.length === 0, 0.85, 'no heading above it'],
    [tokens.length > 1 && labels.some((l) => l === null), 0.8, 'several prices without labels'],
    [fromContext, 0.85, 'name taken from the lines above the price'],
  ];
  const found = doubts.filter(([applies]) => applies);
  const confidence = found.reduce((c, [, factor]) => c * factor, 0.9);
  return { confidence: Math.round(confidence * 100) / 100, doubts: found.map(([, , why]) => why) };
};

/** Drops the category every item shares when it is only the page's title above real sections. */
const dropCommonTitle = (items: DraftItem[]): DraftItem[] => {
  let result = items;
  while (
    result.length > 0 &&
    result.every((i) => i.categoryPath.length >= 2 && i.categoryPath[0] === result[0]?.categoryPath[0])
  ) {
    result = result.map((i) => ({ ...i, categoryPath: i.categoryPath.slice(1) }));
  }
  return result;
};

/**
 * The draft items of a page, or none when fewer than MIN_DRAFT_ITEMS priced things are on it. Each item
 * has `provenance` (page URL and element path) and `confidence`.
 */
export const draftFromPage = (document: Document, pageUrl: string, context: WebReadContext): DraftItem[] => {
  const units = unitsOf(pageLines(document), context.currency);
  const items: DraftItem[] = [];
  const headings: { level: number; text: string }[] = [];
  let pending: PageLine[] = [];
  let last: { index: number; open: boolean } | null = null;

  const enter = (heading: PageLine) => {
    const level = heading.heading ?? 7;
    while (headings.length > 0 && (headings.at(-1) as { level: number }).level >= level) headings.pop();
    headings.push({ level, text: trimLeaders(heading.text) });
  };
  const describeLast = (lines: readonly PageLine[]) => {
    const target = last?.open ? items[last.index] : undefined;
    if (target && lines.length > 0 && lines.length <= 3 && target.description === null) {
      items[last!.index] = { ...target, description: lines.map((l) => l.text).join('\n') };
    }
  };

  /** `ENTRÉES` in bold on its own line, not directly above a bare price (then it would be an item's name). */
  const pseudoHeading = (unit: Unit, index: number): boolean => {
    const line = unit.lines[0] as PageLine;
    const letters = line.text.replace(/[^\p{L}]/gu, '');
    if (unit.lines.length !== 1 || !line.emphasised || line.text.length > 40 || letters.length < 3)
      return false;
    if (letters !== letters.toLocaleUpperCase()) return false;
    const next = units[index + 1];
    return !(
      next?.priced &&
      next.lines.length === 1 &&
      readLine(next.priced.text, next.tokens, false).name === null
    );
  };

  units.forEach((unit, index) => {
    const first = unit.lines[0] as PageLine;
    if (!unit.priced) {
      if ((first.heading !== null && unit.lines.length === 1) || pseudoHeading(unit, index)) {
        describeLast(pending);
        pending = [];
        last = null;
        enter(first);
        return;
      }
      pending.push(...unit.lines);
      return;
    }
    const line = unit.priced;
    const others = unit.lines.filter((l) => l !== line);
    const reading = line.cells
      ? readRow(line, headerRow(line, units.slice(0, index)), context.currency)
      : { ...readLine(line.text, unit.tokens, others.length > 0), tokens: [...unit.tokens] };
    let name = reading.name;
    let description = reading.description;
    let fromContext = false;
    // A card's title is often a heading (`<h3>Fish &amp; Chips</h3>`): the deepest heading in the card names
    // the item when its price line does not; shallower ones are the card's section.
    const titles = others.filter((l) => l.heading !== null);
    const title =
      name === null
        ? titles.reduce<PageLine | undefined>(
            (a, l) => (a && (a.heading ?? 0) >= (l.heading ?? 0) ? a : l),
            undefined,
          )
        : undefined;
    for (const heading of titles) if (heading !== title) enter(heading);
    const plain = others.filter((l) => l.heading === null);
    if (title) {
      name = trimLeaders(title.text);
      description = [...plain.map((l) => l.text), ...(description ? [description] : [])].join('\n') || null;
    } else if (name === null) {
      const pool = plain.length > 0 ? plain : pending.slice(-3);
      fromContext = plain.length === 0;
      const named = pool.find((l) => l.emphasised) ?? pool[0];
      if (named) {
        name = trimLeaders(named.text);
        const rest = pool.filter((l) => l !== named).map((l) => l.text);
        description = [...rest, ...(description ? [description] : [])].join('\n') || null;
      }
    } else if (plain.length > 0) {
      description = [...plain.map((l) => l.text), ...(description ? [description] : [])].join('\n');
    } else {
      describeLast(pending);
    }
    pending = [];
    if (name === null || name === '') {
      last = null;
      return;
    }
    const categoryPath = headings.map((h) => h.text).filter((t) => t !== '');
    const { variants, optionNames } = variantsOf(reading.tokens, reading.labels);
    items.push({
      kind: 'item',
      categoryPath,
      name,
      description,
      brand: null,
      tags: [],
      calories: null,
      images: [],
      optionNames,
      variants,
      provenance: {
        source: context.source,
        url: pageUrl,
        locator: locatorOf(unit.container),
        method: 'html',
      },
      ...confidenceOf({ name, categoryPath }, reading.tokens, reading.labels, fromContext),
    });
    last = { index: items.length - 1, open: plain.length === 0 && !title && !fromContext };
  });
  describeLast(pending);
  return items.length >= MIN_DRAFT_ITEMS ? dropCommonTitle(items) : [];
};
