import {
  addVariant,
  deleteVariant,
  moveVariant,
  setOptionNames,
  toggleModifierGroup,
  updateItem,
  updateVariant,
} from '../catalog/edit';
import type { Item } from '../catalog/model';
import { fieldId } from '../catalog/problems';
import { percent, useEditor } from './editor-context';
import { NumberField, PriceField, SelectField, TextField } from './fields';
import { nameOf, RowButtons } from './row-buttons';

interface ItemDetailsProps {
  readonly item: Item;
  readonly index: number;
  readonly what: string;
}

const splitNames = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s, i, all) => s !== '' && all.indexOf(s) === i);

/** Under an item's row: its variants and prices, options, modifier groups, calories and provenance. */
export const ItemDetails = ({ item, index, what }: ItemDetailsProps) => {
  const editor = useEditor();
  const { doc, apply, readOnly, provenance, problems } = editor;
  const base = `/items/${index}`;
  const review = provenance.get(item.id);
  const optionMessages = problems.get(`${base}/option_names`) ?? [];
  return (
    <div class="item-details">
      {review && (
        <p class="provenance">
          Read from source {(review.source_index ?? 0) + 1} ({editor.sourceNameOf(review.source_index ?? 0)})
          {review.page ? `, page ${review.page}` : ''}
          {review.method === 'html' ? (
            <>
              {review.url ? ` (${review.url})` : ''}, drafted from the page’s layout
              {review.locator ? (
                <>
                  , element <code class="break">{review.locator}</code>
                </>
              ) : (
                ''
              )}
            </>
          ) : review.method ? (
            ` (${review.method === 'ocr' ? 'recognised from the image' : 'text layer'})`
          ) : (
            ''
          )}
          {review.confidence !== null ? `, confidence ${percent(review.confidence)}` : ''}
          {review.doubts && review.doubts.length > 0 ? `: ${review.doubts.join('; ')}` : ''}.
        </p>
      )}
      <div class="details-grid">
        <div class="field">
          <label for={fieldId(`${base}/option_names`)}>Options (comma-separated, e.g. Size)</label>
          <input
            type="text"
            id={fieldId(`${base}/option_names`)}
            value={item.option_names.join(', ')}
            readOnly={readOnly}
            aria-invalid={optionMessages.length > 0 ? 'true' : undefined}
            onChange={(event) =>
              apply((d) =>
                setOptionNames(d, item.id, splitNames((event.currentTarget as HTMLInputElement).value)),
              )
            }
          />
          {optionMessages.length > 0 && <span class="field-error">{optionMessages.join('; ')}</span>}
        </div>
        <div>
          <span class="label">Calories</span>
          <NumberField
            pointer={`${base}/calories`}
            label={`Calories of ${what}`}
            value={item.calories}
            min={0}
            onValue={(calories) => apply((d) => updateItem(d, item.id, { calories }))}
          />
        </div>
      </div>
      <table class="grid variants">
        <caption>Variants and prices of {what}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            {item.option_names.map((name) => (
              <th scope="col" key={name}>
                {name}
              </th>
            ))}
            <th scope="col">Price</th>
            <th scope="col">Pricing</th>
            <th scope="col">SKU</th>
            <th scope="col">GTIN</th>
            <th scope="col">Size</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {item.variants.map((variant, v) => {
            const vp = `${base}/variants/${v}`;
            const vwhat = `${nameOf('variant', variant.name, v)} of ${what}`;
            const set = (patch: Parameters<typeof updateVariant>[3]) =>
              apply((d) => updateVariant(d, item.id, variant.id, patch));
            return (
              <tr key={variant.id}>
                <td>
                  <TextField
                    pointer={`${vp}/name`}
                    label={`Name of variant ${v + 1}`}
                    value={variant.name}
                    optional
                    placeholder={item.variants.length === 1 ? '(one form)' : ''}
                    onValue={(name) => set({ name })}
                  />
                </td>
                {item.option_names.map((option) => (
                  <td key={option}>
                    <TextField
                      pointer={`${vp}/options/${option}`}
                      label={`${option} of variant ${v + 1}`}
                      value={variant.options[option] ?? null}
                      optional
                      onValue={(value) => {
                        const options = { ...variant.options };
                        if (value === null) delete options[option];
                        else options[option] = value;
                        set({ options });
                      }}
                    />
                  </td>
                ))}
                <td>
                  <PriceField
                    pointer={`${vp}/price`}
                    label={`Price of variant ${v + 1}`}
                    price={variant.price}
                    currency={doc.currency}
                    disabled={variant.pricing === 'variable'}
                    onPrice={(price) => set({ price })}
                  />
                </td>
                <td>
                  <SelectField
                    pointer={`${vp}/pricing`}
                    label={`Pricing of variant ${v + 1}`}
                    value={variant.pricing}
                    options={[
                      { value: 'fixed', label: 'fixed' },
                      { value: 'variable', label: 'market price' },
                    ]}
                    onValue={(pricing) =>
                      set(
                        pricing === 'variable' ? { pricing: 'variable', price: null } : { pricing: 'fixed' },
                      )
                    }
                  />
                </td>
                <td>
                  <TextField
                    pointer={`${vp}/sku`}
                    label={`SKU of variant ${v + 1}`}
                    value={variant.sku}
                    optional
                    onValue={(sku) => set({ sku })}
                  />
                </td>
                <td>
                  <TextField
                    pointer={`${vp}/gtin`}
                    label={`GTIN of variant ${v + 1}`}
                    value={variant.gtin}
                    optional
                    onValue={(gtin) => set({ gtin })}
                  />
                </td>
                <td>
                  <TextField
                    pointer={`${vp}/size`}
                    label={`Size of variant ${v + 1}`}
                    value={variant.size}
                    optional
                    onValue={(size) => set({ size })}
                  />
                </td>
                <td>
                  <RowButtons
                    what={vwhat}
                    disabled={readOnly}
                    deleteDisabled={item.variants.length <= 1}
                    onUp={v > 0 ? () => apply((d) => moveVariant(d, item.id, variant.id, -1)) : undefined}
                    onDown={
                      v < item.variants.length - 1
                        ? () => apply((d) => moveVariant(d, item.id, variant.id, 1))
                        : undefined
                    }
                    onDelete={() => apply((d) => deleteVariant(d, item.id, variant.id))}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <button
        type="button"
        disabled={readOnly}
        onClick={() => {
          apply((d) => addVariant(d, item.id, () => editor.newId()).doc);
          editor.focusField(`${base}/variants/${item.variants.length}/name`);
        }}
      >
        Add variant to {what}
      </button>
      {doc.modifier_groups.length > 0 && (
        <fieldset class="modifier-links">
          <legend>Modifier groups of {what}</legend>
          {doc.modifier_groups.map((group, g) => (
            <label key={group.id} class="checkbox">
              <input
                type="checkbox"
                checked={item.modifier_group_ids.includes(group.id)}
                disabled={readOnly}
                onChange={(event) =>
                  apply((d) =>
                    toggleModifierGroup(
                      d,
                      item.id,
                      group.id,
                      (event.currentTarget as HTMLInputElement).checked,
                    ),
                  )
                }
              />
              {group.name.trim() || `Modifier group ${g + 1}`}
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
};
