import type { Category, Doc, Item, Modifier, ModifierGroup, NewId, Variant } from './model';

/**
 * Editing operations on a draft: pure functions from a document to the next one, so that the page only
 * dispatches them and the tests check them without a browser. References stay consistent: deleting a
 * category moves its items and sub-categories up to its parent, deleting a modifier group unlinks it from
 * items, deleting an item or a variant drops its image mappings.
 */

const moveWithin = <T>(list: readonly T[], from: number, to: number): T[] => {
  const next = [...list];
  if (from < 0 || from >= next.length || to < 0 || to >= next.length || from === to) return next;
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved as T);
  return next;
};

/** Categories in the order a person sees them: by `sort`, then by position. */
export const orderedCategories = (doc: Doc): Category[] =>
  doc.categories
    .map((category, index) => ({ category, index }))
    .sort((a, b) => a.category.sort - b.category.sort || a.index - b.index)
    .map((entry) => entry.category);

const renumber = (categories: readonly Category[]): Category[] =>
  categories.map((category, sort) => (category.sort === sort ? category : { ...category, sort }));

export const setMerchantName = (doc: Doc, name: string): Doc => ({
  ...doc,
  merchant: { ...doc.merchant, name },
});

// Categories.

export const addCategory = (doc: Doc, newId: NewId, name = ''): { doc: Doc; id: string } => {
  const id = newId();
  const ordered = orderedCategories(doc);
  const category: Category = { id, name, parent_id: null, sort: ordered.length, external_id: null };
  return { doc: { ...doc, categories: [...renumber(ordered), category] }, id };
};

export const updateCategory = (doc: Doc, id: string, patch: Partial<Omit<Category, 'id'>>): Doc => ({
  ...doc,
  categories: doc.categories.map((c) => (c.id === id ? { ...c, ...patch } : c)),
});

/** Moves a category up (-1) or down (+1) in the order people see; `sort` is renumbered 0, 1, 2, … */
export const moveCategory = (doc: Doc, id: string, delta: number): Doc => {
  const ordered = orderedCategories(doc);
  const from = ordered.findIndex((c) => c.id === id);
  return { ...doc, categories: renumber(moveWithin(ordered, from, from + delta)) };
};

/** Deletes a category; its items and sub-categories move to its parent (uncategorised at the top). */
export const deleteCategory = (doc: Doc, id: string): Doc => {
  const deleted = doc.categories.find((c) => c.id === id);
  if (!deleted) return doc;
  const parent = deleted.parent_id;
  return {
    ...doc,
    categories: renumber(
      orderedCategories(doc)
        .filter((c) => c.id !== id)
        .map((c) => (c.parent_id === id ? { ...c, parent_id: parent } : c)),
    ),
    items: doc.items.map((item) => (item.category_id === id ? { ...item, category_id: parent } : item)),
  };
};

// Items.

export const itemsOfCategory = (doc: Doc, categoryId: string | null): Item[] =>
  doc.items.filter((item) => item.category_id === categoryId);

const blankVariant = (id: string): Variant => ({
  id,
  name: null,
  options: {},
  sku: null,
  gtin: null,
  size: null,
  unit: null,
  price: null,
  pricing: 'fixed',
  images: [],
  external_id: null,
});

/** Inserts `item` after the last item of its category (or at the end), so a category's items stay together. */
const insertInCategory = (items: readonly Item[], item: Item): Item[] => {
  let at = items.length;
  for (let i = items.length - 1; i >= 0; i -= 1) {
    if (items[i]!.category_id === item.category_id) {
      at = i + 1;
      break;
    }
  }
  return [...items.slice(0, at), item, ...items.slice(at)];
};

export const addItem = (doc: Doc, categoryId: string | null, newId: NewId): { doc: Doc; id: string } => {
  const id = newId();
  const item: Item = {
    id,
    name: '',
    description: null,
    category_id: categoryId,
    brand: null,
    tags: [],
    calories: null,
    modifier_group_ids: [],
    images: [],
    external_id: null,
    option_names: [],
    variants: [blankVariant(newId())],
  };
  return { doc: { ...doc, items: insertInCategory(doc.items, item) }, id };
};

export const updateItem = (doc: Doc, id: string, patch: Partial<Omit<Item, 'id' | 'variants'>>): Doc => ({
  ...doc,
  items: doc.items.map((item) => (item.id === id ? { ...item, ...patch } : item)),
});

export const deleteItem = (doc: Doc, id: string): Doc => ({
  ...doc,
  items: doc.items.filter((item) => item.id !== id),
  image_mappings: doc.image_mappings.filter((m) => m.item_id !== id),
});

/** Moves an item up (-1) or down (+1) among the items of its own category. */
export const moveItem = (doc: Doc, id: string, delta: number): Doc => {
  const index = doc.items.findIndex((item) => item.id === id);
  const item = doc.items[index];
  if (!item) return doc;
  const step = Math.sign(delta);
  for (let j = index + step; j >= 0 && j < doc.items.length; j += step) {
    if (doc.items[j]!.category_id === item.category_id) {
      const items = [...doc.items];
      items[index] = items[j]!;
      items[j] = item;
      return { ...doc, items };
    }
  }
  return doc;
};

/** Moves an item into another category (or uncategorised), after that category's last item. */
export const moveItemToCategory = (doc: Doc, id: string, categoryId: string | null): Doc => {
  const item = doc.items.find((i) => i.id === id);
  if (!item || item.category_id === categoryId) return doc;
  const rest = doc.items.filter((i) => i.id !== id);
  return { ...doc, items: insertInCategory(rest, { ...item, category_id: categoryId }) };
};

