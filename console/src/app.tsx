import { useMemo, useState } from 'preact/hooks';
import { type ApiError, OpsApi } from './api/client';
import { useRoute } from './hooks';
import { JobPage } from './job/job-page';
import { QueuePage } from './queue-page';
import { forgetKey, storedKey, storeKey } from './session';
import { SignIn } from './sign-in';

/** The console: sign-in, then the review queue (`#/`) or a job (`#/jobs/<id>`). */
export const App = () => {
  const [key, setKey] = useState<string | null>(storedKey);
  const [notice, setNotice] = useState<string | null>(null);
  const route = useRoute();
  const api = useMemo(() => (key ? new OpsApi(key) : null), [key]);

  const signOut = (message: string | null = null) => {
    forgetKey();
    setKey(null);
    setNotice(message);
  };
  const onUnauthorized = (_: ApiError) =>
    signOut('Your key is no longer valid (revoked or expired). Sign in again.');

  if (!api) {
    return (
      <main id="main">
        <SignIn
          notice={notice}
          onSignedIn={(k) => {
            storeKey(k);
            setNotice(null);
            setKey(k);
          }}
        />
      </main>
    );
  }
  return (
    <>
      <header class="top-bar">
        <a class="brand" href="#/">
          Operations console
        </a>
        <nav aria-label="Console">
          <a href="#/" aria-current={route.page === 'queue' ? 'page' : undefined}>
            Review queue
          </a>
        </nav>
        <button type="button" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {route.page === 'job' ? (
          <JobPage key={route.id} api={api} id={route.id} onUnauthorized={onUnauthorized} />
        ) : (
          <QueuePage api={api} onUnauthorized={onUnauthorized} />
        )}
      </main>
    </>
  );
};
