/**
 * GTIN / UPC handling (SPEC 5.2): digits only, 8, 12, 13 or 14 long, GS1 check digit verified. Every
 * valid code is comparable as a GTIN-14 (left-padded with zeros), which is what makes a UPC-12 and the
 * GTIN-13/14 of the same product equal.
 */

const VALID_LENGTHS: ReadonlySet<number> = new Set([8, 12, 13, 14]);

/**
 * The GS1 check digit for a code without its check digit: weights 3 and 1 alternate from the right.
 *
 * @example gs1CheckDigit('03600029145') // 2 (UPC-A 036000291452)
 */
export const gs1CheckDigit = (digitsWithoutCheck: string): number => {
  let sum = 0;
  for (let i = digitsWithoutCheck.length - 1, weight = 3; i >= 0; i -= 1, weight = 4 - weight) {
    sum += (digitsWithoutCheck.charCodeAt(i) - 48) * weight;
  }
  return (10 - (sum % 10)) % 10;
};

/** True when `digits` (digits only) ends in its correct GS1 check digit. */
export const hasValidCheckDigit = (digits: string): boolean =>
  /^\d{2,}$/.test(digits) && gs1CheckDigit(digits.slice(0, -1)) === Number(digits.at(-1));

/** Left-pads a valid GTIN-8/12/13/14 to 14 digits: the form used to compare codes. */
export const toGtin14 = (gtin: string): string => gtin.padStart(14, '0');

export type GtinParseResult =
  | { readonly ok: true; readonly gtin: string; readonly gtin14: string }
  | { readonly ok: false; readonly message: string };

/**
 * Normalises a GTIN/UPC from a source: surrounding whitespace is ignored and nothing but digits is
 * accepted. A number (from JSON) has lost its leading zeros, so it is left-padded to the next valid length.
 *
 * @example parseGtin('036000291452') // { ok: true, gtin: '036000291452', gtin14: '00036000291452' }
 * @example parseGtin('036000291453') // { ok: false, message: 'has a wrong check digit (expected 2)' }
 */
export const parseGtin = (value: string | number): GtinParseResult => {
  let digits: string;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) return { ok: false, message: 'must be digits only' };
    digits = String(value);
    const length = [8, 12, 13, 14].find((l) => l >= digits.length);
    if (length !== undefined) digits = digits.padStart(length, '0');
  } else {
    digits = value.trim();
  }
  if (!/^\d+$/.test(digits)) return { ok: false, message: 'must be digits only' };
  if (!VALID_LENGTHS.has(digits.length)) {
    return { ok: false, message: `must be 8, 12, 13 or 14 digits long (has ${digits.length})` };
  }
  const expected = gs1CheckDigit(digits.slice(0, -1));
  if (expected !== Number(digits.at(-1))) {
    return { ok: false, message: `has a wrong check digit (expected ${expected})` };
  }
  return { ok: true, gtin: digits, gtin14: toGtin14(digits) };
};
