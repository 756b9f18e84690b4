import type { CatalogChanges as Changes } from '../../../lambdas/core/schemas/changes';

/** `results.changes` (SPEC 5.5) as the job shows it: what changed since the merchant's previous catalog. */
const isChanges = (value: unknown): value is Changes =>
  value !== null &&
  typeof value === 'object' &&
  typeof (value as Changes).since_job_id === 'string' &&
  Array.isArray((value as Changes).first);

/** A value as a reviewer reads it: text as it is, a price in units of its currency, anything else as JSON. */
const shown = (value: unknown): string => {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && 'amount' in value && 'currency' in value)
    return `${(value as { amount: number }).amount} ${(value as { currency: string }).currency} (minor units)`;
  return JSON.stringify(value);
};

/**
 * The changes of a job against the merchant's previous completed job: the counts, then each change listed
 * (the first 100), merchant text rendered as text.
 */
export const CatalogChanges = ({ changes }: { changes: unknown }) => {
  if (!isChanges(changes)) return null;
  return (
    <section class="catalog-changes" aria-labelledby="changes-heading">
      <h2 id="changes-heading">Changes since the merchant’s previous catalog</h2>
      <p>
        Since job <code>{changes.since_job_id}</code>: {changes.items_added} added, {changes.items_removed}{' '}
        removed, {changes.items_changed} changed ({changes.prices_changed} prices).
      </p>
      {changes.first.length > 0 && (
        <ul>
          {changes.first.map((c) => (
            <li key={c.item_id}>
              <strong>{c.change}</strong> {c.name}
              {c.fields.length > 0 && (
                <ul>
                  {c.fields.map((f, i) => (
                    <li key={i}>
                      {f.field}
                      {f.variant_id ? ' (variant)' : ''}: {shown(f.before)} → {shown(f.after)}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
};
