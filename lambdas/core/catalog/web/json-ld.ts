import type { Document } from 'domhandler';
import { attr, findAll, rawText } from './html';
import { type SchemaGraph, type SchemaNode, SchemaNodeBuilder, type SchemaValue } from './schema-graph';
import type { WebWarning } from './types';

/** Nested deeper than this, a JSON-LD value is ignored (SPEC 9 bounds JSON nesting; pages are not trusted). */
const MAX_DEPTH = 64;
/** A page describing more nodes than this is not read further (a bound on memory, far above real menus). */
const MAX_NODES = 500_000;

const isJsonLdScript = (type: string | undefined): boolean =>
  (type ?? '').split(';')[0]?.trim().toLowerCase() === 'application/ld+json';

/**
 * Parses one JSON-LD block as browsers' structured-data tools do: tolerating an HTML comment or CDATA
 * wrapper, raw line breaks inside strings and trailing commas, which real pages have.
 */
export const parseJsonLdText = (text: string): unknown => {
  const unwrapped = text
    .trim()
    .replace(/^(?:<!--|<!\[CDATA\[|\/\/\s*<!\[CDATA\[)/, '')
    .replace(/(?:-->|\]\]>|\/\/\s*\]\]>)$/, '')
    .trim();
  // Control characters are whitespace between tokens and invalid inside strings: spaces are right in both.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this replaces
  const controls = /[\u0000-\u001f]+/g;
  const attempts = [
    (s: string) => s,
    (s: string) => s.replace(controls, ' '),
    (s: string) => s.replace(controls, ' ').replace(/,\s*([}\]])/g, '$1'),
  ];
  let error: unknown;
  for (const clean of attempts) {
    try {
      return JSON.parse(clean(unwrapped));
    } catch (e) {
      error = e;
    }
  }
  throw error;
};

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

const typesOf = (value: unknown): string[] => asList(value).filter((t): t is string => typeof t === 'string');

class JsonLdReader {
  readonly builder = new SchemaNodeBuilder();
  private count = 0;

  /** A top-level value of a block: a node, a list of nodes, or a `@graph` container. */
  top(value: unknown): void {
    for (const entry of asList(value)) {
      if (typeof entry !== 'object' || entry === null) continue;
      const object = entry as Record<string, unknown>;
      const graph = object['@graph'];
      if (graph !== undefined) {
        for (const member of asList(graph)) {
          const node = this.node(member, 1);
          if (node) this.builder.roots.push(node);
        }
        if (!('@type' in object)) continue;
      }
      const node = this.node(object, 0);
      if (node) this.builder.roots.push(node);
    }
  }

  private node(value: unknown, depth: number): SchemaNode | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    if (depth > MAX_DEPTH || ++this.count > MAX_NODES) return undefined;
    const object = value as Record<string, unknown>;
    const id = typeof object['@id'] === 'string' ? object['@id'] : null;
    const { node, add } = this.builder.node(typesOf(object['@type']), id, 'json-ld');
    for (const [key, raw] of Object.entries(object)) {
      if (key.startsWith('@')) {
        if (key === '@graph') for (const member of asList(raw)) this.node(member, depth + 1);
        continue;
      }
      for (const item of asList(raw).flat(2)) {
        const converted = this.value(item, depth + 1);
        if (converted !== undefined) add(key, converted);
      }
    }
    return node;
  }

  private value(raw: unknown, depth: number): SchemaValue | undefined {
    if (typeof raw === 'string' || typeof raw === 'boolean') return raw;
    if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
    const object = raw as Record<string, unknown>;
    if ('@value' in object) {
      const inner = object['@value'];
      return typeof inner === 'string' || typeof inner === 'number' || typeof inner === 'boolean'
        ? inner
        : undefined;
    }
    const keys = Object.keys(object);
    if (typeof object['@id'] === 'string' && keys.every((k) => k === '@id' || k === '@type')) {
      return keys.length === 1 ? { ref: object['@id'] } : this.node(object, depth);
    }
    return this.node(object, depth);
  }
}

/**
 * Every JSON-LD block of a page (`<script type="application/ld+json">`), as one graph: `@graph` containers,
 * arrays of nodes and nested nodes all become nodes; `@id` references resolve across blocks. A block that
 * is not JSON even after the usual repairs is skipped with a warning.
 */
export const extractJsonLd = (
  document: Document,
  pageUrl: string,
): { graph: SchemaGraph; warnings: WebWarning[] } => {
  const reader = new JsonLdReader();
  const warnings: WebWarning[] = [];
  const scripts = findAll(document, (e) => e.name === 'script' && isJsonLdScript(attr(e, 'type')));
  scripts.forEach((script, index) => {
    const text = rawText(script);
    if (text.trim() === '') return;
    try {
      reader.top(parseJsonLdText(text));
    } catch {
      warnings.push({
        code: 'invalid_json_ld',
        message: `JSON-LD block ${index + 1} of the page is not valid JSON and was skipped`,
        url: pageUrl,
      });
    }
  });
  return { graph: reader.builder.graph(), warnings };
};
