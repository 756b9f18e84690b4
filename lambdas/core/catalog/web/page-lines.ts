import type { AnyNode, Document, Element } from 'domhandler';
import { isTag, isText } from 'domhandler';
import { attr, findAll } from './html';
import { BLOCK_ELEMENTS, HIDDEN_ELEMENTS } from './text';

/**
 * A page as the lines a person reads, in order, each with the structure it came from: the block element
 * that holds it, whether it is a heading (and its level), a table row's cells, whether it is set in bold.
 * The HTML menu draft works on these lines.
 */
export interface PageLine {
  readonly text: string;
  /** The innermost block element the line's text is in. */
  readonly element: Element;
  /** Block ancestors from the outermost down to `element`. */
  readonly blocks: readonly Element[];
  /** 1–6 for `h1`–`h6` (or `role=heading`), 7 for an element whose class names it a section title; else null. */
  readonly heading: number | null;
  /** A table row's cell texts. */
  readonly cells: readonly string[] | null;
  /** The whole line is bold (`strong`, `b`) or in an element whose class names it a title or name. */
  readonly emphasised: boolean;
}

/** Regions of a page that are never its menu or product list. */
const CHROME = new Set(['nav', 'header', 'footer', 'aside', 'form', 'dialog']);

const isHidden = (element: Element): boolean =>
  HIDDEN_ELEMENTS.has(element.name) ||
  CHROME.has(element.name) ||
  attr(element, 'hidden') !== undefined ||
  attr(element, 'aria-hidden') === 'true' ||
  /display\s*:\s*none|visibility\s*:\s*hidden/i.test(attr(element, 'style') ?? '') ||
  /\b(?:cookie|consent|modal|popup|skip-link|screen-reader-text|sr-only|visually-hidden)\b/i.test(
    attr(element, 'class') ?? '',
  );

const SECTION_CLASS =
  /(?:^|[-_\s])(?:category|section|group|heading)(?:[-_\s]?(?:title|name|heading))?(?:$|[-_\s])/i;
const NAME_CLASS = /(?:^|[-_\s])(?:title|name)(?:$|[-_\s])/i;
const ITEM_CLASS = /(?:^|[-_\s])(?:item|dish|product|price|desc|description)(?:$|[-_\s])/i;

const headingLevel = (element: Element): number | null => {
  const match = /^h([1-6])$/.exec(element.name);
  if (match) return Number(match[1]);
  if (attr(element, 'role') === 'heading') return Number(attr(element, 'aria-level') ?? 2) || 2;
  // A class names a section title only on a leaf: `<section class="menu-section">` holds a whole section.
  if (element.children.some((c) => isTag(c) && BLOCK_ELEMENTS.has(c.name))) return null;
  const names = `${attr(element, 'class') ?? ''} ${attr(element, 'id') ?? ''}`;
  return SECTION_CLASS.test(names) && !ITEM_CLASS.test(names) ? 7 : null;
};

const cellText = (cell: Element): string => {
  let text = '';
  const walk = (node: AnyNode) => {
    if (isText(node)) text += node.data;
    else if (isTag(node) && !isHidden(node)) {
      if (node.name === 'br') text += ' ';
      for (const child of node.children) walk(child);
    }
  };
  walk(cell);
  return text.replace(/\s+/g, ' ').trim();
};

/** The page's lines (the `main` element's when it has one with text, else the body's). */
export const pageLines = (document: Document): PageLine[] => {
  const lines: PageLine[] = [];
  const root =
    findAll(document, (e) => e.name === 'main' || attr(e, 'role') === 'main')[0] ??
    findAll(document, (e) => e.name === 'body')[0] ??
    document;
  let text = '';
  let boldChars = 0;
  let lineBlocks: Element[] = [];
  const blocks: Element[] = [];
  const emphasis: boolean[] = [];
  let heading: number | null = null;

  const flush = () => {
    const clean = text.replace(/\s+/g, ' ').trim();
    if (clean !== '' && lineBlocks.length > 0) {
      const element = lineBlocks[lineBlocks.length - 1] as Element;
      lines.push({
        text: clean,
        element,
        blocks: lineBlocks,
        heading,
        cells: null,
        emphasised: boldChars >= clean.replace(/\s/g, '').length * 0.9,
      });
    }
    text = '';
    boldChars = 0;
    lineBlocks = [...blocks];
  };

  const walk = (node: AnyNode): void => {
    if (isText(node)) {
      if (text === '') lineBlocks = [...blocks];
      text += node.data;
      if (emphasis.at(-1)) boldChars += node.data.replace(/\s/g, '').length;
      return;
    }
    if (!isTag(node) || isHidden(node)) return;
    if (node.name === 'tr') {
      flush();
      const cells = node.children.filter(
        (c): c is Element => isTag(c) && (c.name === 'td' || c.name === 'th'),
      );
      const texts = cells.map(cellText);
      if (texts.some((t) => t !== '')) {
        lines.push({
          text: texts.filter((t) => t !== '').join(' | '),
          element: node,
          blocks: [...blocks, node],
          heading:
            cells.every((c) => c.name === 'th') && texts.filter((t) => t !== '').length === 1 ? 6 : null,
          cells: texts,
          emphasised: cells.every((c) => c.name === 'th'),
        });
      }
      return;
    }
    const block = BLOCK_ELEMENTS.has(node.name);
    const level = headingLevel(node);
    const bold =
      node.name === 'strong' ||
      node.name === 'b' ||
      (NAME_CLASS.test(attr(node, 'class') ?? '') && !SECTION_CLASS.test(attr(node, 'class') ?? ''));
    if (block || level !== null) {
      flush();
      blocks.push(node);
    }
    const outerHeading = heading;
    if (level !== null) heading = heading === null ? level : Math.min(heading, level);
    emphasis.push(bold || (emphasis.at(-1) ?? false));
    if (node.name === 'br') flush();
    for (const child of node.children) walk(child);
    // Template fields (`<span class="name">…</span><span class="price">…</span>`) read as separate words.
    if (!block && attr(node, 'class') !== undefined) text += ' ';
    emphasis.pop();
    if (block || level !== null) {
      flush();
      blocks.pop();
      lineBlocks = [...blocks];
    }
    heading = outerHeading;
  };
  walk(root);
  flush();
  return lines;
};
