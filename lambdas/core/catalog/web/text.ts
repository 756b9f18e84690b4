import type { AnyNode } from 'domhandler';
import { isTag, isText } from 'domhandler';
import { HtmlTooDeepError, parseHtml } from './html';

/** Elements that start a new line when a page is read as text (the block elements of CSS's defaults). */
export const BLOCK_ELEMENTS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'caption',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);

/** Elements whose content is never text a person reads on the page. */
export const HIDDEN_ELEMENTS: ReadonlySet<string> = new Set([
  'head',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'object',
  'select',
  'textarea',
  'button',
]);

/**
 * HTML (a fragment or a page) as plain text: markup removed, entities decoded, one line per block, runs of
 * spaces collapsed. Used for descriptions that arrive as HTML (Shopify's `body_html`, WooCommerce's
 * `description`, JSON-LD strings with markup in them).
 */
export const htmlToText = (html: string): string => {
  const lines: string[] = [];
  let line = '';
  const flush = () => {
    const text = line.replace(/\s+/g, ' ').trim();
    if (text !== '') lines.push(text);
    line = '';
  };
  const walk = (node: AnyNode): void => {
    if (isText(node)) {
      line += node.data;
      return;
    }
    if (!isTag(node) && !('children' in node)) return;
    if (isTag(node) && HIDDEN_ELEMENTS.has(node.name)) return;
    const block = isTag(node) && BLOCK_ELEMENTS.has(node.name);
    if (block) flush();
    if ('children' in node) for (const child of node.children) walk(child);
    if (block) flush();
  };
  try {
    walk(parseHtml(html));
  } catch (error) {
    if (!(error instanceof HtmlTooDeepError)) throw error;
    // Absurdly nested markup in a description: its text without the tags will do.
    return html
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  }
  flush();
  return lines.join('\n');
};

/**
 * A short text value (a name, a category) from a source that may have left markup or entities in it
 * (`Fish &amp; Chips`, `<b>Soup</b>`), on one line.
 */
export const cleanText = (value: string): string => {
  const text = /[<&]/.test(value) ? htmlToText(value) : value;
  return text.replace(/\s+/g, ' ').trim();
};

/** A longer text (a description): markup removed, paragraphs kept as lines; null when empty. */
export const cleanDescription = (value: string | null | undefined): string | null => {
  if (value === null || value === undefined) return null;
  const text = (/[<&]/.test(value) ? htmlToText(value) : value)
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l !== '')
    .join('\n');
  return text === '' ? null : text;
};
