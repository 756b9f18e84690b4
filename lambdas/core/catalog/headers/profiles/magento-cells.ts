import { splitEscaped } from './product-rows';

/** The cells of Magento 2's product export that have a syntax of their own (magento.ts). */

/** One `code=value` pair list (`color=Black,size=XS`): code → value, in order; a part without `=` is dropped. */
export const attributePairs = (text: string, separator = ','): Map<string, string> => {
  const pairs = new Map<string, string>();
  for (const part of text.split(separator)) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const code = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (code !== '' && value !== '' && !pairs.has(code)) pairs.set(code, value);
  }
  return pairs;
};

export interface Variation {
  readonly sku: string | null;
  /** Attribute code → value (`size` → `XS`), in the order written. */
  readonly values: ReadonlyMap<string, string>;
}

/**
 * A configurable product's `configurable_variations`: its children, `|` between them, each
 * `sku=MH01-XS-Black,size=XS,color=Black`.
 *
 * @example variations('sku=A,size=XS|sku=B,size=S') // [{ sku: 'A', values: size=XS }, { sku: 'B', … }]
 */
export const variations = (text: string): Variation[] =>
  text
    .split('|')
    .map((entry) => attributePairs(entry))
    .filter((pairs) => pairs.size > 0)
    .map((pairs) => {
      const values = new Map(pairs);
      values.delete('sku');
      return { sku: pairs.get('sku') ?? null, values };
    });

/** An attribute code as a person reads it when the export gives no label: `shoe_size` → `Shoe size`. */
export const attributeLabel = (code: string): string => {
  const words = code.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * A category path's names: split on `/`, except inside a name written in double quotes (import tools
 * quote a name that holds a slash: `Default Category/"Kehl-/Traufenanschlüsse"`) or escaped as `\/`.
 */
const pathNames = (entry: string): string[] => {
  const names: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < entry.length; i += 1) {
    const c = entry[i] as string;
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && entry[i + 1] === '/') {
      current += '/';
      i += 1;
    } else if (c === '/' && !quoted) {
      names.push(current);
      current = '';
    } else current += c;
  }
  names.push(current);
  return names.map((n) => n.trim()).filter(Boolean);
};

/**
 * The product's categories: `categories` lists `/` paths joined by `,`, each starting with the store's
 * root category (`Default Category/Men/Tops,Default Category/Collections/Eco Friendly`). The root is not
 * a category a shopper sees: it is dropped, and a path that is only the root is none.
 */
export const categoryPaths = (text: string): string[][] =>
  splitEscaped(text, ',')
    .map((entry) => pathNames(entry).slice(1))
    .filter((path) => path.length > 0);

/** `product_online`: 1 is enabled; Magento writes 2 for disabled (its import also takes 0). */
export const isDisabled = (text: string | null): boolean =>
  text !== null && /^(?:2|0|disabled|no|false)$/i.test(text.trim());
