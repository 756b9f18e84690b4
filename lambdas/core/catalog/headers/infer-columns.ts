import { parseGtin } from '../gtin';
import { parsePrice } from '../prices';
import type { CellValue } from '../sources/types';
import type { Field } from './aliases';
import { isProse } from './row-shape';

/**
 * Columns told from their values when no header names them (a sheet typed without a header row, or a
 * header whose price column has a name no alias knows). What a column holds is told from its cells' form:
 * - a GTIN: every value 8, 12, 13 or 14 digits with a valid GS1 check digit;
 * - a price: numbers (or amounts with a currency mark), most with decimals or a mark — whole numbers only
 *   when nothing better is there and they are no running count;
 * - a category: a few short texts, each repeated over several rows;
 * - the name: the first column of varied short texts that are words (not codes or slugs such as
 *   `baked-hum-bow`, `SKU123`);
 * - a description: a column of varied texts clearly longer than the names.
 * What is inferred is a guess: the caller warns (`columns_inferred`) and sends the job to review.
 */

export interface InferredColumns {
  /** Column index → the field it was taken for. */
  readonly fields: ReadonlyMap<number, Field>;
}

interface ColumnStats {
  readonly index: number;
  readonly filled: number;
  readonly distinct: number;
  /** Cells that are prices (numbers or amounts with a mark). */
  readonly prices: number;
  /** Of those, with decimals or a currency mark. */
  readonly marked: number;
  /** Whole numbers that count up by one row after row (a row number, an id). */
  readonly counting: boolean;
  readonly gtins: number;
  /** Cells of text that are not values. */
  readonly texts: number;
  /** Text cells that read as words (a letter and a space, or a script written without spaces). */
  readonly wordy: number;
  /** Text cells written as one lower-case token (`bakedhumbao`, `eggtart`): a slug or key before a name. */
  readonly slugs: number;
  readonly meanLength: number;
}

const textOf = (cell: CellValue | undefined): string =>
  typeof cell === 'string' ? cell.trim() : typeof cell === 'number' ? String(cell) : '';

