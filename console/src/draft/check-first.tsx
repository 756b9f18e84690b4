import { LOW_CONFIDENCE, percent, useEditor } from './editor-context';

/**
 * The drafted items the machine is least sure of, lowest confidence first (SPEC 5.2: reviewers check the
 * uncertain ones first). Each entry takes the reviewer to the item's name and shows it in the source.
 */
export const CheckFirst = () => {
  const editor = useEditor();
  const { doc, provenance } = editor;
  const uncertain = doc.items
    .map((item, index) => ({ item, index, review: provenance.get(item.id) }))
    .filter(
      (e): e is typeof e & { review: { confidence: number } } =>
        typeof e.review?.confidence === 'number' && e.review.confidence < LOW_CONFIDENCE,
    )
    .sort((a, b) => a.review.confidence - b.review.confidence || a.index - b.index);
  if (provenance.size === 0) return null;
  return (
    <section aria-labelledby="check-first-heading" class="draft-section check-first">
      <h3 id="check-first-heading">Check these first ({uncertain.length})</h3>
      {uncertain.length === 0 ? (
        <p class="muted">
          The machine is confident about every drafted item; still, compare the draft with the source.
        </p>
      ) : (
        <ol>
          {uncertain.map(({ item, index, review }) => (
            <li key={item.id}>
              <button
                type="button"
                class="link"
                onClick={() => {
                  editor.showInSource(item.id);
                  editor.focusField(`/items/${index}/name`);
                }}
              >
                {item.name.trim() || '(no name)'}
              </button>{' '}
              <span class="badge warn">{percent(review.confidence)}</span>{' '}
              <span class="muted">{(provenance.get(item.id)?.doubts ?? []).join('; ')}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
};
