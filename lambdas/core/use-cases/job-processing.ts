import type { SourceInput } from '../catalog/builder';
import { CatalogBuilder, summariseCatalog } from '../catalog/builder';
import type { CatalogDocumentV1 as CatalogDocument } from '../catalog/document-v1';
import { CatalogError } from '../catalog/errors';
import { mapImages } from '../catalog/image-mapping';
import { catalogJsonChunks } from '../catalog/writer';
import { ConflictError, NotFoundError } from '../errors';
import type { JobRecord, Problem } from '../model';
import { problem } from '../model';
import { discardBody, OutboundError } from '../outbound';
import {
  type Clock,
  type ExportRepository,
  type FileRepository,
  type JobRepository,
  type ObjectStore,
  type OutboundHttp,
  objectKeys,
  type WorkQueue,
} from '../ports';
import { isUuid, LIMITS } from '../schemas/job';
import { jobMayMove } from '../states';
import { wakeExportsOfJob } from './export-processing';

export interface JobProcessingDeps {
  readonly jobs: JobRepository;
  readonly files: FileRepository;
  readonly exports: ExportRepository;
  readonly uploads: ObjectStore;
  readonly catalogs: ObjectStore;
  readonly http: OutboundHttp;
  readonly queue: WorkQueue;
  readonly clock: Clock;
}

/** One source fetch, from the first byte to the last. */
export const SOURCE_TIMEOUT_MS = 120_000;

/** Which delivery of the job's message this is (SQS's ApproximateReceiveCount) and how many there will be. */
export interface Delivery {
  readonly attempt: number;
  readonly maxAttempts: number;
  /** How long this worker may hold the job (the consumer's time limit, with a margin). */
  readonly leaseSeconds: number;
}

export type ProcessOutcome =
  | { readonly kind: 'completed' | 'in_review' | 'failed'; readonly job: JobRecord }
  | { readonly kind: 'skipped'; readonly reason: 'not_found' | 'finished' | 'busy' };

/** A source answered with an HTTP error. 5xx and 429 may pass; anything else will not. */
class SourceHttpError extends OutboundError {
  readonly code = 'source_http_error';
  constructor(readonly status: number) {
    super(`the source answered HTTP ${status}`, status >= 500 || status === 429);
  }
}

const seconds = (date: Date, n: number): string => new Date(date.getTime() + n * 1000).toISOString();

/** Opens one catalog source as a byte stream: an uploaded file of the job's client, or a URL (guarded). */
const openSource = async (deps: JobProcessingDeps, job: JobRecord, source: string): Promise<SourceInput> => {
  if (isUuid(source)) {
    const file = await deps.files.get(job.clientId, source);
    if (!file) throw new CatalogError(`the uploaded file ${source} no longer exists`, 'source_unreadable');
    try {
      return {
        source,
        body: await deps.uploads.read(file.objectKey),
        contentType: file.contentType,
        name: file.filename,
      };
    } catch (error) {
      if (error instanceof NotFoundError)
        throw new CatalogError(`the uploaded file ${source} has no content`, 'source_unreadable');
      throw error;
    }
  }
  const response = await deps.http.request({
    url: source,
    method: 'GET',
    headers: { accept: 'text/csv, application/json, */*;q=0.5' },
    timeoutMs: SOURCE_TIMEOUT_MS,
    maxBytes: LIMITS.sourceFileBytes,
    followRedirects: true,
  });
  if (response.status < 200 || response.status > 299) {
    await discardBody(response);
    throw new SourceHttpError(response.status);
  }
  return {
    source,
    body: response.body,
    contentType: response.headers['content-type'] ?? null,
    name: response.url,
  };
};

/** The message a source failure leaves in the job's warnings and, if nothing was read, in its error. */
const describe = (error: unknown): string => {
  if (error instanceof CatalogError) return error.message;
  if (error instanceof OutboundError) return `could not be fetched: ${error.message}`;
  return 'could not be read';
};