/** Codes and slugs: one token of letters, digits and `-_./` (`baked-hum-bow`, `SKU-123`, `a1`). */
const CODE = /^[\p{L}\p{N}]*[\p{N}\-_./][\p{L}\p{N}\-_./]*$/u;
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const NUMBERISH = /^[\p{Sc}]?\s?[-+]?\d[\d\s.,'’]*\s?(?:[\p{Sc}]|\p{L}{1,3}\.?)?$/u;

const statsOf = (rows: readonly (readonly CellValue[])[], index: number): ColumnStats => {
  const values = new Set<string>();
  let filled = 0;
  let prices = 0;
  let marked = 0;
  let gtins = 0;
  let texts = 0;
  let wordy = 0;
  let slugs = 0;
  let length = 0;
  let counting = true;
  let previous: number | null = null;
  for (const row of rows) {
    const cell = row[index];
    const text = textOf(cell);
    if (text === '') continue;
    filled += 1;
    values.add(text.toLowerCase());
    if (/^\d{8}$|^\d{12,14}$/.test(text) && parseGtin(text).ok) gtins += 1;
    const numeric = typeof cell === 'number' || NUMBERISH.test(text);
    const parsed = numeric ? parsePrice(text, 'USD') : null;
    if (parsed?.ok) {
      prices += 1;
      if (/[.,]\d{1,3}\s*\D*$/.test(text) || /[^\d\s.,'’+-]/.test(text)) marked += 1;
      const n = Number(text);
      counting = counting && Number.isInteger(n) && (previous === null || n === previous + 1);
      previous = Number.isInteger(n) ? n : null;
      continue;
    }
    counting = false;
    texts += 1;
    length += text.length;
    if (/^[a-z0-9]{4,}$/.test(text)) slugs += 1;
    if (
      !CODE.test(text) &&
      (/\p{L}\s+\p{L}/u.test(text) || UNSPACED_SCRIPT.test(text) || /^\p{L}{3,}$/u.test(text))
    )
      wordy += 1;
  }
  return {
    index,
    filled,
    distinct: values.size,
    prices,
    marked,
    counting: counting && filled >= 3,
    gtins,
    texts,
    wordy,
    slugs,
    meanLength: texts === 0 ? 0 : length / texts,
  };
};

/** Most of a column's cells (at least one). */
const most = (part: number, whole: number): boolean => whole > 0 && part * 10 >= whole * 8;

/**
 * The price column among `columns`, told from its values, or undefined. `wholeNumbers`: a column of
 * whole numbers is taken when no column has decimals or marks (a yen or won price list).
 */
export const inferPriceColumn = (
  rows: readonly (readonly CellValue[])[],
  columns: readonly number[],
  options: { readonly wholeNumbers: boolean },
): number | undefined => {
  const candidates = columns
    .map((i) => statsOf(rows, i))
    .filter((s) => s.filled > 0 && most(s.prices, s.filled) && s.gtins === 0 && !s.counting);
  const marked = candidates.filter((s) => s.marked * 2 >= s.prices && s.distinct >= Math.min(2, s.filled));
  if (marked.length > 0) return marked.sort((a, b) => b.filled - a.filled || a.index - b.index)[0]?.index;
  if (!options.wholeNumbers) return undefined;
  const whole = candidates.filter((s) => s.distinct >= Math.min(2, s.filled));
  return whole.sort((a, b) => b.filled - a.filled || a.index - b.index)[0]?.index;
};

/**
 * Infers the columns of rows that have no header row: null unless a name column and a price or GTIN
 * column can be told apart (too little to read a catalog by).
 *
 * @example inferColumns([['spring-roll', 'Spring roll', 4.5], ['har-gow', 'Har gow', 5.25]])
 * // fields: Map { 1 => 'name', 2 => 'price' }
 */
export const inferColumns = (rows: readonly (readonly CellValue[])[]): InferredColumns | null => {
  if (rows.length < 2) return null;
  const width = Math.max(...rows.map((r) => r.length));
  const stats = Array.from({ length: width }, (_, i) => statsOf(rows, i)).filter((s) => s.filled > 0);
  const fields = new Map<number, Field>();
  const gtin = stats.find((s) => s.gtins === s.filled && s.filled >= 2);
  if (gtin !== undefined) fields.set(gtin.index, 'gtin');
  const textual = stats.filter((s) => !fields.has(s.index) && most(s.texts, s.filled));
  // A text column names products when its values vary and read as words, not codes or prose.
  const named = textual.filter(
    (s) =>
      most(s.wordy, s.texts) &&
      s.distinct * 10 >= s.filled * 7 &&
      s.meanLength <= 80 &&
      !rows.every((r) => textOf(r[s.index]) === '' || isProse(r[s.index])),
  );
  // Columns of lower-case single tokens (slugs, keys) come after columns of names as people write them.
  const sluggish = (s: ColumnStats): number => (s.slugs * 2 > s.texts ? 1 : 0);
  const name = [...named].sort((a, b) => sluggish(a) - sluggish(b) || a.index - b.index)[0];
  if (name === undefined) return null;
  fields.set(name.index, 'name');
  const description = textual
    .filter(
      (s) =>
        !fields.has(s.index) &&
        s.distinct * 10 >= s.filled * 7 &&
        s.meanLength >= Math.max(20, name.meanLength * 1.5),
    )
    .sort((a, b) => b.meanLength - a.meanLength)[0];
  if (description !== undefined) fields.set(description.index, 'description');
  const category = textual.find(
    (s) =>
      !fields.has(s.index) &&
      s.filled >= 4 &&
      s.distinct >= 1 &&
      s.distinct * 3 <= s.filled &&
      s.meanLength <= 40 &&
      most(s.wordy, s.texts),
  );
  if (category !== undefined) fields.set(category.index, 'category');
  const price = inferPriceColumn(
    rows,
    stats.filter((s) => !fields.has(s.index)).map((s) => s.index),
    { wholeNumbers: true },
  );
  if (price !== undefined) fields.set(price, 'price');
  if (price === undefined && gtin === undefined) return null;
  return { fields };
};

/** `column 2 as name, column 3 as price`: what was inferred, for a warning. */
export const describeInferred = (
  fields: ReadonlyMap<number, Field>,
  label: (index: number) => string,
): string =>
  [...fields]
    .sort(([a], [b]) => a - b)
    .map(([index, field]) => `${label(index)} as ${field}`)
    .join(', ');
