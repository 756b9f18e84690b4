import { addItem, itemsOfCategory, orderedCategories } from '../catalog/edit';
import type { Category } from '../catalog/model';
import { useEditor } from './editor-context';
import { ItemRow } from './item-row';

/**
 * The items, one table per category in menu order (then the uncategorised ones), each row editable in
 * place; an item's variants, options and modifier groups open under its row.
 */
export const ItemsSection = () => {
  const { doc } = useEditor();
  const categories = orderedCategories(doc);
  const known = new Set(categories.map((c) => c.id));
  const uncategorised = doc.items.some((i) => i.category_id === null || !known.has(i.category_id));
  return (
    <section aria-labelledby="items-heading" class="draft-section">
      <h3 id="items-heading">Items ({doc.items.length})</h3>
      {categories.map((category) => (
        <CategoryItems key={category.id} category={category} />
      ))}
      {(uncategorised || categories.length === 0) && <CategoryItems category={null} />}
    </section>
  );
};

const CategoryItems = ({ category }: { category: Category | null }) => {
  const editor = useEditor();
  const { doc, apply, readOnly } = editor;
  const known = new Set(doc.categories.map((c) => c.id));
  const items =
    category === null
      ? doc.items.filter((i) => i.category_id === null || !known.has(i.category_id))
      : itemsOfCategory(doc, category.id);
  const title = category === null ? 'Uncategorised' : category.name.trim() || '(category without a name)';
  const headingId = `items-of-${category?.id ?? 'none'}`;
  const add = () => {
    let index = -1;
    apply((d) => {
      const added = addItem(d, category?.id ?? null, () => editor.newId());
      index = added.doc.items.findIndex((i) => i.id === added.id);
      return added.doc;
    });
    if (index >= 0) editor.focusField(`/items/${index}/name`);
  };
  return (
    <div class="category-items">
      <h4 id={headingId}>{title}</h4>
      {items.length > 0 && (
        <table class="grid items" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col">
                <span class="visually-hidden">Check</span>
              </th>
              <th scope="col" class="col-name">
                Name
              </th>
              <th scope="col">Description</th>
              <th scope="col" class="col-price">
                Price
              </th>
              <th scope="col" class="col-category">
                Category
              </th>
              <th scope="col" class="col-actions">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          {items.map((item, position) => (
            <ItemRow
              key={item.id}
              item={item}
              index={doc.items.indexOf(item)}
              position={position}
              count={items.length}
              categories={orderedCategories(doc)}
            />
          ))}
        </table>
      )}
      <button type="button" onClick={add} disabled={readOnly}>
        Add item to {title}
      </button>
    </div>
  );
};
