import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, OpsApi } from './api/client';
import { looksLikeKey } from './session';

interface SignInProps {
  readonly onSignedIn: (key: string) => void;
  /** Why the operator is back here (a key revoked meanwhile). */
  readonly notice: string | null;
}

/** Sign in with an operator key; the key is checked against the API before it is kept. */
export const SignIn = ({ onSignedIn, notice }: SignInProps) => {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    document.title = 'Sign in · Operations console';
    // Only when nothing has focus yet: never take it from a field the person already went to.
    if (document.activeElement === document.body) heading.current?.focus();
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    const trimmed = key.trim();
    if (!looksLikeKey(trimmed)) {
      setError('Paste the whole operator key (it starts with cjk_).');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await new OpsApi(trimmed).listQueue(null, 1);
      onSignedIn(trimmed);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401)
        setError('This key is not valid: it is unknown or revoked.');
      else if (e instanceof ApiError && e.status === 403)
        setError('This is a client key. The console needs a key of scope operator.');
      else setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="page sign-in">
      <h1 ref={heading} tabIndex={-1}>
        Operations console
      </h1>
      <p>
        Finish the catalog jobs that need a person: check the draft against the merchant's menu, correct it,
        complete it.
      </p>
      {notice && <p class="notice">{notice}</p>}
      <form onSubmit={submit} noValidate>
        <div class="field">
          <label for="api-key">Operator API key</label>
          <input
            id="api-key"
            name="api-key"
            type="password"
            autoComplete="off"
            spellcheck={false}
            required
            value={key}
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={`api-key-help${error ? ' api-key-error' : ''}`}
            onInput={(e) => setKey((e.currentTarget as HTMLInputElement).value)}
          />
          <span id="api-key-help" class="help">
            Kept in this browser tab only: closing the tab signs you out.
          </span>
          <span id="api-key-error" class="field-error" role="alert">
            {error ?? ''}
          </span>
        </div>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </div>
  );
};
