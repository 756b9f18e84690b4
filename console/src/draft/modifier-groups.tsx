import {
  addModifier,
  addModifierGroup,
  deleteModifier,
  deleteModifierGroup,
  moveModifier,
  moveModifierGroup,
  updateModifier,
  updateModifierGroup,
} from '../catalog/edit';
import { useEditor } from './editor-context';
import { NumberField, PriceField, TextField } from './fields';
import { nameOf, RowButtons } from './row-buttons';

/** Modifier groups (`Size`, `Extras`) with their min and max choices and their modifiers and prices. */
export const ModifierGroupsSection = () => {
  const editor = useEditor();
  const { doc, apply, readOnly } = editor;
  return (
    <section aria-labelledby="modifiers-heading" class="draft-section">
      <h3 id="modifiers-heading">Modifier groups ({doc.modifier_groups.length})</h3>
      {doc.modifier_groups.map((group, g) => {
        const base = `/modifier_groups/${g}`;
        const what = nameOf('modifier group', group.name, g);
        const users = doc.items.filter((i) => i.modifier_group_ids.includes(group.id)).length;
        return (
          <div class="modifier-group" key={group.id}>
            <div class="group-head">
              <TextField
                pointer={`${base}/name`}
                label="Modifier group name"
                value={group.name}
                onValue={(name) => apply((d) => updateModifierGroup(d, group.id, { name: name ?? '' }))}
              />
              <span class="label">Choose at least</span>
              <NumberField
                pointer={`${base}/min`}
                label={`Minimum choices of ${what}`}
                value={group.min}
                min={0}
                onValue={(min) => apply((d) => updateModifierGroup(d, group.id, { min: min ?? 0 }))}
              />
              <span class="label">at most</span>
              <NumberField
                pointer={`${base}/max`}
                label={`Maximum choices of ${what}`}
                value={group.max}
                min={0}
                onValue={(max) => apply((d) => updateModifierGroup(d, group.id, { max: max ?? 0 }))}
              />
              <span class="muted">used by {users} item(s)</span>
              <RowButtons
                what={what}
                disabled={readOnly}
                onUp={g > 0 ? () => apply((d) => moveModifierGroup(d, group.id, -1)) : undefined}
                onDown={
                  g < doc.modifier_groups.length - 1
                    ? () => apply((d) => moveModifierGroup(d, group.id, 1))
                    : undefined
                }
                onDelete={() => {
                  if (users === 0 || confirm(`Delete ${what}? ${users} item(s) use it.`))
                    apply((d) => deleteModifierGroup(d, group.id));
                }}
              />
            </div>
            {group.modifiers.length > 0 && (
              <table class="grid modifiers">
                <caption class="visually-hidden">Modifiers of {what}</caption>
                <thead>
                  <tr>
                    <th scope="col">Modifier</th>
                    <th scope="col">Extra price</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {group.modifiers.map((modifier, m) => (
                    <tr key={modifier.id}>
                      <td>
                        <TextField
                          pointer={`${base}/modifiers/${m}/name`}
                          label="Modifier name"
                          value={modifier.name}
                          onValue={(name) =>
                            apply((d) => updateModifier(d, group.id, modifier.id, { name: name ?? '' }))
                          }
                        />
                      </td>
                      <td>
                        <PriceField
                          pointer={`${base}/modifiers/${m}/price`}
                          label={`Extra price of ${nameOf('modifier', modifier.name, m)}`}
                          price={modifier.price}
                          currency={doc.currency}
                          blankNote="No extra charge"
                          onPrice={(price) =>
                            apply((d) => updateModifier(d, group.id, modifier.id, { price }))
                          }
                        />
                      </td>
                      <td>
                        <RowButtons
                          what={`${nameOf('modifier', modifier.name, m)} of ${what}`}
                          disabled={readOnly}
                          onUp={
                            m > 0 ? () => apply((d) => moveModifier(d, group.id, modifier.id, -1)) : undefined
                          }
                          onDown={
                            m < group.modifiers.length - 1
                              ? () => apply((d) => moveModifier(d, group.id, modifier.id, 1))
                              : undefined
                          }
                          onDelete={() => apply((d) => deleteModifier(d, group.id, modifier.id))}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <button
              type="button"
              disabled={readOnly}
              onClick={() => {
                apply((d) => addModifier(d, group.id, () => editor.newId()).doc);
                editor.focusField(`${base}/modifiers/${group.modifiers.length}/name`);
              }}
            >
              Add modifier to {what}
            </button>
          </div>
        );
      })}
      <button
        type="button"
        disabled={readOnly}
        onClick={() => {
          apply((d) => addModifierGroup(d, () => editor.newId()).doc);
          editor.focusField(`/modifier_groups/${doc.modifier_groups.length}/name`);
        }}
      >
        Add modifier group
      </button>
    </section>
  );
};
