import { decode } from 'html-entities';
import type { DraftImage } from '../draft';
import type { CellValue } from '../sources/types';

/**
 * Pure readers of one cell (SPEC 5.2): text, HTML descriptions, tags, calories, image URLs and category
 * paths. Each returns the value, or null for an empty cell; those that can fail return a reason instead,
 * which the row normaliser turns into a warning naming the row and the column.
 */

export type CellResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string };

const ok = <T>(value: T): CellResult<T> => ({ ok: true, value });
const refuse = <T>(message: string): CellResult<T> => ({ ok: false, message });

/** True for a cell with nothing in it (blank text, null). */
export const isBlank = (value: CellValue | undefined): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** C0 control characters other than tab and line breaks, and DEL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
export const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/**
 * A cell as text: trimmed, control characters dropped, inner runs of whitespace kept; numbers as written by JavaScript (integers
 * exactly), booleans and objects refused. Null for an empty cell.
 */
export const cellText = (value: CellValue | undefined): CellResult<string | null> => {
  if (value === undefined || value === null) return ok(null);
  if (typeof value === 'string') {
    // A stray control character (a pasted BEL, a NUL a legacy export left) is dropped, never the row.
    const text = (CONTROL.test(value) ? value.replace(CONTROLS, '') : value).trim();
    return ok(text === '' ? null : text);
  }
  if (typeof value === 'number') return Number.isFinite(value) ? ok(String(value)) : refuse('is not a text');
  if (typeof value === 'boolean') return refuse(`${value} is not a text`);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    const joined = value.map(String).join(', ').trim();
    return ok(joined === '' ? null : joined);
  }
  return refuse('is an object, not a text');
};

const BLOCK_TAGS = /<\/?(?:p|div|br|li|ul|ol|h[1-6]|tr|table|section|article|blockquote)\b[^>]*>/gi;

/** True when text carries HTML markup or entities (Shopify's `Body (HTML)`, WooCommerce descriptions). */
export const looksLikeHtml = (text: string): boolean =>
  /<[a-z!/][^>]*>|&(?:[a-z]+|#\d+|#x[0-9a-f]+);/i.test(text);

/**
 * Plain text of an HTML fragment: block elements become line breaks, other tags and comments go,
 * entities are decoded, whitespace is collapsed.
 *
 * @example htmlToText('<p>Tomato &amp; basil</p><ul><li>vegan</li></ul>') // 'Tomato & basil\nvegan'
 */
export const htmlToText = (html: string): string =>
  decode(
    html
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
      .replace(BLOCK_TAGS, '\n')
      .replace(/<[^>]*>/g, ''),
  )
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();

/** A description: text, with markup stripped when it is HTML. */
export const cellDescription = (value: CellValue | undefined): CellResult<string | null> => {
  const text = cellText(value);
  if (!text.ok || text.value === null || !looksLikeHtml(text.value)) return text;
  const plain = htmlToText(text.value);
  return ok(plain === '' ? null : plain);
};

/**
 * Tags: a JSON list, or text split on `|` when it has one (our own format), else on `,` or `;`.
 * Duplicates (case-insensitive) are dropped.
 *
 * @example cellTags('vegan, spicy, Vegan') // ['vegan', 'spicy']
 */
export const cellTags = (value: CellValue | undefined): readonly string[] => {
  let parts: string[];
  if (Array.isArray(value))
    parts = value.filter((v) => typeof v === 'string' || typeof v === 'number').map(String);
  else {
    const text = cellText(value);
    if (!text.ok || text.value === null) return [];
    const separator = text.value.includes('|') ? '|' : text.value.includes(',') ? ',' : ';';
    parts = text.value.split(separator);
  }
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const part of parts) {
    const tag = part.trim();
    if (tag === '') continue;
    const folded = tag.toLowerCase();
    if (seen.has(folded)) continue;
    seen.add(folded);
    tags.push(tag);
  }
  return tags;
};

/**
 * Calories: `250`, `250 kcal`, `250cal`, `250 Cal`. A range (`250-400`) or other text is refused.
 *
 * @example cellCalories('140 kcal') // { ok: true, value: 140 }
 */
export const cellCalories = (value: CellValue | undefined): CellResult<number | null> => {
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= 0 && value < 1e6
      ? ok(value)
      : refuse(`${value} is not a whole number of calories`);
  }
  const text = cellText(value);
  if (!text.ok) return refuse(text.message);
  if (text.value === null) return ok(null);
  const match = /^(\d{1,6})(?:[.,]0+)?\s*(?:k?cals?|kcal\.?|calories|kilocalories)?$/i.exec(text.value);
  if (match?.[1] === undefined)
    return refuse(`${JSON.stringify(text.value.slice(0, 40))} is not a whole number of calories`);
  return ok(Number(match[1]));
};

/** What the splits of cellImages split on: whitespace, commas, pipes. */
const ANY_SEPARATOR = /[\s,|]/;

const isHttpUrl = (text: string): boolean => /^https?:\/\/[^\s]+$/i.test(text) && URL.canParse(text);

/**
 * Image URLs: one per cell, or several separated by commas, `|` or whitespace (WooCommerce's `Images`).
 * Each must be an absolute http(s) URL; the others are reported.
 */
export const cellImages = (value: CellValue | undefined): { images: DraftImage[]; refused: string[] } => {
  const images: DraftImage[] = [];
  const refused: string[] = [];
  // JSON: `["https://…"]`, `[{ "src": "https://…" }]` or `{ "url": "https://…" }`.
  const urlOf = (v: unknown): string => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      const url = o.url ?? o.src ?? o.href ?? o.link;
      return typeof url === 'string' ? url : '';
    }
    return String(v);
  };
  const parts = Array.isArray(value)
    ? value.map(urlOf)
    : value !== null && typeof value === 'object' && urlOf(value) !== ''
      ? [urlOf(value)]
      : (() => {
          const text = cellText(value);
          if (!text.ok || text.value === null) return [];
          // One URL and nothing else (the usual cell): the splits below would return it as it is.
          if (!ANY_SEPARATOR.test(text.value)) return [text.value];
          // `a.jpg,https://b.jpg?w=1,2` parses as one URL (commas are allowed in URLs), but is a list
          // (Google's additional_image_link): split before each URL first, then what is not one URL.
          return text.value
            .split(/\s*[,|]\s*(?=https?:\/\/)|\s+(?=https?:\/\/)/i)
            .flatMap((part) => (isHttpUrl(part) ? [part] : part.split(/\s*[,|]\s*|\s+(?=https?:)/i)));
        })();
  for (const part of parts) {
    const url = part.trim();
    if (url === '') continue;
    if (isHttpUrl(url)) images.push({ url, width: null, height: null });
    else refused.push(url);
  }
  return { images, refused };
};

/**
 * A category path: `Grocery > Dairy > Milk` (any spacing), or a single name. Text with a `<` is not a
 * path (`<i>Mains</i>`, `Kids <12`): it is one name, as written. A cell of several lines and no `>` walks
 * down the tree one line per level (Magento's sample-data files and spreadsheets that wrap a path in the
 * cell write `Gear⏎Bags`).
 *
 * @example categoryPath('Grocery>Dairy') // ['Grocery', 'Dairy']
 * @example categoryPath('Gear\nBags') // ['Gear', 'Bags']
 */
export const categoryPath = (text: string): string[] =>
  text.includes('<')
    ? [text.trim()].filter(Boolean)
    : text
        .split(text.includes('>') ? '>' : /\r?\n|\r/)
        .map((s) => s.trim())
        .filter(Boolean);
