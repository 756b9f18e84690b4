import type { Document } from 'domhandler';
import type { DraftItem } from '../draft';
import { baseUrlOf } from './html';
import { extractJsonLd } from './json-ld';
import { extractMicrodata } from './microdata';
import type { SchemaScope } from './schema-fields';
import type { SchemaGraph } from './schema-graph';
import { menusFromGraph } from './schema-menu';
import { productsFromGraph } from './schema-product';
import type { WebReadContext, WebWarning } from './types';

export interface StructuredData {
  readonly items: DraftItem[];
  /** Which schema.org vocabulary the items came from, or null when the page has none. */
  readonly found: 'menu' | 'products' | null;
  /** Where: `json-ld` or `microdata`. */
  readonly syntax: 'json-ld' | 'microdata' | null;
  /** Menus the page names by URL only (a restaurant's `hasMenu`), to be fetched. */
  readonly menuLinks: string[];
  readonly warnings: WebWarning[];
}

interface Attempt {
  readonly items: DraftItem[];
  readonly links: string[];
  readonly warnings: WebWarning[];
}

/**
 * The catalog a page's schema.org data describes (SPEC 5.2 "Web pages and online stores"). JSON-LD is read
 * first and microdata only when JSON-LD describes nothing of the kind; a menu job takes Menu data before
 * Product data and a retail job the other way round, so a restaurant that also marks up its gift cards as
 * Products still yields its menu.
 */
export const readStructuredData = (
  document: Document,
  pageUrl: string,
  context: WebReadContext,
): StructuredData => {
  const baseUrl = baseUrlOf(document, pageUrl);
  const jsonLd = extractJsonLd(document, pageUrl);
  const graphs: readonly ['json-ld' | 'microdata', () => SchemaGraph][] = [
    ['json-ld', () => jsonLd.graph],
    ['microdata', () => extractMicrodata(document, baseUrl)],
  ];
  const cache = new Map<string, SchemaGraph>();
  const graphOf = (syntax: 'json-ld' | 'microdata', make: () => SchemaGraph) => {
    const known = cache.get(syntax) ?? make();
    cache.set(syntax, known);
    return known;
  };
  const attempt = (graph: SchemaGraph, kind: 'menu' | 'products'): Attempt => {
    const scope: SchemaScope = { graph, context, baseUrl, warnings: [] };
    if (kind === 'products') return { items: productsFromGraph(scope), links: [], warnings: scope.warnings };
    const menus = menusFromGraph(scope);
    return { items: menus.items, links: menus.links, warnings: scope.warnings };
  };
  const order: ('menu' | 'products')[] =
    context.kind === 'menu' ? ['menu', 'products'] : ['products', 'menu'];
  const links = new Set<string>();
  for (const kind of order) {
    for (const [syntax, make] of graphs) {
      const result = attempt(graphOf(syntax, make), kind);
      for (const link of result.links) links.add(link);
      if (result.items.length > 0) {
        return {
          items: result.items,
          found: kind,
          syntax,
          menuLinks: [],
          warnings: [...jsonLd.warnings, ...result.warnings],
        };
      }
    }
  }
  return { items: [], found: null, syntax: null, menuLinks: [...links], warnings: jsonLd.warnings };
};
