import { currencyOfRegion } from '../locale';
import type { CURRENCY_SOURCES } from '../schemas/results';
import type { Draft } from './draft';
import { isCurrencyCode } from './money';
import { parsePrice } from './prices';
import { headerCurrency } from './rows/row-cells';
import type { CellValue } from './sources/types';

/**
 * Where a source's currency came from (`results.sources[].currency_source`, SPEC 5.2): the file itself
 * (a price cell `22.00 USD` or `€12`, a currency column, a header such as `Price (CAD)`), the store the
 * file comes from (its country: the feed's `<language>sv-SE</language>`, the country-code domain of the
 * shop its links point to, `https://shop.example.se/…`), or, when neither says, the job language's region.
 * A source with no price has none (null).
 */
export type CurrencySource = (typeof CURRENCY_SOURCES)[number];

/**
 * Country-code domains used as generic names (`.io` start-ups, `.co` companies, `.me`, `.tv`, `.nu` …):
 * they say nothing about where a shop sells.
 */
const GENERIC_CC_DOMAINS = new Set([
  'ac',
  'ag',
  'ai',
  'am',
  'as',
  'bz',
  'cc',
  'cf',
  'cm',
  'co',
  'cx',
  'dj',
  'fm',
  'ga',
  'gg',
  'gl',
  'gq',
  'gs',
  'im',
  'io',
  'je',
  'la',
  'ly',
  'me',
  'ml',
  'ms',
  'mu',
  'nu',
  'sc',
  'sh',
  'so',
  'st',
  'tk',
  'to',
  'tv',
  'vc',
  'vg',
  'ws',
  'eu',
  'su',
]);

/** The region of a domain's country-code ending (`bambino.rs` → RS, `shop.co.uk` → GB), or null. */
const regionOfHost = (host: string): string | null => {
  const tld = /\.([a-z]{2})\.?$/i.exec(host)?.[1]?.toLowerCase();
  if (tld === undefined || GENERIC_CC_DOMAINS.has(tld)) return null;
  const region = tld === 'uk' ? 'GB' : tld.toUpperCase();
  return currencyOfRegion(region) === undefined ? null : region;
};

/**
 * The region a source's text says its store is in, or null: an RSS or Atom feed's `<language>` with a
 * region (`es-MX`), else the one country-code domain every link of the file with such a domain shares
 * (links to two countries' domains say nothing). Only the first part of a file is looked at.
 *
 * @example storeRegion('<link>https://www.shop.example.se/p/1</link>') // 'SE'
 */
export const storeRegion = (text: string): string | null => {
  const language = /<(?:\w+:)?language>\s*[a-z]{2,3}[-_]([a-z]{2})\s*<\/(?:\w+:)?language>/i.exec(text)?.[1];
  if (language !== undefined && currencyOfRegion(language) !== undefined) return language.toUpperCase();
  const regions = new Set<string>();
  for (const match of text.matchAll(/\bhttps?:\/\/([a-z0-9.-]+)/gi)) {
    const region = regionOfHost(match[1] as string);
    if (region !== null) regions.add(region);
    if (regions.size > 1) return null;
  }
  const [only] = regions;
  return only ?? null;
};

/** The currency of a store's region, or null. */
export const storeCurrency = (text: string): string | null => {
  const region = storeRegion(text);
  return region === null ? null : (currencyOfRegion(region) ?? null);
};

/**
 * True when a price cell names its currency (`22.0 USD`, `€12`, `{ amount: 5, currency: 'EUR' }`): the
 * currency read does not depend on the default it is read with.
 */
export const cellStatesCurrency = (cell: CellValue | undefined): boolean => {
  if (cell !== null && typeof cell === 'object' && !Array.isArray(cell)) {
    const code = (cell as Record<string, unknown>).currency;
    return typeof code === 'string' && isCurrencyCode(code.trim().toUpperCase());
  }
  if (typeof cell !== 'string' || !/\d/.test(cell) || !/[^\d\s.,'-]/.test(cell)) return false;
  const a = parsePrice(cell, 'USD');
  const b = parsePrice(cell, 'EUR');
  return a.ok && b.ok && a.price.currency === b.price.currency;
};

/** True for a currency column's cell that holds an ISO 4217 code. */
export const codeStatesCurrency = (cell: CellValue | undefined): boolean =>
  typeof cell === 'string' && /^\s*[A-Za-z]{3}\s*$/.test(cell) && isCurrencyCode(cell.trim().toUpperCase());

/** True for a price header naming its currency (`Price (CAD)`, `Preis [€]`). */
export const headerStatesCurrency = (header: string): boolean => headerCurrency(header, 'USD') !== null;

/**
 * Follows the prices of one source's drafts to say where its currency came from: `stated` when the
 * reading saw the file name a currency; a price in a currency other than the one assumed was stated too.
 */
export class CurrencyWitness {
  private priced = 0;
  private stated = false;

  /**
   * @param assumed the currency a price without one is read in
   * @param from where `assumed` came from: the store's region or the job language
   */
  constructor(
    readonly assumed: string,
    private readonly from: 'store' | 'language',
  ) {}

  /** A draft sent to assembly. */
  see(draft: Draft): void {
    if (draft.kind !== 'item') return;
    for (const variant of draft.variants) {
      if (variant.price === null || variant.price === undefined) continue;
      this.priced += 1;
      if (variant.price.currency !== this.assumed) this.stated = true;
    }
  }

  /** The reading found the file naming a currency (a cell, a column, a header). */
  fileStates(): void {
    this.stated = true;
  }

  get source(): CurrencySource | null {
    if (this.priced === 0) return null;
    return this.stated ? 'file' : this.from;
  }
}
