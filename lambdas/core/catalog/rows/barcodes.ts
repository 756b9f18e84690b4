import { gs1CheckDigit, toGtin14 } from '../gtin';

/**
 * Barcodes as merchants type them (SPEC 5.2): spaces and dashes removed (`5 901234 123457`); 8, 12, 13 or
 * 14 digits with the GS1 check digit verified; an 11-digit UPC whose leading zero a spreadsheet dropped is
 * restored when its check digit is valid once zero-padded; Excel's scientific notation (`7.61E+12`, the
 * digits are gone) is refused with a message that names the cause.
 */

export type BarcodeResult =
  | {
      readonly ok: true;
      /** Digits only, as long as it was written (or restored to 12). */
      readonly gtin: string;
      /** The code as a GTIN-14: UPC-12 and GTIN-13/14 of one product are equal in this form. */
      readonly gtin14: string;
      /** True when a UPC's leading zero had been dropped and was put back. */
      readonly restored: boolean;
    }
  | {
      readonly ok: false;
      readonly code: 'invalid_gtin' | 'bad_check_digit' | 'scientific_notation';
      readonly message: string;
    };

const VALID_LENGTHS: ReadonlySet<number> = new Set([8, 12, 13, 14]);
const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?e[+-]?\d+$/i;

const invalid = (message: string): BarcodeResult => ({ ok: false, code: 'invalid_gtin', message });

const checked = (digits: string, restored: boolean): BarcodeResult => {
  const expected = gs1CheckDigit(digits.slice(0, -1));
  if (expected !== Number(digits.at(-1))) {
    return {
      ok: false,
      code: 'bad_check_digit',
      message: `${digits} has a wrong check digit (expected ${expected})`,
    };
  }
  return { ok: true, gtin: digits, gtin14: toGtin14(digits), restored };
};

/**
 * Reads a barcode cell (text from a CSV, a number from JSON or a spreadsheet).
 *
 * @example parseBarcode('5 901234 123457') // { ok: true, gtin: '5901234123457', gtin14: '05901234123457', restored: false }
 * @example parseBarcode('36000291452') // { ok: true, gtin: '036000291452', ..., restored: true }
 * @example parseBarcode('7.61E+12') // { ok: false, code: 'scientific_notation', ... }
 */
export const parseBarcode = (value: string | number): BarcodeResult => {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) {
      return Number.isFinite(value) && value > 1e7
        ? {
            ok: false,
            code: 'scientific_notation',
            message: `${value} is a rounded number, not a barcode: its last digits are lost`,
          }
        : invalid(`${value} is not a barcode`);
    }
    text = String(value);
  } else {
    text = value.trim();
    // Excel's ways of keeping leading zeros in a CSV: ="0123…" and a leading apostrophe.
    const formula = /^="(.*)"$/.exec(text);
    if (formula?.[1] !== undefined) text = formula[1];
    if (text.startsWith("'")) text = text.slice(1);
  }
  if (SCIENTIFIC.test(text)) {
    return {
      ok: false,
      code: 'scientific_notation',
      message:
        `${text} is a barcode a spreadsheet turned into scientific notation, which loses its digits; ` +
        'format the column as text and export the file again',
    };
  }
  const digits = text.replace(/[\s\u00a0\u202f-]+/g, '');
  if (!/^\d+$/.test(digits))
    return invalid(`${JSON.stringify(text.slice(0, 40))} is not a barcode (digits only)`);
  if (digits.length === 11) {
    const padded = `0${digits}`;
    const restored = checked(padded, true);
    if (restored.ok) return restored;
    return invalid(`${digits} has 11 digits and is not a UPC that lost its leading zero`);
  }
  if (typeof value === 'number' && digits.length < 14 && !VALID_LENGTHS.has(digits.length)) {
    // A number has lost its leading zeros: pad it to the next valid length.
    const length = [8, 12, 13, 14].find((l) => l > digits.length) ?? 14;
    return checked(digits.padStart(length, '0'), true);
  }
  if (!VALID_LENGTHS.has(digits.length)) {
    return invalid(`${digits} must be 8, 12, 13 or 14 digits long (has ${digits.length})`);
  }
  return checked(digits, false);
};