export const toggleModifierGroup = (doc: Doc, itemId: string, groupId: string, on: boolean): Doc => {
  const item = doc.items.find((i) => i.id === itemId);
  if (!item) return doc;
  const has = item.modifier_group_ids.includes(groupId);
  if (has === on) return doc;
  const ids = on
    ? [...item.modifier_group_ids, groupId]
    : item.modifier_group_ids.filter((g) => g !== groupId);
  return updateItem(doc, itemId, { modifier_group_ids: ids });
};

/** Sets the item's option names (e.g. `Size`); values of options no longer named are dropped. */
export const setOptionNames = (doc: Doc, itemId: string, names: readonly string[]): Doc => ({
  ...doc,
  items: doc.items.map((item) => {
    if (item.id !== itemId) return item;
    const keep = new Set(names);
    return {
      ...item,
      option_names: [...names],
      variants: item.variants.map((v) => ({
        ...v,
        options: Object.fromEntries(Object.entries(v.options).filter(([k]) => keep.has(k))),
      })),
    };
  }),
});

// Variants.

const mapVariants = (doc: Doc, itemId: string, f: (variants: Variant[]) => Variant[]): Doc => ({
  ...doc,
  items: doc.items.map((item) => (item.id === itemId ? { ...item, variants: f(item.variants) } : item)),
});

/** Adds a variant without a price (a person types it), after the item's last one. */
export const addVariant = (doc: Doc, itemId: string, newId: NewId): { doc: Doc; id: string } => {
  const id = newId();
  return { doc: mapVariants(doc, itemId, (variants) => [...variants, blankVariant(id)]), id };
};

export const updateVariant = (
  doc: Doc,
  itemId: string,
  variantId: string,
  patch: Partial<Omit<Variant, 'id'>>,
): Doc => mapVariants(doc, itemId, (vs) => vs.map((v) => (v.id === variantId ? { ...v, ...patch } : v)));

/** Deletes a variant; an item keeps at least one (SPEC 5.5), so the last one is not deleted. */
export const deleteVariant = (doc: Doc, itemId: string, variantId: string): Doc => {
  const item = doc.items.find((i) => i.id === itemId);
  if (!item || item.variants.length <= 1) return doc;
  return {
    ...mapVariants(doc, itemId, (vs) => vs.filter((v) => v.id !== variantId)),
    image_mappings: doc.image_mappings.filter((m) => m.variant_id !== variantId),
  };
};

export const moveVariant = (doc: Doc, itemId: string, variantId: string, delta: number): Doc =>
  mapVariants(doc, itemId, (vs) => {
    const from = vs.findIndex((v) => v.id === variantId);
    return moveWithin(vs, from, from + delta);
  });

// Modifier groups and modifiers.

export const addModifierGroup = (doc: Doc, newId: NewId): { doc: Doc; id: string } => {
  const id = newId();
  const group: ModifierGroup = { id, name: '', min: 0, max: 1, modifiers: [] };
  return { doc: { ...doc, modifier_groups: [...doc.modifier_groups, group] }, id };
};

export const updateModifierGroup = (
  doc: Doc,
  id: string,
  patch: Partial<Omit<ModifierGroup, 'id' | 'modifiers'>>,
): Doc => ({
  ...doc,
  modifier_groups: doc.modifier_groups.map((g) => (g.id === id ? { ...g, ...patch } : g)),
});

export const deleteModifierGroup = (doc: Doc, id: string): Doc => ({
  ...doc,
  modifier_groups: doc.modifier_groups.filter((g) => g.id !== id),
  items: doc.items.map((item) =>
    item.modifier_group_ids.includes(id)
      ? { ...item, modifier_group_ids: item.modifier_group_ids.filter((g) => g !== id) }
      : item,
  ),
});

export const moveModifierGroup = (doc: Doc, id: string, delta: number): Doc => {
  const from = doc.modifier_groups.findIndex((g) => g.id === id);
  return { ...doc, modifier_groups: moveWithin(doc.modifier_groups, from, from + delta) };
};

const mapModifiers = (doc: Doc, groupId: string, f: (modifiers: Modifier[]) => Modifier[]): Doc => ({
  ...doc,
  modifier_groups: doc.modifier_groups.map((g) =>
    g.id === groupId ? { ...g, modifiers: f(g.modifiers) } : g,
  ),
});

export const addModifier = (doc: Doc, groupId: string, newId: NewId): { doc: Doc; id: string } => {
  const id = newId();
  return { doc: mapModifiers(doc, groupId, (ms) => [...ms, { id, name: '', price: null }]), id };
};

export const updateModifier = (
  doc: Doc,
  groupId: string,
  id: string,
  patch: Partial<Omit<Modifier, 'id'>>,
): Doc => mapModifiers(doc, groupId, (ms) => ms.map((m) => (m.id === id ? { ...m, ...patch } : m)));

export const deleteModifier = (doc: Doc, groupId: string, id: string): Doc =>
  mapModifiers(doc, groupId, (ms) => ms.filter((m) => m.id !== id));

export const moveModifier = (doc: Doc, groupId: string, id: string, delta: number): Doc =>
  mapModifiers(doc, groupId, (ms) => {
    const from = ms.findIndex((m) => m.id === id);
    return moveWithin(ms, from, from + delta);
  });
