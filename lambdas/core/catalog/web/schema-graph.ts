/**
 * schema.org data read from a page, in one shape whether it came from JSON-LD or microdata: nodes with
 * types (local names: `MenuItem`, not `https://schema.org/MenuItem`), an optional `@id`, and properties whose
 * values are always lists. References (`{"@id": ...}`) are resolved through the page's id map when asked for.
 */

export interface SchemaRef {
  readonly ref: string;
}

export type SchemaValue = SchemaNode | SchemaRef | string | number | boolean;

export interface SchemaNode {
  readonly types: readonly string[];
  readonly id: string | null;
  readonly props: ReadonlyMap<string, readonly SchemaValue[]>;
  /** For provenance: `json-ld` or the element path of a microdata item. */
  readonly origin: string;
}

const SCHEMA_PREFIX = /^(?:https?:\/\/(?:www\.)?schema\.org\/|schema:)/i;

/** `https://schema.org/MenuItem`, `schema:MenuItem` and `MenuItem` are all `MenuItem`. */
export const localName = (term: string): string => term.trim().replace(SCHEMA_PREFIX, '');

export const isNode = (value: SchemaValue | undefined): value is SchemaNode =>
  typeof value === 'object' && value !== null && 'props' in value;

export const isRef = (value: SchemaValue | undefined): value is SchemaRef =>
  typeof value === 'object' && value !== null && 'ref' in value;

/** Type names compare case-insensitively: pages write `"@type": "offer"` as often as `"Offer"`. */
export const hasType = (node: SchemaNode, ...types: readonly string[]): boolean => {
  const wanted = types.map((t) => t.toLowerCase());
  return node.types.some((t) => wanted.includes(t.toLowerCase()));
};

/** A set of nodes read from one page, with its `@id` index. */
export class SchemaGraph {
  private readonly byId = new Map<string, SchemaNode>();

  /** `roots`: the top-level nodes; `all`: every node, nested ones included, in document order. */
  constructor(
    readonly roots: readonly SchemaNode[],
    readonly all: readonly SchemaNode[],
  ) {
    for (const node of all) {
      if (node.id === null) continue;
      const known = this.byId.get(node.id);
      // The fullest description of an id wins over a bare mention of it.
      if (!known || node.props.size > known.props.size) this.byId.set(node.id, node);
    }
  }

  /** The node an `@id` names, if the page describes it. */
  resolve(id: string): SchemaNode | undefined {
    return this.byId.get(id);
  }

  /** A property's values, references resolved; an unresolvable reference becomes its id (often a URL). */
  values(node: SchemaNode, property: string): SchemaValue[] {
    const raw = node.props.get(property) ?? [];
    return raw.map((v) => {
      if (isRef(v)) return this.resolve(v.ref) ?? v.ref;
      // A typed mention (`{"@type": "Menu", "@id": "#menu"}`) stands for the page's full description of it.
      if (isNode(v) && v.id !== null) return this.resolve(v.id) ?? v;
      return v;
    });
  }

  /** The nodes among a property's values. */
  nodes(node: SchemaNode, property: string): SchemaNode[] {
    return this.values(node, property).filter(isNode);
  }

  /** The first text (or number, as text) among a property's values, trimmed; nested `name` for a node. */
  text(node: SchemaNode, property: string, depth = 0): string | null {
    for (const value of this.values(node, property)) {
      if (typeof value === 'string' && value.trim() !== '') return value.trim();
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      // `@id` references can loop (`{"@id": "#a", "name": {"@id": "#a"}}`): a few levels of names are enough.
      if (isNode(value) && depth < 4) {
        const name = this.text(value, 'name', depth + 1);
        if (name !== null) return name;
      }
    }
    return null;
  }

  /** Every node of one of `types`, in document order. */
  ofType(...types: readonly string[]): SchemaNode[] {
    return this.all.filter((n) => hasType(n, ...types));
  }

  merge(other: SchemaGraph): SchemaGraph {
    return new SchemaGraph([...this.roots, ...other.roots], [...this.all, ...other.all]);
  }
}

/** Collects nodes as a reader creates them (so that `all` is in document order). */
export class SchemaNodeBuilder {
  readonly all: SchemaNode[] = [];
  readonly roots: SchemaNode[] = [];

  node(
    types: readonly string[],
    id: string | null,
    origin: string,
  ): {
    node: SchemaNode;
    add: (property: string, value: SchemaValue) => void;
  } {
    const props = new Map<string, SchemaValue[]>();
    const node: SchemaNode = { types: types.map(localName).filter((t) => t !== ''), id, props, origin };
    this.all.push(node);
    return {
      node,
      add: (property, value) => {
        const key = localName(property);
        if (key === '') return;
        const list = props.get(key);
        if (list) list.push(value);
        else props.set(key, [value]);
      },
    };
  }

  graph(): SchemaGraph {
    return new SchemaGraph(this.roots, this.all);
  }
}
