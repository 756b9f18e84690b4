import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { CatalogSourceError } from '../errors';
import { decodeAll, encodingFallbackWarning } from './encoding';
import { objectRows } from './json';
import type { CellValue, ReadContext, ReaderOutput, SourceReader, Table, TableRow } from './types';

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

const localName = (name: string): string => name.slice(name.lastIndexOf(':') + 1);

/** Element names that hold one product, offer or menu item, in the order they are preferred. */
const RECORD_ELEMENTS = ['item', 'entry', 'product', 'offer', 'listing', 'article', 'menuitem', 'menu_item'];

/** Elements whose name (a `name`/`title` child or attribute) is the category of the records inside them. */
const CATEGORY_ELEMENT =
  /^(?:categor(?:y|ies)|sections?|groups?|departments?|collections?|menu_?sections?)$/i;

const TEXT = '#text';
const ATTRIBUTE = '@_';

type XmlNode = Record<string, unknown>;

const isNode = (value: unknown): value is XmlNode =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: ATTRIBUTE,
  textNodeName: TEXT,
  // Values stay text: a GTIN keeps its leading zeros, a price its decimals as written.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  // Feeds written by hand or by shop plugins carry HTML entities (`&nbsp;`, `&eacute;`) in descriptions.
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Every repeated-record element is a list, even when the feed has one record.
  isArray: (name, _path, _isLeaf, isAttribute) =>
    !isAttribute &&
    (RECORD_ELEMENTS.includes(localName(name).toLowerCase()) ||
      /^(?:\w+:)?(?:Worksheet|Row|Cell)$/.test(name)),
});

/** The text of a leaf element: its text, or for an attribute-only element its `href`/`url`/`value`. */
const leafText = (value: unknown): string | null => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (!isNode(value)) return null;
  const keys = Object.keys(value);
  if (keys.some((k) => !k.startsWith(ATTRIBUTE) && k !== TEXT)) return null; // nested elements
  if (TEXT in value) return leafText(value[TEXT]);
  for (const attribute of ['href', 'url', 'src', 'value']) {
    const found = keys.find((k) => localName(k.slice(ATTRIBUTE.length)).toLowerCase() === attribute);
    if (found !== undefined) return leafText(value[found]);
  }
  return '';
};

/** Elements a record may repeat for a list of values (Google's `additional_image_link`, tags, …). */
const LIST_ELEMENT = /image|picture|photo|tag|highlight|keyword|label/i;

/**
 * One record as a row object: child elements by local name, first non-empty value of a name kept. A
 * repeated element is a list where lists are meant (images, tags); elsewhere its first value is read and
 * the others are named in a warning (`row`: the record's position).
 */
const recordRow = (record: XmlNode, row: number, ctx: ReadContext): Record<string, CellValue> => {
  const cells: Record<string, CellValue> = {};
  // A feed's own attribute wins over the container's element of the same name: Google's `<g:id>` (the
  // offer id) over Atom's `<id>` (the entry's URI); columns keep the document's order.
  const prefixed = new Set<string>();
  for (const [key, value] of Object.entries(record)) {
    if (key === TEXT) continue;
    const column = key.startsWith(ATTRIBUTE) ? localName(key.slice(ATTRIBUTE.length)) : localName(key);
    let cell: CellValue;
    if (Array.isArray(value)) {
      const texts = value.map(leafText).filter((t): t is string => t !== null && t !== '');
      if (texts.length > 1 && !LIST_ELEMENT.test(column)) {
        const others = [...new Set(texts.slice(1))].filter((t) => t !== texts[0]);
        if (others.length > 0) {
          ctx.warn({
            row,
            column,
            code: 'invalid_value',
            message: `the record has ${texts.length} <${column}> elements; the first (${JSON.stringify(texts[0])}) was read, not ${others.map((t) => JSON.stringify(t)).join(', ')}`,
          });
        }
        cell = texts[0] as string;
      } else {
        cell = texts.length === 0 ? null : texts.length === 1 ? (texts[0] as string) : texts;
      }
    } else {
      const text = leafText(value);
      cell = text === '' ? null : text;
    }
    const held = cells[column];
    const own = !key.startsWith(ATTRIBUTE) && key.includes(':');
    if (held === undefined || held === null || (own && cell !== null && !prefixed.has(column))) {
      cells[column] = cell;
      if (own && cell !== null) prefixed.add(column);
    }
  }
  return cells;
};