/** Moves a job to `failed` with a problem object and wakes its exports (they fail with job_failed). */
export const failJob = async (
  deps: Pick<JobProcessingDeps, 'jobs' | 'exports' | 'queue' | 'clock'>,
  job: JobRecord,
  error: Problem,
): Promise<JobRecord | undefined> => {
  const at = deps.clock.now().toISOString();
  try {
    const failed = await deps.jobs.transition(job.clientId, job.id, {
      event: 'fail',
      set: { error, completedAt: at, leaseUntil: null },
      at,
    });
    await wakeExportsOfJob(deps, failed);
    return failed;
  } catch (e) {
    if (e instanceof ConflictError) return undefined;
    throw e;
  }
};

/**
 * Takes the job for this worker: `initiated` → `processing`, or an abandoned `processing` job whose lease
 * ran out (its worker crashed). A job another worker holds is left to it: this message is a duplicate.
 */
const claim = async (
  deps: JobProcessingDeps,
  job: JobRecord,
  delivery: Delivery,
): Promise<JobRecord | undefined> => {
  const now = deps.clock.now();
  const held = job.state === 'processing' && job.leaseUntil && Date.parse(job.leaseUntil) > now.getTime();
  if (held) return undefined;
  try {
    return await deps.jobs.transition(job.clientId, job.id, {
      event: job.state === 'processing' ? 'reclaim' : 'claim',
      expectedVersion: job.version,
      set: { leaseUntil: seconds(now, delivery.leaseSeconds) },
      at: now.toISOString(),
    });
  } catch (error) {
    if (error instanceof ConflictError) return undefined;
    throw error;
  }
};

/** Gives the job back after a transient failure, so that the retry need not wait for the lease to run out. */
const release = async (deps: JobProcessingDeps, job: JobRecord): Promise<void> => {
  await deps.jobs
    .transition(job.clientId, job.id, {
      event: 'release',
      expectedVersion: job.version,
      set: { leaseUntil: null },
      at: deps.clock.now().toISOString(),
    })
    .catch(() => undefined);
};

interface Built {
  readonly document: CatalogDocument;
  readonly results: Record<string, unknown>;
  readonly itemCount: number;
  readonly review: readonly string[];
  readonly failures: readonly { source: string; message: string }[];
}

/**
 * Reads every source into a catalog. A source that cannot be read is a warning (and, if no source yields
 * anything, the job's error); a transient failure is thrown so that SQS retries the job, except on the
 * last delivery, where it counts as unreadable.
 */
const build = async (deps: JobProcessingDeps, job: JobRecord, delivery: Delivery): Promise<Built> => {
  const builder = new CatalogBuilder({ id: job.id, job_type: job.jobType, job_data: job.jobData });
  const review: string[] = [];
  if (job.jobData.instructions?.trim()) review.push('the job carries instructions for the operations team');
  const failures: { source: string; message: string }[] = [];
  const lastAttempt = delivery.attempt >= delivery.maxAttempts;
  for (const source of job.jobData.catalog_sources) {
    try {
      const outcome = await builder.addSource(await openSource(deps, job, source));
      if (!outcome.readable) review.push(`${source} is ${outcome.format}, which is not machine-readable`);
    } catch (error) {
      const transient = error instanceof OutboundError && error.retryable;
      const permanent = error instanceof CatalogError || (error instanceof OutboundError && !error.retryable);
      if (error instanceof CatalogError && error.code === 'too_many_items') throw error;
      if (!permanent && !(transient && lastAttempt)) throw error;
      failures.push({ source, message: describe(error) });
      builder.warn({ source, row: null, column: null, message: describe(error) });
      if (!builder.sources.some((s) => s.source === source)) {
        builder.recordSource({ source, format: 'unknown', rows: 0, items: 0 });
      }
    }
  }
  const built = builder.build(deps.clock.now());
  let document = built.document;
  let results: Record<string, unknown> = { ...built.results };
  if ('image_sources' in job.jobData && job.jobData.image_sources.length > 0) {
    const mapped = await mapImages(deps.http, document, job.jobData.image_sources);
    document = mapped.document;
    results = { ...results, catalog: summariseCatalog(document), ...mapped.results };
  }
  if (review.length > 0) results = { ...results, review_reasons: review };
  return { document, results, itemCount: builder.itemCount, review, failures };
};

