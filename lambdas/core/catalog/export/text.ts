import type { Price } from '../document';
import { currencyDecimals } from '../money';

/** A CSV field as RFC 4180 writes it: quoted when it holds the delimiter, a quote or a line break. */
export const csvField = (value: string, delimiter = ','): string =>
  value.includes(delimiter) || /["\r\n]/.test(value) || value !== value.trim()
    ? `"${value.replaceAll('"', '""')}"`
    : value;

/** One CSV line (no line break). */
export const csvLine = (values: readonly string[], delimiter = ','): string =>
  values.map((v) => csvField(v, delimiter)).join(delimiter);

/** UTF-8's byte order mark: Excel, Shopify and Square read a CSV with it as UTF-8 whatever the locale. */
export const BOM = '\uFEFF';

/** The amount of a price as a decimal string in its currency's minor units (`1250` USD → `12.50`, JPY `1200`). */
export const decimalAmount = (price: Pick<Price, 'amount' | 'currency'>): string => {
  const decimals = currencyDecimals(price.currency);
  if (decimals === 0) return String(price.amount);
  const digits = String(price.amount).padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
};

/**
 * A URL handle as Shopify makes one from a title: lower-case ASCII letters, digits and dashes (accents are
 * dropped, other characters become dashes), at most 255 characters; `item` when nothing is left.
 *
 * @example slugOf('Crème Brûlée (6")') // 'creme-brulee-6'
 */
export const slugOf = (name: string): string => {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200)
    .replace(/-+$/, '');
  return slug === '' ? 'item' : slug;
};

/** Text cut to `max` characters (code points never split), and whether it was cut. */
export const fitText = (text: string, max: number): { text: string; cut: boolean } => {
  if (text.length <= max) return { text, cut: false };
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return { text: text.slice(0, end), cut: true };
};

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Plain text as HTML (Shopify's Body HTML, WooCommerce's description): escaped, line breaks as `<br>`. */
export const textToHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string).replace(/\r?\n/g, '<br>');
