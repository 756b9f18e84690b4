import { bufferChunks } from '../bytes';
import type { CatalogDocument, Category, ImageMapping, Item, ModifierGroup } from '../document';
import type { ByteStream } from '../sources/types';
import { upgradeCatalogStream } from '../upgrade-stream';

/** The document without its entity lists: what every export writes before the first item. */
export type CatalogHead = Omit<
  CatalogDocument,
  'categories' | 'items' | 'modifier_groups' | 'image_mappings'
>;

export type StoredEntity =
  | { readonly list: 'categories'; readonly value: Category }
  | { readonly list: 'items'; readonly value: Item }
  | { readonly list: 'modifier_groups'; readonly value: ModifierGroup }
  | { readonly list: 'image_mappings'; readonly value: ImageMapping };

const LIST = /^"(categories|items|modifier_groups|image_mappings)":\[/;

/**
 * A stored catalog document read entity by entity, never whole. It relies on the layout `catalogJsonChunks`
 * (writer.ts) gives every stored catalog: the head on the first line, each list opened on a line of its own
 * and one entity per line; a format 1 catalog is upgraded on the way (upgrade-stream.ts). The file is the
 * service's own, written by the job worker or the operations API after validation, so entities are taken as
 * they are.
 */
export async function* storedEntities(
  source: ByteStream,
  onHead: (head: CatalogHead) => void,
): AsyncGenerator<StoredEntity> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let list: StoredEntity['list'] | null = null;
  let headSeen = false;
  const parse = (line: string): StoredEntity | null => {
    if (line === '' || line === ']' || line === '}' || line === ']}') return null;
    if (!headSeen) {
      headSeen = true;
      onHead(JSON.parse(`${line.endsWith(',') ? line.slice(0, -1) : line}}`) as CatalogHead);
      return null;
    }
    const opened = LIST.exec(line);
    if (opened !== null) {
      list = opened[1] as StoredEntity['list'];
      return null;
    }
    if (!line.startsWith('{') || list === null) return null;
    const text = line.endsWith(',') ? line.slice(0, -1) : line;
    return { list, value: JSON.parse(text) } as StoredEntity;
  };
  for await (const chunk of bufferChunks(upgradeCatalogStream(source))) {
    pending += decoder.decode(chunk, { stream: true });
    let at = pending.indexOf('\n');
    let start = 0;
    while (at >= 0) {
      const entity = parse(pending.slice(start, at));
      if (entity !== null) yield entity;
      start = at + 1;
      at = pending.indexOf('\n', start);
    }
    pending = pending.slice(start);
  }
  pending += decoder.decode();
  const last = parse(pending.trim());
  if (last !== null) yield last;
}

/** Opens the stored catalog afresh: an export reads it twice (what it refers to first, then its items). */
export type CatalogOpener = () => Promise<ByteStream>;

/**
 * What writers need to know before the first item, gathered in a first pass over the stored file: the head,
 * every category and modifier group (they are small, and modifier groups come after the items), and for
 * each URL handle how many items would take it. Items are then streamed in a second pass.
 */
export interface CatalogIndex {
  readonly head: CatalogHead;
  readonly categories: ReadonlyMap<string, Category>;
  readonly modifierGroups: ReadonlyMap<string, ModifierGroup>;
  /** How many items have this handle (slug of the item's name); 1 when the writer did not ask for handles. */
  handleCount(slug: string): number;
  /** Whether a variant has this SKU (case-insensitive); false when the writer did not ask for SKUs. */
  hasSku(sku: string): boolean;
  readonly itemCount: number;
}

/** What a writer needs indexed beyond categories and modifier groups (each costs memory per item). */
export interface IndexNeeds {
  readonly handles?: boolean;
  readonly skus?: boolean;
}

/**
 * A 53-bit hash of a string (cyrb53): the index keeps numbers, not the strings themselves, so that it costs
 * a few dozen bytes an item. A collision (about one in a million for a million items) only makes a handle
 * carry its item's id, or a generated SKU a suffix: never a wrong value.
 */
const hash53 = (text: string): number => {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
};

export interface StoredCatalog {
  readonly index: CatalogIndex;
  /** The items in the stored order, read afresh each call. */
  items(): AsyncGenerator<Item>;
}

/**
 * Indexes the stored catalog, and returns it with a way to stream its items.
 *
 * @example const catalog = await openStoredCatalog(() => catalogs.read(key), slugOf);
 */
export const openStoredCatalog = async (
  open: CatalogOpener,
  slugOf: (name: string) => string,
  needs: IndexNeeds = {},
): Promise<StoredCatalog> => {
  let head: CatalogHead | null = null;
  const categories = new Map<string, Category>();
  const modifierGroups = new Map<string, ModifierGroup>();
  const handleCounts = new Map<number, number>();
  const skus = new Set<number>();
  let itemCount = 0;
  for await (const entity of storedEntities(await open(), (h) => {
    head = h;
  })) {
    if (entity.list === 'categories') categories.set(entity.value.id, entity.value);
    else if (entity.list === 'modifier_groups') modifierGroups.set(entity.value.id, entity.value);
    else if (entity.list === 'items') {
      itemCount += 1;
      if (needs.handles) {
        const slug = hash53(slugOf(entity.value.name));
        handleCounts.set(slug, (handleCounts.get(slug) ?? 0) + 1);
      }
      if (needs.skus)
        for (const v of entity.value.variants) if (v.sku !== null) skus.add(hash53(v.sku.toLowerCase()));
    }
  }
  if (head === null) throw new Error('the stored catalog has no head line');
  const index: CatalogIndex = {
    head,
    categories,
    modifierGroups,
    handleCount: (slug) => (needs.handles ? (handleCounts.get(hash53(slug)) ?? 0) : 1),
    hasSku: (sku) => needs.skus === true && skus.has(hash53(sku.toLowerCase())),
    itemCount,
  };
  return {
    index,
    async *items() {
      for await (const entity of storedEntities(await open(), () => undefined)) {
        if (entity.list === 'items') yield entity.value;
      }
    },
  };
};
