import { isCurrencyCode } from '../money';

/**
 * Header names as merchants write them (SPEC 5.2): matched case-, space- and punctuation-insensitively,
 * with units, currency and format markers in brackets ignored: `Price ($)`, `Weight (kg)`, `Body (HTML)`,
 * `PRICE_EUR` is not bracketed and stays. Bracketed text that is not a unit (`Enabled [Main St]`, a
 * Square location) stays part of the name, so per-location columns never pass for the base column.
 */

const UNIT_WORDS = new Set([
  'html',
  'text',
  'plain',
  'optional',
  'required',
  'incl',
  'excl',
  'inc',
  'ex',
  'exc',
  'tax',
  'vat',
  'gst',
  'net',
  'gross',
  'kg',
  'g',
  'gr',
  'gram',
  'grams',
  'lb',
  'lbs',
  'oz',
  'in',
  'inch',
  'inches',
  'cm',
  'mm',
  'm',
  'ml',
  'cl',
  'l',
  'kcal',
  'cal',
  'kj',
  'each',
  'ea',
  'unit',
  'units',
  'pcs',
  'yes',
  'no',
  'y',
  'n',
  'true',
  'false',
]);

/** True when bracketed text is only units, currency or markers: `$`, `USD`, `kg`, `incl. tax`, `%`. */
export const isUnitText = (text: string): boolean => {
  const words = text.toLowerCase().match(/[\p{L}]+/gu) ?? [];
  return words.every((w) => UNIT_WORDS.has(w) || (w.length === 3 && isCurrencyCode(w.toUpperCase())));
};

/**
 * A Latin letter with its accents: merchants and platforms write `Categoria` and `Categoría`, `Codigo` and
 * `Código` for the same column, so accents on Latin letters are not told apart (`ç` → `c`, `ñ` → `n`).
 * Other scripts keep their marks (`ガ` is not `カ`).
 */
const LATIN_WITH_MARKS = /\p{Script=Latin}\p{M}*/gu;

const withoutMarks = (letter: string): string =>
  letter.length === 1 && letter.charCodeAt(0) < 0x80
    ? letter
    : letter
        .normalize('NFD')
        .replace(/\p{M}+/gu, '')
        .normalize('NFC');

/**
 * The comparable form of a header: NFKC, lower case, bracketed units dropped, every run of punctuation
 * and space one space.
 *
 * @example normaliseHeader('Price ($)') // 'price'
 * @example normaliseHeader('Image_URL') // 'image url'
 * @example normaliseHeader('Current Quantity [Main St]') // 'current quantity main st'
 * @example normaliseHeader('Categoría') // 'categoria'
 */
export const normaliseHeader = (header: string): string =>
  header
    .normalize('NFKC')
    .replace(/^\ufeff/, '')
    .replace(/[([{]([^()[\]{}]*)[)\]}]/g, (_whole, inner: string) => (isUnitText(inner) ? ' ' : ` ${inner} `))
    .toLowerCase()
    .replace(LATIN_WITH_MARKS, withoutMarks)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The text inside a header's brackets, if any (`Small (10")` → `10"`). */
export const bracketed = (header: string): string | null =>
  /[([{]([^()[\]{}]*)[)\]}]/.exec(header)?.[1]?.trim() || null;

/** A header without its bracketed part (`Small (10")` → `Small`). */
export const withoutBrackets = (header: string): string =>
  header.replace(/\s*[([{][^()[\]{}]*[)\]}]\s*/g, ' ').trim();
