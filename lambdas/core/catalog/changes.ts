import {
  type CatalogChanges,
  FIRST_CHANGES,
  FIRST_CHANGES_CHARS,
  FIRST_FIELDS,
  type FieldChange,
  type ItemChange,
  SUMMARY_VALUE_CHARS,
} from '../schemas/changes';
import type { Category, Item, Variant } from './document';

/**
 * What changed in a merchant's catalog since its previous one (SPEC 5.5 `results.changes`, the `changes`
 * export). Entity ids are stable across one merchant's jobs (ids.ts: UUIDv5 of client, merchant_token and
 * natural key), so an item of the previous catalog and an item of this one are the same item when their ids
 * are equal: one with no counterpart was removed or added, one whose fields differ changed.
 */

/** A category id → its path (`Drinks > Hot`), for comparing categories across catalogs. */
export type CategoryPaths = (id: string | null) => string | null;

export const categoryPaths = (categories: Iterable<Category>): CategoryPaths => {
  const byId = new Map<string, Category>();
  for (const c of categories) byId.set(c.id, c);
  const cache = new Map<string, string>();
  return (id) => {
    if (id === null) return null;
    const known = cache.get(id);
    if (known !== undefined) return known;
    const names: string[] = [];
    const seen = new Set<string>();
    for (let at = byId.get(id); at !== undefined && !seen.has(at.id); ) {
      seen.add(at.id);
      names.unshift(at.name);
      at = at.parent_id === null ? undefined : byId.get(at.parent_id);
    }
    const path = names.join(' > ');
    cache.set(id, path);
    return path;
  };
};

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

const VARIANT_FIELDS = ['name', 'options', 'sku', 'gtin', 'size', 'unit', 'price', 'pricing'] as const;

const variantView = (v: Variant) => ({
  name: v.name,
  options: v.options,
  sku: v.sku,
  gtin: v.gtin,
  size: v.size,
  unit: v.unit,
  price: v.price,
  pricing: v.pricing,
  images: v.images.map((i) => i.url),
});

/** The fields of an item that changed, variants matched by id; `prices` counts variants whose price changed. */
export const fieldChanges = (
  before: Item,
  after: Item,
  paths: { readonly before: CategoryPaths; readonly after: CategoryPaths },
): { fields: FieldChange[]; prices: number } => {
  const fields: FieldChange[] = [];
  const item = (field: string, a: unknown, b: unknown) => {
    if (!same(a, b)) fields.push({ field, variant_id: null, before: a, after: b });
  };
  item('name', before.name, after.name);
  item('description', before.description, after.description);
  item('category', paths.before(before.category_id), paths.after(after.category_id));
  item('brand', before.brand, after.brand);
  item('tags', before.tags, after.tags);
  item('calories', before.calories, after.calories);
  item(
    'images',
    before.images.map((i) => i.url),
    after.images.map((i) => i.url),
  );
  item('option_names', before.option_names, after.option_names);
  item('modifier_group_ids', before.modifier_group_ids, after.modifier_group_ids);
  item('external_id', before.external_id, after.external_id);
  let prices = 0;
  const afterVariants = new Map(after.variants.map((v) => [v.id, v]));
  const beforeIds = new Set(before.variants.map((v) => v.id));
  for (const b of before.variants) {
    const a = afterVariants.get(b.id);
    if (a === undefined) {
      fields.push({ field: 'variant', variant_id: b.id, before: variantView(b), after: null });
      continue;
    }
    for (const field of VARIANT_FIELDS) {
      if (!same(b[field], a[field]))
        fields.push({ field, variant_id: b.id, before: b[field], after: a[field] });
    }
    if (
      !same(
        b.images.map((i) => i.url),
        a.images.map((i) => i.url),
      )
    )
      fields.push({
        field: 'images',
        variant_id: b.id,
        before: b.images.map((i) => i.url),
        after: a.images.map((i) => i.url),
      });
    if (!same(b.price, a.price) || b.pricing !== a.pricing) prices += 1;
  }
  for (const a of after.variants)
    if (!beforeIds.has(a.id))
      fields.push({ field: 'variant', variant_id: a.id, before: null, after: variantView(a) });
  return { fields, prices };
};

