import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type OpsApi } from './api/client';
import type { OpsJobSummary } from './api/types';
import { jobHref, useNow } from './hooks';
import { formatDue, timeLeft } from './time';

interface QueuePageProps {
  readonly api: OpsApi;
  readonly onUnauthorized: (error: ApiError) => void;
}

const INSTRUCTIONS_SHOWN = 160;

/** The review queue as the API orders it: rush first, then the earliest due. */
export const QueuePage = ({ api, onUnauthorized }: QueuePageProps) => {
  const [jobs, setJobs] = useState<OpsJobSummary[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [loadedAt, setLoadedAt] = useState<Date | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const now = useNow();

  const load = async (more: boolean) => {
    setLoading(true);
    setError(null);
    try {
      const page = await api.listQueue(more ? cursor : null);
      setJobs((current) => (more && current ? [...current, ...page.data] : [...page.data]));
      setCursor(page.next_cursor);
      setLoadedAt(new Date());
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) onUnauthorized(e);
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setLoading(false);
    }
  };

  useEffect(() => {
    document.title = 'Review queue · Operations console';
    heading.current?.focus();
    void load(false);
  }, [api]);

  return (
    <div class="page queue-page">
      <div class="page-head">
        <h1 ref={heading} tabIndex={-1}>
          Review queue
        </h1>
        <button type="button" onClick={() => void load(false)} disabled={loading}>
          Refresh
        </button>
        <span role="status" aria-live="polite" class="muted">
          {loading
            ? 'Loading…'
            : jobs
              ? `${jobs.length}${cursor ? '+' : ''} job(s) in review, as of ${loadedAt?.toLocaleTimeString() ?? ''}`
              : ''}
        </span>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {jobs && jobs.length === 0 && <p>No job is waiting for review.</p>}
      {jobs && jobs.length > 0 && (
        <table class="grid queue">
          <caption class="visually-hidden">Jobs in review, rush first, then the earliest due</caption>
          <thead>
            <tr>
              <th scope="col">Priority</th>
              <th scope="col">Due</th>
              <th scope="col">Time left</th>
              <th scope="col">Merchant</th>
              <th scope="col">Client</th>
              <th scope="col">Type</th>
              <th scope="col">Instructions</th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((job) => {
              const left = timeLeft(job.due_at, now);
              const instructions = job.job_data.instructions?.trim() ?? '';
              return (
                <tr key={job.id} class={job.processing_type === 'rush' ? 'rush' : undefined}>
                  <td>
                    {job.processing_type === 'rush' ? <span class="badge rush">Rush</span> : 'Standard'}
                  </td>
                  <td>
                    <time dateTime={job.due_at}>{formatDue(job.due_at)}</time>
                  </td>
                  <td class={left.overdue ? 'overdue' : left.soon ? 'soon' : undefined}>{left.text}</td>
                  <th scope="row">
                    <a href={jobHref(job.id)}>{job.job_data.merchant_name}</a>
                  </th>
                  <td>{job.client_id}</td>
                  <td>{job.job_type.replaceAll('_', ' ')}</td>
                  <td
                    class="instructions-cell"
                    title={instructions.length > INSTRUCTIONS_SHOWN ? instructions : undefined}
                  >
                    {instructions.length > INSTRUCTIONS_SHOWN
                      ? `${instructions.slice(0, INSTRUCTIONS_SHOWN)}…`
                      : instructions || '—'}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {cursor && (
        <button type="button" onClick={() => void load(true)} disabled={loading}>
          Show more
        </button>
      )}
    </div>
  );
};