const nameOf = (node: XmlNode): string | null => {
  for (const key of Object.keys(node)) {
    const name = localName(key.startsWith(ATTRIBUTE) ? key.slice(ATTRIBUTE.length) : key).toLowerCase();
    if (name !== 'name' && name !== 'title') continue;
    const text = leafText(node[key]);
    if (text) return text;
  }
  return null;
};

/** How often each element name holds a record-like element (two or more leaf children). */
const countRecords = (node: XmlNode, counts: Map<string, number>): void => {
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith(ATTRIBUTE) || key === TEXT) continue;
    for (const child of Array.isArray(value) ? value : [value]) {
      if (!isNode(child)) continue;
      const leaves = Object.values(child).filter((v) => leafText(v) !== null).length;
      if (leaves >= 2) counts.set(key, (counts.get(key) ?? 0) + 1);
      countRecords(child, counts);
    }
  }
};

/** The element name that holds the records: a known record name, else the one that repeats most. */
const recordElement = (root: XmlNode): string | null => {
  const counts = new Map<string, number>();
  countRecords(root, counts);
  for (const preferred of RECORD_ELEMENTS) {
    const known = [...counts.entries()]
      .filter(([name]) => localName(name).toLowerCase() === preferred)
      .sort((a, b) => b[1] - a[1])[0];
    if (known !== undefined) return known[0];
  }
  const repeated = [...counts.entries()].filter(([, count]) => count >= 2).sort((a, b) => b[1] - a[1])[0];
  return repeated?.[0] ?? null;
};

/** Every record in document order, with the names of the category elements around it. */
function* records(node: XmlNode, element: string, path: readonly string[]): Generator<[XmlNode, string[]]> {
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith(ATTRIBUTE) || key === TEXT) continue;
    for (const child of Array.isArray(value) ? value : [value]) {
      if (!isNode(child)) continue;
      if (key === element) {
        yield [child, [...path]];
        continue;
      }
      const name = CATEGORY_ELEMENT.test(localName(key)) ? nameOf(child) : null;
      yield* records(child, element, name === null ? path : [...path, name]);
    }
  }
}

const CATEGORY_COLUMNS = new Set(['category', 'categories', 'section', 'product_type']);

const feedTable = (root: XmlNode, ctx: ReadContext): Table => {
  const element = recordElement(root);
  if (element === null) {
    throw new CatalogSourceError(
      'the XML source has no repeated product elements (such as RSS <item>s or Atom <entry>s of a product feed) to read',
      'source_unreadable',
    );
  }
  const rows: Record<string, CellValue>[] = [];
  for (const [record, path] of records(root, element, [])) {
    const row = recordRow(record, rows.length + 1, ctx);
    if (path.length > 0 && !Object.keys(row).some((k) => CATEGORY_COLUMNS.has(k.toLowerCase())))
      row.category = path.join(' > ');
    rows.push(row);
  }
  return { sheet: null, batches: [[...objectRows(rows, ctx)]] };
};

const attribute = (node: XmlNode, name: string): string | undefined => {
  const key = Object.keys(node).find(
    (k) => k.startsWith(ATTRIBUTE) && localName(k.slice(ATTRIBUTE.length)) === name,
  );
  return key === undefined ? undefined : (leafText(node[key]) ?? undefined);
};

const children = (node: XmlNode, name: string): XmlNode[] =>
  Object.entries(node)
    .filter(([key]) => !key.startsWith(ATTRIBUTE) && localName(key) === name)
    .flatMap(([, value]) => (Array.isArray(value) ? value : [value]))
    .map((value) => (isNode(value) ? value : { [TEXT]: value }));

