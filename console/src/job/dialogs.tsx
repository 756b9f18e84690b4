import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * Modal dialogs on the native <dialog> element: it traps focus, closes on Escape and gives focus back to the
 * button that opened it.
 */
const useModal = (open: boolean) => {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return ref;
};

interface ConfirmDialogProps {
  readonly open: boolean;
  readonly title: string;
  readonly confirmLabel: string;
  readonly children: ComponentChildren;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

export const ConfirmDialog = (props: ConfirmDialogProps) => {
  const ref = useModal(props.open);
  return (
    <dialog ref={ref} aria-labelledby="confirm-title" onClose={props.onCancel}>
      <h2 id="confirm-title">{props.title}</h2>
      {props.children}
      <div class="dialog-buttons">
        <button type="button" class="primary" onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
};

/** Reasons the operations team gives most; the code is sent as the job's `error.code`. */
export const FAIL_CODES = [
  { code: 'illegible_menu', label: 'The menu cannot be read (blurred, cut off, blank)' },
  { code: 'not_a_catalog', label: 'The source is not a menu or catalog' },
  { code: 'wrong_merchant', label: 'The source belongs to another merchant' },
  { code: 'source_unavailable', label: 'The source cannot be opened' },
  { code: 'instructions_unclear', label: 'The instructions cannot be followed' },
  { code: 'other', label: 'Another reason (say which below)' },
] as const;

interface FailDialogProps {
  readonly open: boolean;
  readonly busy: boolean;
  readonly error: string | null;
  readonly onFail: (reason: { code: string; message: string }) => void;
  readonly onCancel: () => void;
}

export const FailDialog = (props: FailDialogProps) => {
  const ref = useModal(props.open);
  const [code, setCode] = useState<string>(FAIL_CODES[0].code);
  const [message, setMessage] = useState('');
  const [missing, setMissing] = useState(false);
  return (
    <dialog ref={ref} aria-labelledby="fail-title" onClose={props.onCancel}>
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          if (message.trim() === '') {
            setMissing(true);
            return;
          }
          props.onFail({ code, message: message.trim() });
        }}
      >
        <h2 id="fail-title">Fail this job</h2>
        <p>The client sees the reason in the job's error. This cannot be undone.</p>
        <div class="field">
          <label for="fail-code">Reason</label>
          <select
            id="fail-code"
            value={code}
            onChange={(e) => setCode((e.currentTarget as HTMLSelectElement).value)}
          >
            {FAIL_CODES.map((c) => (
              <option key={c.code} value={c.code}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="fail-message">Message to the client</label>
          <textarea
            id="fail-message"
            rows={4}
            maxLength={2000}
            value={message}
            aria-invalid={missing ? 'true' : undefined}
            aria-describedby={missing ? 'fail-message-error' : undefined}
            onInput={(e) => {
              setMessage((e.currentTarget as HTMLTextAreaElement).value);
              setMissing(false);
            }}
          />
          {missing && (
            <span class="field-error" id="fail-message-error">
              Say why the job fails.
            </span>
          )}
        </div>
        {props.error && (
          <p class="error" role="alert">
            {props.error}
          </p>
        )}
        <div class="dialog-buttons">
          <button type="submit" class="danger" disabled={props.busy}>
            Fail the job
          </button>
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
};
