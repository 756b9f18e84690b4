import type { Price } from '../document';
import { CURRENCY_MARK, DEAL_BEFORE, MARKET_PRICE_AT_END, PER_UNIT, withoutAllergens } from '../prices';
import { readPrice } from './values';

/**
 * Prices as menus print them, found in running text: `$12.50`, `12,50 €`, `€ 9`, `USD 4`, `12.50`, and a
 * bare `14` at the end of a line (menus that leave the currency out). Times, phone numbers, dates and
 * quantities (`12 oz`, `2 pcs`, `350 g`) are not prices.
 */

export interface PriceToken {
  readonly start: number;
  readonly end: number;
  /** null for a market price (`MP`, `Market Price`): the item is kept with `pricing: variable`. */
  readonly price: Price | null;
  /** `bare`: a number with neither currency nor cents, less certain; `variable`: a market price. */
  readonly kind: 'marked' | 'decimal' | 'bare' | 'variable';
}

/** Market-price words ending a line (or alone on it): `MP`, `Market Price`, `Tagespreis`, `時価` (prices.ts). */
const VARIABLE = new RegExp(String.raw`(?:^|[\s.·…_\-–—:|])(${MARKET_PRICE_AT_END})\s*$`, 'u');

const PREFIX = String.raw`(?:${CURRENCY_MARK}\s?)`;
const SUFFIX = String.raw`(?:\s?(?:${CURRENCY_MARK}|,-|\.-|[eE](?![\p{L}\d])))`;
const GROUPED = String.raw`\d{1,3}(?:[.,'\u00a0\u202f ]\d{3})+`;
const DECIMAL = String.raw`(?:${GROUPED}|\d{1,5})[.,]\d{2}`;
const WHOLE = String.raw`(?:${GROUPED}|\d{1,6})`;
const BOUNDARY_BEFORE = String.raw`(?<![\w.,/:-])`;
const BOUNDARY_AFTER = String.raw`(?![\w%°/:]|[.,]\d)`;

const TOKEN = new RegExp(
  [
    `${BOUNDARY_BEFORE}${PREFIX}\\s?(?:${DECIMAL}|${WHOLE})${SUFFIX}?${BOUNDARY_AFTER}`,
    `${BOUNDARY_BEFORE}(?:${DECIMAL})${SUFFIX}?${BOUNDARY_AFTER}`,
    `${BOUNDARY_BEFORE}${WHOLE}${SUFFIX}${BOUNDARY_AFTER}`,
  ].join('|'),
  'gu',
);

/** A number at the end of a line, or before a `/` or `|` between prices: `Margherita ..... 14`, `Small 8 / Large 12`. */
const BARE = /(?<![\w.,/:-])(\d{1,3}(?:[.,]\d)?)(?=\s*(?:$|[/|]|,\s+\p{L}))/gu;

/** Text that is not about prices at all: opening hours, phone numbers, dates. */
const NOT_PRICES: readonly RegExp[] = [
  /\b\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|uhr|h)\b/i,
  /\b\d{1,2}[:.]\d{2}\s*(?:-|–|—|to|bis)\s*\d{1,2}[:.]\d{2}\b/i,
  /(?:\+\d{1,3}[\s.-]?)?\(?\d{2,4}\)?[\s.-]\d{3,4}[\s.-]\d{3,4}\b/,
  /\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b/,
];

/** Whether a line is about hours, phone numbers or dates rather than priced things. */
export const isNotAboutPrices = (text: string): boolean => NOT_PRICES.some((pattern) => pattern.test(text));

/** Right after an amount: it is a price per unit (`$0.69/lb`, `4 € le kg`), not an item's. */
const PER_UNIT_AFTER = new RegExp(`^\\s?${PER_UNIT.source}`, 'i');

const partOfDeal = (text: string, start: number, end: number): boolean =>
  PER_UNIT_AFTER.test(text.slice(end)) || DEAL_BEFORE.test(text.slice(0, start).replace(/[$€£¥]\s*$/u, ''));

/**
 * Every price in a line of text, in order; an unparsable match is not a price, nor is an amount of a deal
 * (`2 for $5`) or a price per unit (`$0.69/lb`).
 */
export const findPrices = (line: string, currency: string): PriceToken[] => {
  if (isNotAboutPrices(line)) return [];
  // Allergen markers after a dish (`(1,3)`, `A,C,G`, `N. 5,7`) are not prices; positions stay the line's.
  const text = withoutAllergens(line);
  const tokens: PriceToken[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const raw = match[0];
    const end = match.index + raw.length;
    if (partOfDeal(text, match.index, end)) continue;
    const read = readPrice(raw.replace(/,-$|\.-$/, ''), currency);
    if (!read.ok || read.price === null) continue;
    const marked = !/^[\d.,\s\u00a0]+$/.test(raw);
    tokens.push({
      start: match.index,
      end,
      price: read.price,
      kind: marked ? 'marked' : 'decimal',
    });
  }
  if (tokens.length > 0) return tokens;
  const variable = VARIABLE.exec(text);
  if (variable) {
    const word = variable[1] as string;
    // "market" ending a sentence is only a price when it is the whole line.
    if (!/^market$/i.test(word) || text.trim().toLowerCase() === 'market') {
      const end = text.trimEnd().length;
      return [{ start: end - word.length, end, price: null, kind: 'variable' }];
    }
  }
  for (const match of text.matchAll(BARE)) {
    const raw = match[1] as string;
    if (partOfDeal(text, match.index, match.index + raw.length)) continue;
    const read = readPrice(raw, currency);
    if (!read.ok || read.price === null) continue;
    tokens.push({ start: match.index, end: match.index + raw.length, price: read.price, kind: 'bare' });
  }
  return tokens;
};
