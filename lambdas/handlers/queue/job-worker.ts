import { QUEUES } from '../../../lib/resources';
import { jobMessageSchema } from '../../core/messages';
import { processJob } from '../../core/use-cases/job-processing';
import { loadConfig } from '../../shared/config';
import { type AppDeps, defaultDeps } from '../../shared/deps';
import { draftingAdapters } from '../../shared/drafting';
import { lazy } from '../../shared/lazy';
import { count, METRIC } from '../../shared/metrics';
import { sqsConsumer } from '../../shared/queue';

const OUTCOME_METRIC = {
  completed: METRIC.jobsCompleted,
  in_review: METRIC.jobsInReview,
  failed: METRIC.jobsFailed,
} as const;

const queue = QUEUES.jobsStandard;

/** Consumer of the rush and standard job queues: builds catalogs (SPEC 5.2). */
export const makeJobWorkerHandler = (deps: AppDeps) =>
  sqsConsumer(deps, 'job-worker', jobMessageSchema, async (message, record) => {
    const started = Date.now();
    const outcome = await processJob(deps, message.clientId, message.jobId, {
      attempt: Number(record.attributes.ApproximateReceiveCount) || 1,
      maxAttempts: queue.maxReceiveCount,
      leaseSeconds: queue.consumerTimeoutSeconds + 60,
    });
    if (outcome.kind !== 'skipped') count(deps, OUTCOME_METRIC[outcome.kind]);
    return {
      job_id: message.jobId,
      outcome: outcome.kind,
      ...(outcome.kind === 'skipped' ? { reason: outcome.reason } : {}),
      ms: Date.now() - started,
    };
  });

export const handler = lazy(() =>
  makeJobWorkerHandler({ ...defaultDeps(), ...draftingAdapters(loadConfig(process.env).moduleRoot) }),
);
