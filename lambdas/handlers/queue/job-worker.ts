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

/** The OCR engine, PDF page renderer and photo decoder one job uses (shared/drafting.ts). */
export type DraftingAdapters = Pick<JobProcessingDeps, 'recognizer' | 'rasterizer' | 'decoder'>;

export type JobWorkerDeps = Pick<
  AppDeps,
  'jobs' | 'files' | 'exports' | 'uploads' | 'catalogs' | 'http' | 'queue' | 'clock' | 'logger' | 'metrics'
> &
  Pick<JobProcessingDeps, 'recognizer' | 'rasterizer' | 'decoder' | 'webSources'> & {
    /**
     * Drafting adapters of a job's own, made for each message: an OCR engine is a worker with state, and
     * one job releasing it (at its end, or after an image it could not read) must never end it under
     * another job that is reading a page with it (the local runtime runs several jobs in one thread).
     * Without it, the deps' own adapters (tests' fakes) serve every job.
     */
    readonly drafting?: () => DraftingAdapters;
  };

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
    const own = deps.drafting?.();
    const outcome = await processJob(own ? { ...deps, ...own } : deps, message.clientId, message.jobId, {
      messageId: record.messageId,
      attempt: Number(record.attributes.ApproximateReceiveCount) || 1,
      maxAttempts: queue.maxReceiveCount,
      leaseSeconds: queue.consumerTimeoutSeconds + 60,
    }).finally(() => Promise.all([own?.recognizer?.release(), own?.rasterizer?.release()]));
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
    // OCR and PDF rendering for drafts (SPEC 5.2), one set per job, started on its first image.
    drafting: () => draftingAdapters(config.moduleRoot),
  });
});
