import type { AnyNode, Element } from 'domhandler';
import { isTag, isText } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { locatorOf } from '../../../lambdas/core/catalog/web/locator';

/**
 * A web page's text, block by block in reading order, for the console to show beside a draft — without
 * ever making it a document of the browser's: the page is parsed by htmlparser2 (plain JavaScript, as the
 * service parsed it), so no script, style, frame or image of the merchant's is run, applied or fetched,
 * and an item's locator (lambdas/core/catalog/web/locator.ts) names the same element here as there.
 */

export interface OutlineLine {
  readonly text: string;
  /** Text of an `h1`–`h6`. */
  readonly heading: boolean;
  /** Part of the element the locator names (or the block that holds it). */
  readonly marked: boolean;
}

export interface Outline {
  readonly lines: readonly OutlineLine[];
  /** Whether the locator's element is on the page (false also when no locator was given). */
  readonly found: boolean;
  /** More blocks of text than `maxLines`: the rest is not in `lines`. */
  readonly truncated: boolean;
}

const BLOCKS = new Set(
  'address article aside blockquote body caption dd details div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header li main nav ol p pre section summary table tr ul'.split(
    ' ',
  ),
);
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'head',
  'iframe',
  'object',
]);

const SEPARATING = new Set(['td', 'th', 'br', 'img', 'input', 'button', 'select', 'textarea', 'label']);

const within = (node: AnyNode, ancestor: AnyNode): boolean => {
  for (let current: AnyNode | null = node; current; current = current.parent)
    if (current === ancestor) return true;
  return false;
};

/** The element a locator names, as the service computed it, or null. */
const elementAt = (root: AnyNode, locator: string): Element | null => {
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as AnyNode;
    if (isTag(node) && locatorOf(node) === locator) return node;
    if ('children' in node)
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as AnyNode);
  }
  return null;
};

export const outlineOf = (html: string, locator: string | null, maxLines = 5000): Outline => {
  const document = parseDocument(html);
  const target = locator ? elementAt(document, locator) : null;
  const lines: OutlineLine[] = [];
  // The block the text being gathered is in: an element, or the document for text outside any block.
  let block: AnyNode = document;
  let parts: string[] = [];
  let truncated = false;
  const flush = () => {
    const text = parts.join('').replace(/\s+/g, ' ').trim();
    parts = [];
    if (text === '') return;
    if (lines.length >= maxLines) {
      truncated = true;
      return;
    }
    const element = isTag(block) ? block : null;
    const marked =
      target !== null &&
      element !== null &&
      (within(element, target) || (element.name !== 'body' && within(target, element)));
    lines.push({ text, heading: /^h[1-6]$/.test(element?.name ?? ''), marked });
  };
  // Depth first, in document order, each text node with the nearest block around it.
  const stack: { node: AnyNode; around: AnyNode }[] = [{ node: document, around: document }];
  while (stack.length > 0 && !truncated) {
    const { node, around } = stack.pop() as { node: AnyNode; around: AnyNode };
    if (isText(node)) {
      if (around !== block) {
        flush();
        block = around;
      }
      parts.push(node.data);
      continue;
    }
    if (isTag(node) && SKIPPED.has(node.name)) continue;
    // Cells and breaks part words that inline markup (`<b>Cr</b>ème`) does not.
    if (isTag(node) && SEPARATING.has(node.name)) parts.push(' ');
    const inner = isTag(node) && BLOCKS.has(node.name) ? node : around;
    if ('children' in node) {
      for (let i = node.children.length - 1; i >= 0; i--) {
        stack.push({ node: node.children[i] as AnyNode, around: inner });
      }
    }
  }
  flush();
  return { lines, found: target !== null, truncated };
};
