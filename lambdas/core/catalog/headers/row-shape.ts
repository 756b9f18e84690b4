import type { CellValue } from '../sources/types';
import { normaliseHeader } from './normalise';

/**
 * The shape of a row near the top of a table, told from its cells' form rather than from words in one
 * language: a header names columns (short labels, each once), a hint or description row explains them
 * (sentences: many words, sentence punctuation, a `#` or `※` note mark), a data row holds values
 * (numbers, prices, dates, links). Platform templates (Meta's, Google's) put a hints row above or below
 * the column names; spreadsheets put a title and blank rows above.
 */

const text = (cell: CellValue | undefined): string => (typeof cell === 'string' ? cell.trim() : '');

/** Scripts written without spaces between words: their sentences are told by length and punctuation. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/** A sentence end followed by more text (`Required. Use the SKU`, `必須。半角で`), or a clause mark. */
const SENTENCE_BREAK = /[.!?;:。！？；：|]\s*[\p{L}\p{N}]/u;

/** Abbreviations that introduce an example in a hint (`e.g.`, `z.B.`, `p.ex.`, `i.e.`). */
const EXAMPLE_MARK = /(?:^|[\s(])\p{L}{1,2}\.\s?\p{L}{1,2}\.(?=\s|$|[:,])/u;

/** A note mark that begins a hint cell (`# Required | …`, `※ 必須`, `* optional`). */
const NOTE_MARK = /^[#※*＊]/u;

/**
 * True when a cell reads as prose describing a column rather than naming one or holding a value:
 * six words or more, a sentence break inside it, an example abbreviation, a note mark before several
 * words, or a long run of unspaced script.
 *
 * @example isProse('# Required | A unique id for the item') // true
 * @example isProse('Product name') // false
 */
export const isProse = (cell: CellValue | undefined): boolean => {
  const t = text(cell);
  if (t.length < 8) return false;
  const words = t.split(/\s+/u).filter(Boolean).length;
  if (words >= 6 || t.length > 80) return true;
  if (EXAMPLE_MARK.test(t)) return true;
  if (NOTE_MARK.test(t) && (words >= 3 || UNSPACED.test(t))) return true;
  if (SENTENCE_BREAK.test(t) && (words >= 3 || UNSPACED.test(t))) return true;
  return UNSPACED.test(t) && words <= 2 && t.length >= 20;
};

const NUMBER = /^[-+]?[\d\s.,'’]*\d[\d\s.,'’]*%?$/u;
/** A price with a symbol or code before or after it: `$5`, `49,00 TND`, `€ 3.50`, `¥1,200`. */
const PRICE = /^(?:[\p{Sc}]|\p{Lu}{3})?\s?[-+]?\d[\d\s.,'’]*\s?(?:[\p{Sc}]|\p{Lu}{3}|\p{L}{1,3}\.?)?$/u;
const DATE = /^\d{1,4}[-/.年]\d{1,2}[-/.月]\d{1,4}/u;
const LINK = /^(?:https?:\/\/|www\.)\S+$|^\S+@\S+\.\S+$/iu;

/** True when a cell holds a value (number, price, date, link, a typed cell), never a column's name. */
export const isValue = (cell: CellValue | undefined): boolean => {
  if (cell === null || cell === undefined) return false;
  if (typeof cell !== 'string') return true;
  const t = cell.trim();
  return t !== '' && (NUMBER.test(t) || PRICE.test(t) || DATE.test(t) || LINK.test(t));
};

const filled = (cells: readonly CellValue[]): CellValue[] =>
  cells.filter((c) => c !== null && c !== undefined && (typeof c !== 'string' || c.trim() !== ''));

/** True when most of a row's filled cells are prose: a title sentence, a hints or description row. */
export const isProseRow = (cells: readonly CellValue[]): boolean => {
  const values = filled(cells);
  if (values.length === 0) return false;
  const prose = values.filter(isProse).length;
  return prose >= 1 && prose * 2 >= values.length;
};

/**
 * True when a row has the shape of a header even though few of its columns are known names: at least
 * three labels, each once, none a value or prose, over rows that do hold values. A merchant's own
 * system names columns its own way (`product_id, name, display_price, …`): its name column is enough.
 */
export const isLabelRow = (
  cells: readonly CellValue[],
  below: readonly (readonly CellValue[])[],
): boolean => {
  const values = filled(cells);
  if (values.length < 3) return false;
  if (values.some((c) => isValue(c) || isProse(c) || text(c).length > 60)) return false;
  const names = new Set(values.map((c) => normaliseHeader(text(c))));
  if (names.size < values.length) return false;
  return below.some((row) => row.some(isValue));
};

/**
 * True when a row under the header describes the columns instead of being a product: it fills at least
 * half the named columns, holds no value, and most of its cells are prose or one repeated marker
 * (`Required`, `Optional`, `必須`).
 */
export const isHintRow = (cells: readonly CellValue[], headers: readonly string[]): boolean => {
  const values = filled(cells);
  const named = headers.filter((h) => h !== '').length;
  if (values.length < 2 || values.length * 2 < named) return false;
  if (values.some(isValue)) return false;
  const prose = values.filter(isProse).length;
  if (prose * 10 >= values.length * 6) return true;
  // One or two markers repeated across the columns (`required`, `optional`), none prose.
  const distinct = new Set(values.map((c) => normaliseHeader(text(c))));
  return values.length >= 4 && distinct.size <= 2;
};
