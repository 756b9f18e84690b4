import { decodeAll, encodingFallbackWarning } from './encoding';
import type { ReaderOutput, SourceReader } from './types';
import { feedTable } from './xml-feed';
import { spreadsheetTables } from './xml-spreadsheet';
import { children, parseXml } from './xml-tree';

/**
 * XML sources: product feeds and Excel's XML spreadsheets, as merchants have them.
 * - **Feeds**: a Google Merchant Center or Meta (Facebook/Instagram) catalog feed — RSS 2.0 `<item>`s or
 *   Atom 1.0 `<entry>`s with attributes in the `g:` namespace (`<g:price>24.00 USD</g:price>`) — and other
 *   XML product lists (`<products><product>…`, `<offers><offer>…`). The repeated record element is found
 *   (item, entry, product, offer, …; else the element that repeats most), and each record becomes a row
 *   whose columns are its child elements' local names (`g:image_link` → `image_link`), read like a
 *   spreadsheet's headers (headers/), so that a feed reads as the same feed in TSV does. A repeated child
 *   (`additional_image_link`) is a list; an attribute-only child (Atom's `<link href>`) gives its `href`;
 *   a nested child (`<g:shipping>`) is a column with no value. Records inside named category elements
 *   (`<category name="Pizza"><item>…`) get that category path, as JSON menus do.
 * - **SpreadsheetML** (Excel 2003 "XML Spreadsheet", which many POS and ERP systems still write as `.xls`):
 *   every `<Worksheet>` is a table of its `<Row>`s and `<Cell>`s (`ss:Index` skips are kept).
 * A document that is not well-formed fails with its line and reason (a feed cut short is never read as a
 * shorter feed); DTD entity declarations are refused (nothing outside the document is ever loaded).
 */

export const xmlReader: SourceReader = {
  format: 'xml',
  textual: true,
  contentTypes: ['application/xml', 'text/xml', 'application/rss+xml', 'application/atom+xml'],
  extensions: ['xml', 'rss', 'atom'],
  // XHTML (an XML declaration, then an HTML document) is the HTML reader's.
  sniffText: (text) =>
    /^<(?:\?xml\b|rss\b|feed\b|(?:\w+:)?Workbook\b)/.test(text) &&
    !/^<\?xml[^>]*>\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype html|html)\b/i.test(text),
  read: async (source, ctx): Promise<ReaderOutput> => {
    const encoding = source.encoding ?? 'utf-8';
    ctx.describe({ encoding });
    const text = await decodeAll(source.bytes, encoding, {
      onFallback: (offset) => ctx.warn(encodingFallbackWarning(offset)),
    });
    const root = parseXml(text);
    const workbook = children(root, 'Workbook')[0];
    if (workbook !== undefined && children(workbook, 'Worksheet').length > 0)
      return { kind: 'tables', tables: spreadsheetTables(workbook) };
    return { kind: 'tables', tables: [feedTable(root, ctx)] };
  },
};
