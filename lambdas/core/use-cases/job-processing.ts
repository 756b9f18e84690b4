import type { ImageDecoder, PageRasterizer, SourceInput, TextRecognizer } from '../catalog';
import {
  type BuiltCatalog,
  buildCatalog,
  CatalogError,
  catalogJsonChunks,
  DEFAULT_WEB_SETTINGS,
  isSignInPage,
  SourceTooLargeError,
  shareLinkDownload,
  type WebSourceSettings,
} from '../catalog';
import { ConflictError, NotFoundError } from '../errors';
import type { JobRecord } from '../model';
import { problem } from '../model';
import { discardBody, OutboundError, OutboundTooLargeError } from '../outbound';
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
import { recordChanges } from './changes';
import { DraftCollector } from './draft-collector';
import { wakeExportsOfJob } from './export-processing';
import { failJob } from './job-failure';

// The reconciler's and the operations API's way to fail a job, in a module of its own (job-failure.ts).
export { failJob, failOverdueJobs, TIMEOUT_GRACE_HOURS } from './job-failure';

export interface JobProcessingDeps {
  readonly jobs: JobRepository;
  readonly files: FileRepository;
  readonly exports: ExportRepository;
  readonly uploads: ObjectStore;
  readonly catalogs: ObjectStore;
  readonly http: OutboundHttp;
  readonly queue: WorkQueue;
  readonly clock: Clock;
  /** Bounds and User-Agent of web sources (SPEC 5.2, 9); the documented defaults when absent. */
  readonly webSources?: WebSourceSettings;
  /** OCR for photographed menus and scanned PDF pages (SPEC 5.2 drafts); absent: PDF text layers only. */
  readonly recognizer?: TextRecognizer;
  readonly rasterizer?: PageRasterizer;
  readonly decoder?: ImageDecoder;
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

interface OpenedSource {
  readonly input: SourceInput;
  /** What ended the read of the bytes early, if anything, even when a reader swallowed it. */
  readonly failure: () => unknown;
}

/**
 * Counts a source's bytes: past the limit the read fails with SourceTooLargeError. Whatever ends the
 * read early is remembered, so that a reader that takes a failed stream for its end (a streaming CSV
 * parser may) cannot cut a source short silently.
 */
const metered = (
  body: AsyncIterable<Uint8Array>,
): { body: AsyncIterable<Uint8Array>; failure: () => unknown } => {
  let failure: unknown;
  return {
    failure: () => failure,
    body: {
      async *[Symbol.asyncIterator]() {
        let bytes = 0;
        try {
          for await (const chunk of body) {
            bytes += chunk.byteLength;
            if (bytes > LIMITS.sourceFileBytes) throw new SourceTooLargeError();
            yield chunk;
          }
        } catch (error) {
          failure =
            error instanceof OutboundTooLargeError ? new SourceTooLargeError({ cause: error }) : error;
          throw failure;
        }
      },
    },
  };
};

/** Opens one catalog source as a byte stream: an uploaded file of the job's client, or a URL (guarded). */
const openSource = async (deps: JobProcessingDeps, job: JobRecord, source: string): Promise<OpenedSource> => {
  if (isUuid(source)) {
    const file = await deps.files.get(job.clientId, source);
    if (!file) throw new CatalogError(`the uploaded file ${source} no longer exists`, 'source_unreadable');
    try {
      // The presigned upload refuses larger bodies, but the object may have been replaced since.
      if (((await deps.uploads.size(file.objectKey)) ?? 0) > LIMITS.sourceFileBytes)
        throw new SourceTooLargeError();
      const bytes = metered(await deps.uploads.read(file.objectKey));
      return {
        input: { source, body: bytes.body, contentType: file.contentType, name: file.filename },
        failure: bytes.failure,
      };
    } catch (error) {
      if (error instanceof NotFoundError)
        throw new CatalogError(`the uploaded file ${source} has no content`, 'source_unreadable');
      throw error;
    }
  }
  // A Google Sheets, Docs, Drive or Dropbox share link is fetched as the file it shows.
  const shared = shareLinkDownload(source);
  const response = await deps.http
    .request({
      url: shared?.download ?? source,
      method: 'GET',
      // The service names itself to the merchant's site from the first request on (SPEC 5.2 web sources).
      headers: {
        accept: 'text/csv, application/json, */*;q=0.5',
        'user-agent': (deps.webSources ?? DEFAULT_WEB_SETTINGS).userAgent,
      },
      timeoutMs: SOURCE_TIMEOUT_MS,
      maxBytes: LIMITS.sourceFileBytes,
      followRedirects: true,
    })
    .catch((error: unknown) => {
      // A Content-Length over the limit: refused before a byte of the body is read.
      throw error instanceof OutboundTooLargeError ? new SourceTooLargeError({ cause: error }) : error;
    });
  if (response.status < 200 || response.status > 299) {
    await discardBody(response);
    throw new SourceHttpError(response.status);
  }
  if (shared && isSignInPage(shared, response.url)) {
    await discardBody(response);
    throw new CatalogError(
      `${source} is not shared with everyone: ${shared.service} asked to sign in. Share it as "Anyone with the link can view", or upload the file`,
      'source_unreadable',
    );
  }
  const bytes = metered(response.body);
  return {
    input: {
      source,
      body: bytes.body,
      contentType: response.headers['content-type'] ?? null,
      name: response.url,
    },
    failure: bytes.failure,
  };
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
  readonly catalog: BuiltCatalog;
  /** What the PDF and photo readers drafted, for the review record. */
  readonly drafts: DraftCollector;
  /** Why the job goes to the operations team: its instructions, and what the pipeline could not read. */
  readonly review: readonly string[];
}

/**
 * Builds the catalog through the pipeline's one entry point. A transient failure of a source is thrown so
 * that SQS retries the job, except on the last delivery, where the source counts as unreadable.
 */
const build = async (deps: JobProcessingDeps, job: JobRecord, delivery: Delivery): Promise<Built> => {
  const drafts = new DraftCollector(deps, job);
  const catalog = await buildCatalog({
    job: { id: job.id, client_id: job.clientId, job_type: job.jobType, job_data: job.jobData },
    sources: job.jobData.catalog_sources,
    open: async (source) => {
      const opened = await openSource(deps, job, source);
      return { ...opened.input, failure: opened.failure };
    },
    http: deps.http,
    drafting: drafts,
    now: deps.clock.now(),
    lastAttempt: delivery.attempt >= delivery.maxAttempts,
    web: deps.webSources,
  }).finally(() => drafts.release());
  const review = [
    ...(job.jobData.instructions?.trim() ? ['the job carries instructions for the operations team'] : []),
    ...catalog.review,
  ];
  return { catalog, drafts, review };
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
  const { catalog } = built;
  if (catalog.itemCount === 0 && catalog.failures.length > 0 && built.review.length === 0) {
    const detail = catalog.failures.map((f) => `${f.source}: ${f.message}`).join('; ');
    const code = catalog.failures.every((f) => f.code === 'source_too_large')
      ? 'source_too_large'
      : 'source_unreadable';
    const failed = await failJob(deps, job, problem(code, 'No source could be read', detail.slice(0, 2000)));
    return failed ? { kind: 'failed', job: failed } : { kind: 'skipped', reason: 'busy' };
  }
  await deps.catalogs.write(
    objectKeys.catalog(job.clientId, job.id),
    catalogJsonChunks(catalog.document),
    'application/json',
  );
  // Where each drafted item was read and how sure the machine is, beside the draft (GET /v1/ops/jobs/{id}).
  await built.drafts.finish(catalog.document);
  // Measured for a job in review too, so that its reviewer sees what changed (the console shows it).
  const changes = await recordChanges(deps, job, catalog.document);
  const results = changes === undefined ? catalog.results : { ...catalog.results, changes };
  const to = built.review.length > 0 ? 'in_review' : 'completed';
  try {
    const moved = await deps.jobs.transition(job.clientId, job.id, {
      event: to === 'completed' ? 'complete' : 'send_to_review',
      expectedVersion: job.version,
      set: {
        results: built.review.length > 0 ? { ...results, review_reasons: [...built.review] } : results,
        leaseUntil: null,
        ...(to === 'completed' ? { completedAt: at } : {}),
      },
      at,
    });
    if (to === 'completed') await wakeExportsOfJob(deps, moved);
    return { kind: to, job: moved };
  } catch (error) {
    if (error instanceof ConflictError) return { kind: 'skipped', reason: 'busy' };
    throw error;
  }
};
