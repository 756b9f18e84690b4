import {
  addCategory,
  deleteCategory,
  moveCategory,
  orderedCategories,
  updateCategory,
} from '../catalog/edit';
import { useEditor } from './editor-context';
import { SelectField, TextField } from './fields';
import { nameOf, RowButtons } from './row-buttons';

/** The categories, in the order the menu shows them: name, parent, move, delete, add. */
export const CategoriesTable = () => {
  const editor = useEditor();
  const { doc, apply, readOnly } = editor;
  const ordered = orderedCategories(doc);
  const indexOf = new Map(doc.categories.map((c, i) => [c.id, i]));
  const add = () => {
    let id = '';
    apply((d) => {
      const added = addCategory(d, () => editor.newId());
      id = added.id;
      return added.doc;
    });
    editor.focusField(`/categories/${doc.categories.length}/name`);
    return id;
  };
  return (
    <section aria-labelledby="categories-heading" class="draft-section">
      <h3 id="categories-heading">Categories ({ordered.length})</h3>
      {ordered.length > 0 && (
        <table class="grid">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Inside</th>
              <th scope="col">Items</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {ordered.map((category, position) => {
              const index = indexOf.get(category.id)!;
              const what = nameOf('category', category.name, position);
              const count = doc.items.filter((i) => i.category_id === category.id).length;
              return (
                <tr key={category.id}>
                  <td>
                    <TextField
                      pointer={`/categories/${index}/name`}
                      label="Category name"
                      value={category.name}
                      onValue={(name) => apply((d) => updateCategory(d, category.id, { name: name ?? '' }))}
                    />
                  </td>
                  <td>
                    <SelectField
                      pointer={`/categories/${index}/parent_id`}
                      label={`Parent of ${what}`}
                      value={category.parent_id ?? ''}
                      options={[
                        { value: '', label: '(top level)' },
                        ...ordered
                          .filter((c) => c.id !== category.id)
                          .map((c, i) => ({ value: c.id, label: c.name.trim() || `Category ${i + 1}` })),
                      ]}
                      onValue={(parent) =>
                        apply((d) =>
                          updateCategory(d, category.id, { parent_id: parent === '' ? null : parent }),
                        )
                      }
                    />
                  </td>
                  <td class="number">{count}</td>
                  <td>
                    <RowButtons
                      what={what}
                      disabled={readOnly}
                      onUp={position > 0 ? () => apply((d) => moveCategory(d, category.id, -1)) : undefined}
                      onDown={
                        position < ordered.length - 1
                          ? () => apply((d) => moveCategory(d, category.id, 1))
                          : undefined
                      }
                      onDelete={() => {
                        const also =
                          count > 0
                            ? ` Its ${count} item(s) move to its parent category (or to Uncategorised).`
                            : '';
                        if (confirm(`Delete ${what}?${also}`)) apply((d) => deleteCategory(d, category.id));
                      }}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <button type="button" onClick={add} disabled={readOnly}>
        Add category
      </button>
    </section>
  );
};
