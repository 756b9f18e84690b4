import type { AnyNode, Document, Element } from 'domhandler';
import { isTag } from 'domhandler';
import { absoluteUrl, attr, findAll, locatorOf, textOf } from './html';
import { type SchemaGraph, type SchemaNode, SchemaNodeBuilder, type SchemaValue } from './schema-graph';

/** Elements whose property value is a URL attribute (WHATWG HTML, "microdata: values"). */
const URL_ATTRIBUTES: Readonly<Record<string, string>> = {
  a: 'href',
  area: 'href',
  link: 'href',
  audio: 'src',
  embed: 'src',
  iframe: 'src',
  img: 'src',
  source: 'src',
  track: 'src',
  video: 'src',
  object: 'data',
};

const MAX_ITEMS = 200_000;

const words = (value: string | undefined): string[] => (value ?? '').split(/\s+/).filter((w) => w !== '');

/**
 * Reads microdata (`itemscope` / `itemtype` / `itemprop` / `itemref` / `itemid`) as the WHATWG algorithm
 * does: top-level items are `itemscope` elements that are no one's property; an item's properties are the
 * `itemprop` elements below it (not below a nested item) and below the elements its `itemref` names.
 * A `content` attribute wins over the element's text on any element, as schema.org's own examples use it
 * for prices (`<span itemprop="price" content="12.50">$12.50</span>`).
 */
export const extractMicrodata = (document: Document, baseUrl: string): SchemaGraph => {
  const builder = new SchemaNodeBuilder();
  const ids = new Map<string, Element>();
  for (const element of findAll(document, (e) => attr(e, 'id') !== undefined)) {
    const id = attr(element, 'id') as string;
    if (!ids.has(id)) ids.set(id, element);
  }
  const made = new Map<Element, SchemaNode>();
  let count = 0;

  const propertyElements = (root: Element): Element[] => {
    const found: Element[] = [];
    const seen = new Set<AnyNode>([root]);
    const pending: AnyNode[] = [...root.children].reverse();
    for (const id of words(attr(root, 'itemref'))) {
      const referenced = ids.get(id);
      if (referenced) pending.unshift(referenced);
    }
    while (pending.length > 0) {
      const node = pending.pop() as AnyNode;
      if (seen.has(node) || !isTag(node)) continue;
      seen.add(node);
      if (attr(node, 'itemprop') !== undefined) found.push(node);
      if (attr(node, 'itemscope') === undefined) {
        for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i] as AnyNode);
      }
    }
    return found;
  };

  const propertyValue = (element: Element): SchemaValue | undefined => {
    if (attr(element, 'itemscope') !== undefined) return item(element);
    const content = attr(element, 'content');
    if (content !== undefined) return content.trim();
    const urlAttribute = URL_ATTRIBUTES[element.name];
    if (urlAttribute) return absoluteUrl(attr(element, urlAttribute), baseUrl) ?? undefined;
    if (element.name === 'data' || element.name === 'meter') return attr(element, 'value')?.trim() ?? '';
    if (element.name === 'time') return (attr(element, 'datetime') ?? textOf(element)).trim();
    return textOf(element);
  };

  const item = (element: Element): SchemaNode | undefined => {
    const known = made.get(element);
    if (known) return known;
    if (++count > MAX_ITEMS) return undefined;
    const id = attr(element, 'itemid');
    const { node, add } = builder.node(
      words(attr(element, 'itemtype')),
      id ? id.trim() : null,
      locatorOf(element),
    );
    made.set(element, node);
    for (const property of propertyElements(element)) {
      const value = propertyValue(property);
      if (value === undefined) continue;
      for (const name of words(attr(property, 'itemprop'))) add(name, value);
    }
    return node;
  };

  const tops = findAll(
    document,
    (e) => attr(e, 'itemscope') !== undefined && attr(e, 'itemprop') === undefined,
  );
  for (const element of tops) {
    const node = item(element);
    if (node) builder.roots.push(node);
  }
  return builder.graph();
};
