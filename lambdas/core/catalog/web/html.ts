import { isUtf8 } from 'node:buffer';
import type { AnyNode, Document, Element } from 'domhandler';
import { DomHandler, isTag, isText } from 'domhandler';
import { Parser } from 'htmlparser2';
import iconv from 'iconv-lite';

/**
 * HTML basics for the web readers: bytes → text (the charset the server or the page declares), text → DOM
 * (htmlparser2: fast, forgiving, no scripts run), and the few DOM walks the readers share.
 */

/** A charset label iconv-lite knows (pure JavaScript: the same bytes decode the same on every Node). */
const known = (label: string | undefined): string | undefined => {
  const name = label?.trim().toLowerCase();
  return name && iconv.encodingExists(name) ? name : undefined;
};

const declaredCharset = (contentType: string | null | undefined): string | undefined =>
  /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1];

/** `<meta charset>` or `<meta http-equiv="content-type" content="...; charset=...">` in the first 4 KB. */
const metaCharset = (head: Uint8Array): string | undefined => {
  const text = Buffer.from(head.subarray(0, 4096)).toString('latin1');
  return (
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(text)?.[1] ??
    /<meta[^>]+content\s*=\s*["'][^"']*charset=([\w.:-]+)/i.exec(text)?.[1]
  );
};

/**
 * Decodes a page: a BOM decides, then the charset of the Content-Type header, then the page's own
 * `<meta charset>`, then strict UTF-8, then Windows-1252 (what a browser assumes for legacy Western pages).
 * A page that declares UTF-8 but is not is read as Windows-1252, as browsers do not but merchants' old
 * sites need.
 */
export const decodeHtml = (bytes: Uint8Array, contentType?: string | null): string => {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf)
    return buffer.subarray(3).toString('utf8');
  if (buffer[0] === 0xff && buffer[1] === 0xfe) return iconv.decode(buffer.subarray(2), 'utf-16le');
  if (buffer[0] === 0xfe && buffer[1] === 0xff) return iconv.decode(buffer.subarray(2), 'utf-16be');
  const declared = known(declaredCharset(contentType)) ?? known(metaCharset(buffer));
  const utf8 = isUtf8(buffer);
  if (declared && !/^utf-?8$/.test(declared)) return iconv.decode(buffer, declared);
  return utf8 ? buffer.toString('utf8') : iconv.decode(buffer, 'windows-1252');
};

/** Elements nested deeper than this make a page unreadable (browsers stop nesting at 512). */
export const MAX_HTML_DEPTH = 1024;

/** A page whose elements nest deeper than MAX_HTML_DEPTH: no real page does, and parsing it costs quadratic time. */
export class HtmlTooDeepError extends Error {
  constructor() {
    super(`the page nests its elements more than ${MAX_HTML_DEPTH} deep`);
    this.name = new.target.name;
  }
}

class BoundedDomHandler extends DomHandler {
  private depth = 0;

  override onopentag(name: string, attribs: { [key: string]: string }): void {
    this.depth += 1;
    if (this.depth > MAX_HTML_DEPTH) throw new HtmlTooDeepError();
    super.onopentag(name, attribs);
  }

  override onclosetag(): void {
    this.depth -= 1;
    super.onclosetag();
  }
}

/**
 * Parses HTML into a DOM, forgiving any markup. Throws HtmlTooDeepError for absurd nesting, which would
 * otherwise take the parser minutes (its open-element stack costs time per level).
 */
export const parseHtml = (html: string): Document => {
  const handler = new BoundedDomHandler();
  new Parser(handler).end(html);
  return handler.root;
};

/** True when the bytes or the declared type say this is an HTML page rather than data. */
export const looksLikeHtml = (head: Uint8Array, contentType?: string | null): boolean => {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'text/html' || type === 'application/xhtml+xml') return true;
  if (type !== '' && type !== 'text/plain' && type !== 'application/octet-stream') return false;
  const start = Buffer.from(head.subarray(0, 1024))
    .toString('latin1')
    .replace(/^\ufeff|^\xef\xbb\xbf/, '')
    .trimStart()
    .slice(0, 200)
    .toLowerCase();
  return /^(<!doctype html|<html[\s>]|<head[\s>]|<!--[\s\S]*?-->\s*<(!doctype html|html))/.test(start);
};

/** Every element below `root` (document order) for which `test` holds. */
export const findAll = (root: AnyNode, test: (element: Element) => boolean): Element[] => {
  const found: Element[] = [];
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as AnyNode;
    if (isTag(node) && node !== root && test(node)) found.push(node);
    if ('children' in node)
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as AnyNode);
  }
  return found;
};

/** The raw text below a node (script contents included), without any whitespace handling. */
export const rawText = (node: AnyNode): string => {
  if (isText(node)) return node.data;
  if (!('children' in node)) return '';
  let text = '';
  for (const child of node.children) text += rawText(child);
  return text;
};

/** Text below a node with runs of whitespace collapsed to one space, trimmed. */
export const textOf = (node: AnyNode): string => rawText(node).replace(/\s+/g, ' ').trim();

/** Lower-cased attribute value, or undefined. */
export const attr = (element: Element, name: string): string | undefined => element.attribs[name];

/** The page's base URL: `<base href>` resolved against the page URL, or the page URL. */
export const baseUrlOf = (document: Document, pageUrl: string): string => {
  const base = findAll(document, (e) => e.name === 'base' && attr(e, 'href') !== undefined)[0];
  const href = base ? attr(base, 'href') : undefined;
  if (href && URL.canParse(href, pageUrl)) return new URL(href, pageUrl).toString();
  return pageUrl;
};

/** An absolute http(s) URL for a reference found on a page, or null. */
export const absoluteUrl = (reference: string | null | undefined, base: string): string | null => {
  const trimmed = reference?.trim();
  if (!trimmed) return null;
  if (!URL.canParse(trimmed, base)) return null;
  const url = new URL(trimmed, base);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
};

export { locatorOf } from './locator';