/**
 * Processes one job (SPEC 5.2): reads its sources, builds the catalog document into S3 and moves the job
 * to `completed`, or to `in_review` (instructions, or sources a person must read), or to `failed` (no
 * source could be read, or the catalog is over the limits). Duplicate deliveries are skipped while another
 * worker holds the job; a crashed worker's job is taken over once its lease has run out. On the last
 * delivery a failure fails the job rather than leave it in `processing`.
 */
export const processJob = async (
  deps: JobProcessingDeps,
  clientId: string,
  jobId: string,
  delivery: Delivery,
): Promise<ProcessOutcome> => {
  const found = await deps.jobs.get(clientId, jobId);
  if (!found) return { kind: 'skipped', reason: 'not_found' };
  if (!jobMayMove('claim', found.state) && !jobMayMove('reclaim', found.state))
    return { kind: 'skipped', reason: 'finished' };
  const job = await claim(deps, found, delivery);
  if (!job) return { kind: 'skipped', reason: 'busy' };

  try {
    return await finish(deps, job, await build(deps, job, delivery));
  } catch (error) {
    if (error instanceof CatalogError) {
      const failed = await failJob(
        deps,
        job,
        problem(error.code, 'Catalog could not be built', error.message),
      );
      return failed ? { kind: 'failed', job: failed } : { kind: 'skipped', reason: 'busy' };
    }
    if (delivery.attempt >= delivery.maxAttempts) {
      await failJob(
        deps,
        job,
        problem(
          'processing_failed',
          'Processing failed',
          'The job could not be processed after several attempts.',
        ),
      );
    } else {
      await release(deps, job);
    }
    throw error;
  }
};

/** Stores the built catalog and moves the job on: failed, in review, or completed. */
const finish = async (deps: JobProcessingDeps, job: JobRecord, built: Built): Promise<ProcessOutcome> => {
  const at = deps.clock.now().toISOString();
  if (built.itemCount === 0 && built.failures.length > 0 && built.review.length === 0) {
    const detail = built.failures.map((f) => `${f.source}: ${f.message}`).join('; ');
    const failed = await failJob(
      deps,
      job,
      problem('source_unreadable', 'No source could be read', detail.slice(0, 2000)),
    );
    return failed ? { kind: 'failed', job: failed } : { kind: 'skipped', reason: 'busy' };
  }
  await deps.catalogs.write(
    objectKeys.catalog(job.clientId, job.id),
    catalogJsonChunks(built.document),
    'application/json',
  );
  const to = built.review.length > 0 ? 'in_review' : 'completed';
  try {
    const moved = await deps.jobs.transition(job.clientId, job.id, {
      event: to === 'completed' ? 'complete' : 'send_to_review',
      expectedVersion: job.version,
      set: { results: built.results, leaseUntil: null, ...(to === 'completed' ? { completedAt: at } : {}) },
      at,
    });
    if (to === 'completed') await wakeExportsOfJob(deps, moved);
    return { kind: to, job: moved };
  } catch (error) {
    if (error instanceof ConflictError) return { kind: 'skipped', reason: 'busy' };
    throw error;
  }
};

/** SPEC 5.2: a job still not terminal this long after its due_at is failed with `timed_out`. */
export const TIMEOUT_GRACE_HOURS = 24;

/** Fails every job past its due date plus the grace period. Run by the reconciler. */
export const failOverdueJobs = async (
  deps: Pick<JobProcessingDeps, 'jobs' | 'exports' | 'queue' | 'clock'>,
  options: { limit?: number } = {},
): Promise<number> => {
  const cutoff = new Date(deps.clock.now().getTime() - TIMEOUT_GRACE_HOURS * 3_600_000).toISOString();
  const overdue = await deps.jobs.listOverdue(cutoff, options.limit ?? 100);
  let failed = 0;
  for (const job of overdue) {
    const detail = `The job was due at ${job.dueAt} and was not finished within ${TIMEOUT_GRACE_HOURS} hours after.`;
    if (await failJob(deps, job, problem('timed_out', 'Job timed out', detail))) failed++;
  }
  return failed;
};
