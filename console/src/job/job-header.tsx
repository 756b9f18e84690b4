import type { OpsJob } from '../api/types';
import { useNow } from '../hooks';
import { formatDue, timeLeft } from '../time';
import { CatalogChanges } from './catalog-changes';

const STATE_LABELS: Record<string, string> = {
  in_review: 'in review',
  completed: 'completed',
  failed: 'failed',
  canceled: 'canceled',
  processing: 'processing',
  initiated: 'initiated',
};

/** Who the job is for, when it is due, what the client asked: everything a reviewer reads first. */
export const JobHeader = ({
  job,
  headingRef,
}: {
  job: OpsJob;
  headingRef: preact.Ref<HTMLHeadingElement>;
}) => {
  const now = useNow();
  const left = timeLeft(job.due_at, now);
  const reasons = Array.isArray(job.results?.review_reasons) ? (job.results.review_reasons as unknown[]) : [];
  return (
    <header class="job-header">
      <h1 ref={headingRef} tabIndex={-1}>
        {job.job_data.merchant_name}
      </h1>
      <dl class="facts">
        <div>
          <dt>State</dt>
          <dd>
            <span class={`state state-${job.state}`}>{STATE_LABELS[job.state] ?? job.state}</span>
          </dd>
        </div>
        <div>
          <dt>Priority</dt>
          <dd>{job.processing_type === 'rush' ? <span class="badge rush">Rush</span> : 'Standard'}</dd>
        </div>
        <div>
          <dt>Due</dt>
          <dd>
            <time dateTime={job.due_at}>{formatDue(job.due_at)}</time>{' '}
            {job.state === 'in_review' && (
              <span class={left.overdue ? 'overdue' : left.soon ? 'soon' : ''}>({left.text})</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Client</dt>
          <dd>{job.client_id}</dd>
        </div>
        <div>
          <dt>Job</dt>
          <dd>
            {job.job_type.replaceAll('_', ' ')} · <code>{job.id}</code>
          </dd>
        </div>
        {job.job_data.merchant_address && (
          <div>
            <dt>Address</dt>
            <dd>{job.job_data.merchant_address}</dd>
          </div>
        )}
      </dl>
      {job.job_data.instructions && (
        <div class="instructions">
          <h2>Instructions from the client</h2>
          <p class="pre">{job.job_data.instructions}</p>
        </div>
      )}
      {reasons.length > 0 && (
        <div class="review-reasons">
          <h2>Why this job needs a person</h2>
          <ul>
            {reasons.map((reason, i) => (
              <li key={i}>{typeof reason === 'string' ? reason : JSON.stringify(reason)}</li>
            ))}
          </ul>
        </div>
      )}
      <CatalogChanges changes={job.results?.changes} />
      {job.error && (
        <p class="error">
          Failed: {job.error.code} — {job.error.detail}
        </p>
      )}
    </header>
  );
};
