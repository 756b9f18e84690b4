import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { CatalogSourceError } from '../errors';
import { isJsonObject } from './json-rows';

/**
 * XML as the XML sources read it (xml.ts): parsed to a tree of plain objects by fast-xml-parser, values kept
 * as text, after bounds and checks that keep a hostile document from costing more than it may — too many
 * elements, DTD entity declarations, a document that is not well-formed — and small helpers to walk it.
 */

export const localName = (name: string): string => name.slice(name.lastIndexOf(':') + 1);

/** Element names that hold one product, offer or menu item, in the order they are preferred. */
export const RECORD_ELEMENTS = [
  'item',
  'entry',
  'product',
  'offer',
  'listing',
  'article',
  'menuitem',
  'menu_item',
];

export const TEXT = '#text';
export const ATTRIBUTE = '@_';

export type XmlNode = Record<string, unknown>;

export const isNode: (value: unknown) => value is XmlNode = isJsonObject;

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
export const leafText = (value: unknown): string | null => {
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

export const attribute = (node: XmlNode, name: string): string | undefined => {
  const key = Object.keys(node).find(
    (k) => k.startsWith(ATTRIBUTE) && localName(k.slice(ATTRIBUTE.length)) === name,
  );
  return key === undefined ? undefined : (leafText(node[key]) ?? undefined);
};

export const children = (node: XmlNode, name: string): XmlNode[] =>
  Object.entries(node)
    .filter(([key]) => !key.startsWith(ATTRIBUTE) && localName(key) === name)
    .flatMap(([, value]) => (Array.isArray(value) ? value : [value]))
    .map((value) => (isNode(value) ? value : { [TEXT]: value }));

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

export const parseXml = (text: string, maxElements = MAX_XML_ELEMENTS): XmlNode => {
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
