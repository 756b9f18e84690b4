/**
 * Text a spreadsheet program would run (OWASP "CSV Injection", ASVS 5.0 1.2.10): Excel, LibreOffice Calc and
 * Google Sheets read a cell whose first character is `=`, `+`, `-`, `@`, a tab or a carriage return as a
 * formula, so a product named `=HYPERLINK("https://evil.example","Click")` becomes a link, or worse, in the
 * file a person opens. The remedy they all honour is an apostrophe before the text: the `csv` export writes
 * it (export/writers/spreadsheet-csv.ts), and the CSV reader takes it off again (sources/csv.ts), as
 * WooCommerce's importer does with what its exporter marks, so that a file read back gives the same value.
 * The `woocommerce_csv` export marks by WooCommerce's own rule (markLikeWooCommerce), which its importer undoes.
 */

const TRIGGER = /^'*[=+\-@\t\r]/;
/** A number is no formula: `-5` and `+1.50` stay numbers a spreadsheet can add up. */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

const APOSTROPHE = 0x27;
/** `'` `=` `+` `-` `@` tab CR: the first characters worth a closer look (a fast test for the common case). */
const FIRST = new Set([APOSTROPHE, 0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d]);

/** Whether a spreadsheet program would read this text as a formula. */
export const formulaLike = (text: string): boolean =>
  FIRST.has(text.charCodeAt(0)) && text.charCodeAt(0) !== APOSTROPHE && !PLAIN_NUMBER.test(text);

/**
 * The text as a cell a spreadsheet shows as text: an apostrophe before formula-like text, and before text that
 * already begins with apostrophes and then such a character (so that `unmarkText` gives back exactly the text).
 *
 * @example markAsText('=1+1') // "'=1+1"
 */
export const markAsText = (text: string): string =>
  FIRST.has(text.charCodeAt(0)) && TRIGGER.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;

/**
 * A cell's text without the apostrophe that marked it as text: only before (apostrophes and) `=`, `+`, `-`,
 * `@`, tab or CR, where it is a spreadsheet's mark and not part of the value.
 *
 * @example unmarkText("'=1+1") // '=1+1'
 */
export const unmarkText = (cell: string): string =>
  cell.charCodeAt(0) === APOSTROPHE && TRIGGER.test(cell.slice(1)) ? cell.slice(1) : cell;

const WOO_TRIGGER = /^[=+\-@]/;

/**
 * WooCommerce's rule, its exporter's (`WC_CSV_Exporter::escape_data`): an apostrophe before text whose first
 * character is `=`, `+`, `-` or `@`, which its importer (`WC_Product_Importer::unescape_data`) and this
 * service's CSV reader take off again. Plain numbers are left as they are.
 *
 * @example markLikeWooCommerce('@home') // "'@home"
 */
export const markLikeWooCommerce = (text: string): string =>
  WOO_TRIGGER.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
