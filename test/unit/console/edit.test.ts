import {
  addCategory,
  addItem,
  addModifier,
  addModifierGroup,
  addVariant,
  deleteCategory,
  deleteItem,
  deleteModifierGroup,
  deleteVariant,
  moveCategory,
  moveItem,
  moveItemToCategory,
  moveVariant,
  orderedCategories,
  setOptionNames,
  toggleModifierGroup,
  updateVariant,
} from '../../../console/src/catalog/edit';
import { validateDoc } from '../../../console/src/catalog/problems';
import { aDraft, newId } from './draft-fixture';

const names = (items: { name: string }[]) => items.map((i) => i.name);

describe('draft editing operations', () => {
  it('the fixture is a valid catalog document (same schema as the API)', () => {
    expect(validateDoc(aDraft())).toEqual([]);
  });

  it('adds an item at the end of its category, with one empty variant, and leaves the input untouched', () => {
    const doc = aDraft();
    const pizza = doc.categories[0]!.id;
    const { doc: next, id } = addItem(doc, pizza, newId);
    expect(names(next.items)).toEqual(['Margherita', 'Diavola', '', 'Cola']);
    const added = next.items.find((i) => i.id === id)!;
    expect(added).toMatchObject({
      category_id: pizza,
      variants: [{ name: null, price: null, pricing: 'fixed' }],
    });
    expect(doc.items).toHaveLength(3);
    // A new item has no name yet: the schema says so, at its name.
    expect(validateDoc(next)).toEqual([{ pointer: '/items/2/name', message: 'must not be blank' }]);
  });

  it('moves items within their category only, and to another category (at its end)', () => {
    const doc = aDraft();
    const [margherita, diavola, cola] = doc.items.map((i) => i.id);
    expect(names(moveItem(doc, diavola!, -1).items)).toEqual(['Diavola', 'Margherita', 'Cola']);
    // Cola is alone in Drinks: up is a no-op, not a jump into Pizza.
    expect(moveItem(doc, cola!, -1)).toBe(doc);
    const moved = moveItemToCategory(doc, margherita!, doc.categories[1]!.id);
    expect(names(moved.items)).toEqual(['Diavola', 'Cola', 'Margherita']);
    expect(moved.items[2]!.category_id).toBe(doc.categories[1]!.id);
    expect(validateDoc(moved)).toEqual([]);
  });

  it('deletes a category: its items and sub-categories move to its parent', () => {
    let doc = aDraft();
    const [pizza, drinks] = doc.categories.map((c) => c.id);
    const added = addCategory(doc, newId, 'Classics');
    doc = {
      ...added.doc,
      categories: added.doc.categories.map((c) => (c.id === added.id ? { ...c, parent_id: pizza! } : c)),
    };
    doc = moveItemToCategory(doc, doc.items[0]!.id, added.id);
    const next = deleteCategory(doc, pizza!);
    expect(next.categories.map((c) => [c.name, c.parent_id, c.sort])).toEqual([
      ['Drinks', null, 0],
      ['Classics', null, 1],
    ]);
    expect(next.items.filter((i) => i.category_id === null).map((i) => i.name)).toEqual(['Diavola']);
    expect(validateDoc(next)).toEqual([]);
    expect(deleteCategory(next, drinks!).items.find((i) => i.name === 'Cola')!.category_id).toBeNull();
  });

  it('reorders categories by renumbering sort', () => {
    const doc = aDraft();
    const moved = moveCategory(doc, doc.categories[1]!.id, -1);
    expect(orderedCategories(moved).map((c) => [c.name, c.sort])).toEqual([
      ['Drinks', 0],
      ['Pizza', 1],
    ]);
  });

  it('edits variants: add, price, move, delete (never the last one), options follow option names', () => {
    let doc = aDraft();
    const diavola = doc.items[1]!;
    const { doc: added, id } = addVariant(doc, diavola.id, newId);
    doc = updateVariant(added, diavola.id, id, {
      name: 'Family',
      options: { Size: 'Family' },
      price: { amount: 2600, currency: 'USD' },
    });
    doc = moveVariant(doc, diavola.id, id, -1);
    expect(doc.items[1]!.variants.map((v) => v.name)).toEqual(['Small', 'Family', 'Large']);
    expect(validateDoc(doc)).toEqual([]);
    const renamed = setOptionNames(doc, diavola.id, ['Crust']);
    expect(renamed.items[1]!.variants.every((v) => Object.keys(v.options).length === 0)).toBe(true);
    const cola = doc.items[2]!;
    expect(deleteVariant(doc, cola.id, cola.variants[0]!.id)).toBe(doc);
    expect(deleteVariant(doc, diavola.id, id).items[1]!.variants).toHaveLength(2);
  });

  it('a variant option the item does not name is a problem at that option', () => {
    const doc = aDraft();
    const cola = doc.items[2]!;
    const next = updateVariant(doc, cola.id, cola.variants[0]!.id, { options: { Size: 'Large' } });
    expect(validateDoc(next)).toEqual([
      {
        pointer: '/items/2/variants/0/options/Size',
        message: `option "Size" is not one of the item's option_names`,
      },
    ]);
  });

  it('deleting a modifier group unlinks it from items; items link and unlink groups', () => {
    let doc = aDraft();
    const group = doc.modifier_groups[0]!.id;
    doc = toggleModifierGroup(doc, doc.items[2]!.id, group, true);
    expect(doc.items.filter((i) => i.modifier_group_ids.includes(group))).toHaveLength(2);
    const next = deleteModifierGroup(doc, group);
    expect(next.items.every((i) => i.modifier_group_ids.length === 0)).toBe(true);
    expect(validateDoc(next)).toEqual([]);
    // Without the unlinking the document would point at a group that does not exist.
    expect(validateDoc({ ...doc, modifier_groups: [] })).toContainEqual({
      pointer: '/items/0/modifier_group_ids/0',
      message: 'unknown modifier group',
    });
  });

  it('adds modifier groups and modifiers that need a name', () => {
    const doc = aDraft();
    const { doc: withGroup, id: group } = addModifierGroup(doc, newId);
    const { doc: next } = addModifier(withGroup, group, newId);
    expect(validateDoc(next).map((p) => p.pointer)).toEqual([
      '/modifier_groups/1/name',
      '/modifier_groups/1/modifiers/0/name',
    ]);
  });

  it('deleting an item drops its image mappings', () => {
    const doc = aDraft();
    const item = doc.items[0]!;
    const mapped = {
      ...doc,
      image_mappings: [
        {
          image_url: 'https://img.example/1.png',
          item_id: item.id,
          variant_id: item.variants[0]!.id,
          matched_by: 'sku' as const,
          width: null,
          height: null,
        },
      ],
    };
    expect(validateDoc(mapped)).toEqual([]);
    const next = deleteItem(mapped, item.id);
    expect(next.image_mappings).toEqual([]);
    expect(validateDoc(next)).toEqual([]);
  });
});
