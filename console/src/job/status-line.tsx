export type Status =
  | { readonly kind: 'idle' }
  | { readonly kind: 'busy' | 'ok' | 'error'; readonly text: string };

/**
 * What happened to the last action, announced to screen readers (polite for progress and success; the
 * error text is also in an alert region). Unsaved changes and the number of problems are shown beside it.
 */
export const StatusLine = ({
  status,
  dirty,
  problems,
}: {
  status: Status;
  dirty: boolean;
  problems: number;
}) => (
  <div class="status-line">
    <span
      role="status"
      aria-live="polite"
      class={status.kind === 'ok' ? 'ok' : status.kind === 'busy' ? 'muted' : undefined}
    >
      {status.kind === 'busy' || status.kind === 'ok' ? status.text : ''}
    </span>
    <span role="alert" class="error">
      {status.kind === 'error' ? status.text : ''}
    </span>
    <span class="muted">
      {dirty ? 'Unsaved changes' : 'No unsaved changes'}
      {problems > 0 ? ` · ${problems} problem(s)` : ''}
    </span>
  </div>
);
