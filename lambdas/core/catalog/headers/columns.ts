import { type Field, fieldOf } from './aliases';
import { bracketed, normaliseHeader, withoutBrackets } from './normalise';
import { headerCurrencyOf, priceWordRank } from './price-words';
import { sizeColumn } from './size-columns';

/**
 * Which column holds which field. Built once per table from its header row; the row normalisers then
 * read cells by index. A field may have several columns (`Name` and `Title`, `UPC` and `EAN`): the most
 * preferred is read, the others are fallbacks for rows where it is empty.
 */
export interface ColumnMap<F extends string = string> {
  /** The header row as written (blank headers are ''). */
  readonly headers: readonly string[];
  /** Field → column indices, preferred first. */
  readonly fields: ReadonlyMap<F, readonly number[]>;
  /** Columns no field uses, in header order. */
  readonly unused: readonly number[];
}

/** Looks a normalised header up: the field it names and a rank (lower is preferred), or undefined. */
export type HeaderLookup<F extends string> = (
  normalised: string,
  header: string,
) => readonly [F, number] | undefined;

/**
 * True for a price column its brackets say is before tax (`Price (tax excl.)`, `Price (ex VAT)`,
 * `Price (net)`): read only where no other price column has a value. A shop listing both (PrestaShop's
 * `Price (tax excl.)` and `Price (tax incl.)`) shows customers the one with tax.
 */
const taxExcluded = ([field]: readonly [Field, number], header: string): boolean =>
  field === 'price' &&
  /\b(?:ex|exc|excl|excluding|excluded|net|pre[- ]?tax)\b/i.test(bracketed(header) ?? '');

/**
 * A header that names nothing as a whole but is `product` or `item` and a known alias (`product_price`,
 * `product_brand`, `item_image`: a shop's own export) is that alias' field, after the headers that name it
 * as they are.
 */
const prefixed = (normalised: string): readonly [Field, number] | undefined => {
  const rest = /^(?:product|item) (.+)$/.exec(normalised)?.[1];
  const found = rest === undefined ? undefined : fieldOf(rest);
  return found === undefined ? undefined : [found[0], found[1] + 500];
};

/**
 * Image columns beyond the aliases (normalised headers): numbered (`Image 2`, `Image URL 3`, `Photo4`,
 * `Picture 2 URL`) and a gallery's (`additional_image_link`, `Additional images`, `More photos`).
 */
const MORE_IMAGES =
  /^(?:(?:additional|extra|other|more|gallery|alternate|alternative|secondary) )?(?:product )?(?:image|photo|picture|img|pic|bild|foto|imagen)s?(?: ?(?:url|urls|link|links|src))?(?: ?\d{1,2})?(?: (?:url|link|src))?$/;

const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/**
 * The language a name or description column is tagged with (`name_en`, `product_name_fr`, `fr name`,
 * `Name (DE)`): an ISO 639-1 code before or after the field's name, or null.
 */
export const languageTag = (header: string): string | null => {
  const words = normaliseHeader(header.replace(/[()[\]{}]/g, ' ')).split(' ');
  for (const tag of [words.at(-1), words[0]]) {
    if (tag === undefined || !/^[a-z]{2}$/.test(tag) || tag === 'id' || words.length < 2) continue;
    if (LANGUAGE_NAMES.of(tag) !== undefined) return tag;
  }
  return null;
};

const TAGGED_FIELDS: ReadonlySet<Field> = new Set(['name', 'description']);

/** `name_en`, `product_name_fr`: a name or description column in one language, after untagged ones. */
const byLanguage = (normalised: string): readonly [Field, number] | undefined => {
  const tagged = /^(.+) ([a-z]{2})$/.exec(normalised) ?? /^([a-z]{2}) (.+)$/.exec(normalised);
  if (tagged === null) return undefined;
  const [tag, rest] = (tagged[1] as string).length === 2 ? [tagged[1], tagged[2]] : [tagged[2], tagged[1]];
  if (tag === 'id' || LANGUAGE_NAMES.of(tag as string) === undefined) return undefined;
  const base = fieldOf(rest as string) ?? prefixed(rest as string);
  return base !== undefined && TAGGED_FIELDS.has(base[0]) ? [base[0], base[1] + 300] : undefined;
};

