import { CatalogSourceError } from '../errors';
import { objectRows } from './json';
import type { CellValue, ReadContext, Table } from './types';
import { ATTRIBUTE, isNode, leafText, localName, RECORD_ELEMENTS, TEXT, type XmlNode } from './xml-tree';

/**
 * XML feeds as tables (xml.ts): the repeated record element is found (item, entry, product, offer, …; else
 * the element that repeats most), and each record becomes a row whose columns are its child elements' local
 * names, read like a spreadsheet's headers (headers/). Records inside named category elements get that
 * category path, as JSON menus do.
 */

/** Elements whose name (a `name`/`title` child or attribute) is the category of the records inside them. */
const CATEGORY_ELEMENT =
  /^(?:categor(?:y|ies)|sections?|groups?|departments?|collections?|menu_?sections?)$/i;

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

export const feedTable = (root: XmlNode, ctx: ReadContext): Table => {
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
