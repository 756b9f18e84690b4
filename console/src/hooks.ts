import { useEffect, useState } from 'preact/hooks';

/** The current time, refreshed every `everyMs` (time left in the queue and on the job page). */
export const useNow = (everyMs = 30_000): number => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
};

export type Route = { readonly page: 'queue' } | { readonly page: 'job'; readonly id: string };

/** `#/jobs/<id>` → the job page; anything else → the queue. */
export const parseRoute = (hash: string): Route => {
  const match = /^#\/jobs\/([0-9a-fA-F-]{36})$/.exec(hash);
  return match ? { page: 'job', id: match[1]!.toLowerCase() } : { page: 'queue' };
};

export const jobHref = (id: string): string => `#/jobs/${id}`;

export const useRoute = (): Route => {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
};