const cutValue = (value: unknown): unknown => {
  if (typeof value === 'string')
    return value.length > SUMMARY_VALUE_CHARS ? `${value.slice(0, SUMMARY_VALUE_CHARS)}…` : value;
  if (Array.isArray(value)) return value.slice(0, 20).map(cutValue);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutValue(v)]));
  return value;
};

/**
 * Compares the previous catalog's items (streamed from storage) with this one's (in memory, as the job
 * worker holds it), yielding every change — removed and changed items in the previous catalog's order,
 * then added items — and filling in `summary` as it goes.
 */
export async function* diffCatalogs(
  previous: AsyncIterable<Item>,
  current: readonly Item[],
  paths: { readonly before: CategoryPaths; readonly after: CategoryPaths },
  summary: ChangeSummary,
): AsyncGenerator<ItemChange> {
  const byId = new Map(current.map((item) => [item.id, item]));
  const seen = new Set<string>();
  for await (const before of previous) {
    const after = byId.get(before.id);
    if (after === undefined) {
      yield summary.count(
        {
          change: 'removed',
          item_id: before.id,
          name: before.name,
          fields: [{ field: 'item', variant_id: null, before, after: null }],
        },
        0,
      );
      continue;
    }
    seen.add(before.id);
    const { fields, prices } = fieldChanges(before, after, paths);
    if (fields.length > 0)
      yield summary.count({ change: 'changed', item_id: after.id, name: after.name, fields }, prices);
  }
  for (const item of current)
    if (!seen.has(item.id))
      yield summary.count(
        {
          change: 'added',
          item_id: item.id,
          name: item.name,
          fields: [{ field: 'item', variant_id: null, before: null, after: item }],
        },
        0,
      );
}

/** Counts changes as they are made and keeps the first 100, values cut, for `results.changes`. */
export class ChangeSummary {
  private added = 0;
  private removed = 0;
  private changed = 0;
  private prices = 0;
  private readonly kept: ItemChange[] = [];
  private keptChars = 0;
  private full = false;

  constructor(private readonly sinceJobId: string) {}

  count(change: ItemChange, prices: number): ItemChange {
    if (change.change === 'added') this.added += 1;
    else if (change.change === 'removed') this.removed += 1;
    else this.changed += 1;
    this.prices += prices;
    // The summary names added and removed items; the export has each whole item.
    if (!this.full && this.kept.length < FIRST_CHANGES) {
      const fields = change.change === 'changed' ? change.fields : [];
      const kept: ItemChange = {
        change: change.change,
        item_id: change.item_id,
        name: change.name,
        ...(fields.length > FIRST_FIELDS ? { more_fields: fields.length - FIRST_FIELDS } : {}),
        fields: fields
          .slice(0, FIRST_FIELDS)
          .map((f) => ({ ...f, before: cutValue(f.before), after: cutValue(f.after) })),
      };
      const chars = JSON.stringify(kept).length;
      if (this.keptChars + chars > FIRST_CHANGES_CHARS) this.full = true;
      else {
        this.kept.push(kept);
        this.keptChars += chars;
      }
    }
    return change;
  }

  result(): CatalogChanges {
    return {
      since_job_id: this.sinceJobId,
      items_added: this.added,
      items_removed: this.removed,
      items_changed: this.changed,
      prices_changed: this.prices,
      first: this.kept.map((c) => ({ ...c, fields: [...c.fields] })),
    };
  }
}

/**
 * The `changes` document (the export of that name), written as changes are made: its head, then one change
 * per line, then the summary (known only at the end).
 */
export async function* changesDocumentChunks(
  head: { readonly job_id: string; readonly since_job_id: string | null; readonly generated_at: string },
  changes: AsyncIterable<ItemChange>,
  summary: () => Omit<CatalogChanges, 'first' | 'since_job_id'>,
): AsyncGenerator<string> {
  let buffer = `${JSON.stringify({ format: 'catalog_changes', ...head }).slice(0, -1)},\n"changes":[`;
  let first = true;
  for await (const change of changes) {
    buffer += `${first ? '\n' : ',\n'}${JSON.stringify(change)}`;
    first = false;
    if (buffer.length >= 64 * 1024) {
      yield buffer;
      buffer = '';
    }
  }
  const { items_added, items_removed, items_changed, prices_changed } = summary();
  yield `${buffer}${first ? ']' : '\n]'},\n"summary":${JSON.stringify({ items_added, items_removed, items_changed, prices_changed })}}\n`;
}