/** Excel 2003 XML: a table per worksheet; row and column numbers as Excel shows them (`ss:Index`). */
const spreadsheetTables = (workbook: XmlNode): Table[] =>
  children(workbook, 'Worksheet').map((sheet) => {
    const rows: TableRow[] = [];
    let rowNumber = 0;
    for (const table of children(sheet, 'Table')) {
      for (const row of children(table, 'Row')) {
        rowNumber = Number(attribute(row, 'Index') ?? rowNumber + 1) || rowNumber + 1;
        const cells: CellValue[] = [];
        for (const cell of children(row, 'Cell')) {
          const index = Number(attribute(cell, 'Index'));
          if (Number.isInteger(index) && index > cells.length && index <= 16_384)
            while (cells.length < index - 1) cells.push(null);
          const data = children(cell, 'Data')[0];
          const text = data === undefined ? null : leafText(data[TEXT] ?? '');
          cells.push(text === '' ? null : text);
          const across = Number(attribute(cell, 'MergeAcross'));
          if (Number.isInteger(across) && across > 0 && across <= 16_384)
            for (let i = 0; i < across; i++) cells.push(null);
        }
        rows.push({ row: rowNumber, cells });
      }
    }
    return { sheet: attribute(sheet, 'Name') ?? null, batches: [rows] };
  });

/** `<!DOCTYPE … [<!ENTITY …>]>`: entity declarations are never expanded, local or external. */
const declaresEntities = (text: string): boolean => /<!DOCTYPE[^>[]*\[[\s\S]*?<!ENTITY/i.test(text);

/**
 * Elements a document may hold. The tree costs ~400 bytes an element (a 91 MB feed of 150,000 offers,
 * 1.8 M elements, peaks at 1.2 GB): 3 M keeps the job worker's heap whole, and a real feed under the
 * 100 MB source limit (~600 bytes an offer, 15–20 attributes) stays below it.
 */
export const MAX_XML_ELEMENTS = 3_000_000;

const countElements = (text: string, limit: number): number => {
  const opening = /<[A-Za-z_]/g;
  let count = 0;
  while (opening.exec(text) !== null) if (++count > limit) break;
  return count;
};

const parseXml = (text: string, maxElements = MAX_XML_ELEMENTS): XmlNode => {
  if (countElements(text, maxElements) > maxElements) {
    throw new CatalogSourceError(
      `the XML source has more than ${maxElements.toLocaleString('en-US')} elements, more than the service ` +
        'reads from one source: split the feed, or send it as CSV or TSV',
      'source_too_large',
    );
  }
  if (declaresEntities(text)) {
    throw new CatalogSourceError(
      'the XML source declares entities in its DOCTYPE, which the service does not expand: remove the declarations',
      'source_unreadable',
    );
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    // The validator names elements left open at the end as a JSON list: `Invalid '["rss","channel"]' found.`
    const open = /^Invalid '(\[[\s\S]*\])' found\.$/.exec(valid.err.msg)?.[1];
    let unclosed: unknown;
    try {
      unclosed = open === undefined ? undefined : JSON.parse(open);
    } catch {
      unclosed = undefined;
    }
    throw new CatalogSourceError(
      Array.isArray(unclosed)
        ? `the XML source ends before ${unclosed
            .slice(-3)
            .reverse()
            .map((name) => `<${String(name)}>`)
            .join(' in ')}${unclosed.length > 3 ? ' in …' : ''} is closed: it was cut short`
        : `the XML source is not well-formed (line ${valid.err.line}: ${valid.err.msg}); it may have been cut short`,
      'source_unreadable',
    );
  }
  try {
    return parser.parse(text) as XmlNode;
  } catch (error) {
    throw new CatalogSourceError(
      `the XML source could not be read: ${(error as Error).message}`,
      'source_unreadable',
      { cause: error },
    );
  }
};

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