/**
 * A header whose words contain a price word (`display_price`, `Sale price`, `通常価格`, `Preis in EUR`): a
 * price column by its header, after every alias (fewer other words first). Not a size's price column
 * (`Price - Large`, `Small price`: size-columns.ts) nor a cost or a flag about the price (price-words.ts).
 */
const byPriceWord = (normalised: string, header: string): readonly [Field, number] | undefined => {
  if (sizeColumn(header, 0) !== null) return undefined;
  const rank = priceWordRank(normalised);
  return rank === undefined ? undefined : ['price', 800 + rank];
};

/**
 * The generic aliases of SPEC 5.2 (headers/aliases.ts). A header whose brackets list labels
 * (`Price (glass / bottle)`) or qualify a field other than the price (`Barcode (EAN)`) is looked up
 * without them; a header with a price word among others is a price column (byPriceWord).
 */
export const genericLookup: HeaderLookup<Field> = (normalised, header) => {
  const found = fieldOf(normalised);
  if (found !== undefined) return taxExcluded(found, header) ? [found[0], found[1] + 1000] : found;
  if (MORE_IMAGES.test(normalised)) return ['image_url', 500];
  const inBrackets = bracketed(header);
  if (inBrackets === null)
    return prefixed(normalised) ?? byLanguage(normalised) ?? byPriceWord(normalised, header);
  const base = fieldOf(normaliseHeader(withoutBrackets(header)));
  if (/[/|]/.test(inBrackets)) return base;
  // `Barcode (EAN)`, `Name (EN)`, `SKU (internal)`: the bracket qualifies the column, which is still the
  // field. Not for prices: `Price (Large)` is a size's price column (size-columns.ts), but `价格(元)`,
  // `Price (in CAD)` name the price's currency.
  if (base !== undefined && base[0] !== 'price') return base;
  if (headerCurrencyOf(inBrackets, 'XXX') === undefined) return undefined;
  return base ?? byPriceWord(normaliseHeader(withoutBrackets(header)), withoutBrackets(header));
};

/**
 * Maps every header to a field with `lookup`; several columns of one field are ordered by rank, then by
 * position.
 *
 * @example mapColumns(['Item', 'Price ($)', 'Notes'], genericLookup).fields // Map { 'name' => [0], 'price' => [1] }
 */
export const mapColumns = <F extends string>(
  headers: readonly string[],
  lookup: HeaderLookup<F>,
): ColumnMap<F> => {
  const found = new Map<F, { index: number; rank: number }[]>();
  const unused: number[] = [];
  headers.forEach((header, index) => {
    const normalised = normaliseHeader(header);
    const match = normalised === '' ? undefined : lookup(normalised, header);
    if (match === undefined) {
      unused.push(index);
      return;
    }
    const [field, rank] = match;
    const list = found.get(field) ?? [];
    list.push({ index, rank });
    found.set(field, list);
  });
  const fields = new Map<F, readonly number[]>();
  for (const [field, list] of found) {
    fields.set(
      field,
      list.sort((a, b) => a.rank - b.rank || a.index - b.index).map((c) => c.index),
    );
  }
  return { headers, fields, unused };
};

/** A column's name for people: its header, made unique (`Price (column 7)`), or `(column N)` when blank. */
export const columnLabel = (headers: readonly string[], index: number): string => {
  const header = (headers[index] ?? '').trim();
  if (header === '') return `(column ${index + 1})`;
  const first = headers.findIndex((h) => h.trim() === header);
  return first === index ? header : `${header} (column ${index + 1})`;
};
