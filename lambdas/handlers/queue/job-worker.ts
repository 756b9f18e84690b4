import { QUEUES } from '../../../lib/resources';
import { DEFAULT_WEB_LIMITS, webUserAgent } from '../../core/catalog';
import { jobMessageSchema } from '../../core/messages';
import { type JobProcessingDeps, processJob } from '../../core/use-cases/job-processing';
import { loadConfig } from '../../shared/config';
import type { AppDeps } from '../../shared/deps';
import { draftingAdapters } from '../../shared/drafting';
import { lazy } from '../../shared/lazy';
import { count, METRIC } from '../../shared/metrics';
import { guardedHttp } from '../../shared/outbound-wiring';
import { sqsConsumer } from '../../shared/queue';
import { workQueue } from '../../shared/queue-wiring';
import { objectStore } from '../../shared/storage-wiring';
import { tracedObjectStore } from '../../shared/traced-store';
import { basics, exportRepository, fileRepository, jobRepository } from '../../shared/wiring';

export type JobWorkerDeps = Pick<
  AppDeps,
  'jobs' | 'files' | 'exports' | 'uploads' | 'catalogs' | 'http' | 'queue' | 'clock' | 'logger' | 'metrics'
> &
  Pick<JobProcessingDeps, 'recognizer' | 'rasterizer' | 'webSources'>;

const OUTCOME_METRIC = {
  completed: METRIC.jobsCompleted,
  in_review: METRIC.jobsInReview,
  failed: METRIC.jobsFailed,
} as const;

const queue = QUEUES.jobsStandard;

/** Consumer of the rush and standard job queues: builds catalogs (SPEC 5.2). */
export const makeJobWorkerHandler = (deps: JobWorkerDeps) =>
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

export const handler = lazy(() => {
  const config = loadConfig();
  return makeJobWorkerHandler({
    ...basics(config),
    jobs: jobRepository(config),
    files: fileRepository(config),
    exports: exportRepository(config),
    uploads: objectStore(config, 'uploads'),
    // A catalog holds up to 200,000 items: written through a multipart upload, memory flat.
    catalogs: tracedObjectStore(config, 'catalogs'),
    http: guardedHttp(config),
    queue: workQueue(config),
    webSources: { limits: DEFAULT_WEB_LIMITS, userAgent: webUserAgent(config.webContactUrl) },
    // OCR and PDF rendering for drafts (SPEC 5.2), started on the first image.
    ...draftingAdapters(config.moduleRoot),
  });
});
