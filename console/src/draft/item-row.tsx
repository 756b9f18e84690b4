import { deleteItem, moveItem, moveItemToCategory, updateItem, updateVariant } from '../catalog/edit';
import type { Category, Item } from '../catalog/model';
import { fieldOf } from '../catalog/problems';
import { LOW_CONFIDENCE, percent, useEditor } from './editor-context';
import { PriceField, SelectField, TextField } from './fields';
import { ItemDetails } from './item-details';
import { nameOf, RowButtons } from './row-buttons';

interface ItemRowProps {
  readonly item: Item;
  /** Position in the document's `items` (for pointers). */
  readonly index: number;
  /** Position among its category's items (for moving). */
  readonly position: number;
  readonly count: number;
  readonly categories: readonly Category[];
}

/** One item: its confidence mark, name, description, price (or its variants' count), category and actions. */
export const ItemRow = ({ item, index, position, count, categories }: ItemRowProps) => {
  const editor = useEditor();
  const { doc, apply, readOnly, expanded, provenance, problems } = editor;
  const base = `/items/${index}`;
  const open = expanded.has(item.id);
  const what = nameOf('item', item.name, position);
  const review = provenance.get(item.id);
  const low =
    review?.confidence !== null && review?.confidence !== undefined && review.confidence < LOW_CONFIDENCE;
  const single = item.variants.length === 1 ? item.variants[0]! : null;
  const detailsId = `details-${item.id}`;
  // Problems inside the closed details are announced on the row, so that none hides.
  const hidden = open
    ? 0
    : [...problems.keys()].filter(
        (field) =>
          field.startsWith(`${base}/`) &&
          !['name', 'description', 'category_id'].some((f) => field === `${base}/${f}`) &&
          !(single && field === `${base}/variants/0/price`),
      ).length;
  return (
    <tbody class={`item${low ? ' low-confidence' : ''}${open ? ' open' : ''}`}>
      <tr>
        <td class="check">
          {review?.confidence !== null && review?.confidence !== undefined && (
            <span
              class={low ? 'badge warn' : 'badge'}
              title={(review.doubts ?? []).join('; ') || 'confidence of the machine reading'}
            >
              {low ? '⚠ ' : ''}
              {percent(review.confidence)}
              <span class="visually-hidden">{low ? ' confidence: check this item' : ' confidence'}</span>
            </span>
          )}
        </td>
        <td>
          <TextField
            pointer={`${base}/name`}
            label="Item name"
            value={item.name}
            onValue={(name) => apply((d) => updateItem(d, item.id, { name: name ?? '' }))}
          />
        </td>
        <td>
          <TextField
            pointer={`${base}/description`}
            label={`Description of ${what}`}
            value={item.description}
            optional
            multiline
            onValue={(description) => apply((d) => updateItem(d, item.id, { description }))}
          />
        </td>
        <td>
          {single ? (
            single.pricing === 'variable' ? (
              <span class="muted">market price</span>
            ) : (
              <PriceField
                pointer={`${base}/variants/0/price`}
                label={`Price of ${what}`}
                price={single.price}
                currency={doc.currency}
                onPrice={(price) => apply((d) => updateVariant(d, item.id, single.id, { price }))}
              />
            )
          ) : (
            <span class="muted">{item.variants.length} variants</span>
          )}
        </td>
        <td>
          <SelectField
            pointer={`${base}/category_id`}
            label={`Category of ${what}`}
            value={item.category_id ?? ''}
            options={[
              { value: '', label: 'Uncategorised' },
              ...categories.map((c, i) => ({ value: c.id, label: c.name.trim() || `Category ${i + 1}` })),
            ]}
            onValue={(category) =>
              apply((d) => moveItemToCategory(d, item.id, category === '' ? null : category))
            }
          />
        </td>
        <td>
          <div class="row-actions">
            <button
              type="button"
              aria-expanded={open ? 'true' : 'false'}
              aria-controls={detailsId}
              onClick={() => editor.toggleExpanded(item.id)}
            >
              {open ? 'Hide details' : 'Details'}
              <span class="visually-hidden"> of {what}</span>
              {hidden > 0 && <span class="badge error">{hidden} problem(s)</span>}
            </button>
            {review && (
              <button type="button" onClick={() => editor.showInSource(item.id)}>
                Source<span class="visually-hidden">: show where {what} was read</span>
              </button>
            )}
            <RowButtons
              what={what}
              disabled={readOnly}
              onUp={position > 0 ? () => apply((d) => moveItem(d, item.id, -1)) : undefined}
              onDown={position < count - 1 ? () => apply((d) => moveItem(d, item.id, 1)) : undefined}
              onDelete={() => apply((d) => deleteItem(d, item.id))}
            />
          </div>
        </td>
      </tr>
      {open && (
        <tr class="details-row">
          <td colSpan={6} id={detailsId}>
            <ItemDetails item={item} index={index} what={what} />
          </td>
        </tr>
      )}
    </tbody>
  );
};

/** Whether a field of the document lies in an item's closed details (the page then opens it). */
export const inDetails = (pointer: string): boolean => {
  const field = fieldOf(pointer);
  return /^\/items\/\d+\/(variants|option_names|modifier_group_ids|calories)/.test(field);
};
