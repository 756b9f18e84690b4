import {
  type CatalogDocument,
  catalogJsonChunks,
  parseCatalogDocument,
  parseCatalogUpload,
  readAll,
  summariseCatalog,
} from '../catalog';
import { ConflictError, InvalidStateError, NotFoundError, ValidationError } from '../errors';
import { type JobRecord, jobResource, problem } from '../model';
import {
  type Clock,
  type ExportRepository,
  type FileRepository,
  type JobRepository,
  type ObjectStore,
  objectKeys,
  type Page,
  type WorkQueue,
} from '../ports';
import { isUuid } from '../schemas/job';
import type { OpsFailRequest } from '../schemas/operations';
import { jobMayMove } from '../states';
import { recordChanges } from './changes';
import { type DraftReview, locateJobSource, readDraftReview, type SourceDownload } from './draft-review';
import { wakeExportsOfJob } from './export-processing';
import { failJob } from './job-failure';

/**
 * The operations team's side of a job (SPEC 5.4): the review queue across clients, the job with its draft
 * catalog, a replacement catalog, and the decision to complete or fail it.
 */
export interface OperationsDeps {
  readonly jobs: JobRepository;
  readonly exports: ExportRepository;
  readonly catalogs: ObjectStore;
  readonly files: FileRepository;
  readonly uploads: ObjectStore;
  readonly queue: WorkQueue;
  readonly clock: Clock;
}

/** Drafts up to this size are shown inline; larger ones only through `draft_catalog_url`. */
export const INLINE_DRAFT_BYTES = 1024 * 1024;
const DRAFT_URL_SECONDS = 15 * 60;

/** The job as operators see it: the client's view plus whose it is. */
export const opsJobResource = (job: JobRecord) => ({ ...jobResource(job), client_id: job.clientId });

export const listReviewQueue = async (
  deps: Pick<OperationsDeps, 'jobs'>,
  query: { limit: number; cursor?: string },
): Promise<Page<JobRecord>> => deps.jobs.listForReview(query.limit, query.cursor);

const findJob = async (deps: Pick<OperationsDeps, 'jobs'>, id: string): Promise<JobRecord> => {
  const job = isUuid(id) ? await deps.jobs.findById(id) : undefined;
  if (!job) throw new NotFoundError(`No job has the id ${id}.`);
  return job;
};

/** The draft as format 2 (a catalog stored before format 2 is upgraded), or null when too large to inline. */
const readDraft = async (
  deps: Pick<OperationsDeps, 'catalogs'>,
  job: JobRecord,
): Promise<CatalogDocument | null> => {
  const key = objectKeys.catalog(job.clientId, job.id);
  const size = await deps.catalogs.size(key);
  if (size === undefined || size > INLINE_DRAFT_BYTES) return null;
  const parsed = parseCatalogDocument(
    JSON.parse((await readAll(await deps.catalogs.read(key))).toString('utf8')),
  );
  return parsed.ok ? parsed.document : null;
};

/** The job's sources as the review shows them, each with the path that serves its bytes. */
const sourceViews = (job: JobRecord, review: DraftReview | null) =>
  job.jobData.catalog_sources.map((source, index) => {
    const reviewed = review?.sources.find((s) => s.index === index);
    return {
      index,
      source,
      format: reviewed?.format ?? null,
      content_type: reviewed?.content_type ?? null,
      size_bytes: reviewed?.size_bytes ?? null,
      pages: reviewed?.pages ?? null,
      web_pages: reviewed?.web_pages ?? null,
      view_path: `/v1/ops/jobs/${job.id}/sources/${index}`,
      viewable: isUuid(source) || reviewed?.copied === true,
    };
  });

/**
 * A job with its client, instructions, sources (all in job_data), its draft catalog, and for drafted items
 * where each was read and how sure the machine is (lowest confidence first).
 */
export const getOpsJob = async (deps: Pick<OperationsDeps, 'jobs' | 'catalogs'>, id: string) => {
  const job = await findJob(deps, id);
  const review = await readDraftReview(deps.catalogs, job);
  const key = objectKeys.catalog(job.clientId, job.id);
  const exists = (await deps.catalogs.size(key)) !== undefined;
  const url = exists ? await deps.catalogs.presignDownload(key, DRAFT_URL_SECONDS) : null;
  return {
    ...opsJobResource(job),
    draft_catalog: exists ? await readDraft(deps, job) : null,
    draft_catalog_url: url?.url ?? null,
    draft_catalog_url_expires_at: url?.expiresAt ?? null,
    draft_provenance: review?.items ?? null,
    sources: sourceViews(job, review),
  };
};

/**
 * Where an operator reads source `n` of a job (SPEC 5.4): a short-lived URL of the uploaded file or of the
 * copy kept when the job was processed. 404 for a source number the job does not have.
 */
export const getOpsJobSource = async (
  deps: Pick<OperationsDeps, 'jobs' | 'catalogs' | 'files' | 'uploads'>,
  id: string,
  n: string,
): Promise<SourceDownload> => {
  const job = await findJob(deps, id);
  const index = /^(0|[1-9]\d{0,3})$/.test(n) ? Number(n) : -1;
  if (index < 0)
    throw new NotFoundError(
      `There is no source ${JSON.stringify(n.slice(0, 20))}: sources are numbered from 0.`,
    );
  return locateJobSource(deps, job, index, await readDraftReview(deps.catalogs, job));
};

/** Operations change only what review is for: `event` must be able to move the job as it is now. */
const requireReview = (job: JobRecord, event: 'replace_catalog' | 'ops_complete'): void => {
  if (!jobMayMove(event, job.state)) {
    throw new InvalidStateError(
      `Only a job in review can be changed by operations; this one is ${job.state}.`,
    );
  }
};

/**
 * Replaces the draft with a catalog document of SPEC 5.5, format 1 or 2 (validated, with JSON Pointers to
 * each problem), stored as format 2. The document must be this job's: same job_type, and job_id when it
 * gives one; a missing job_id or generated_at is filled in.
 */
export const replaceCatalog = async (deps: OperationsDeps, id: string, body: unknown): Promise<JobRecord> => {
  const job = await findJob(deps, id);
  requireReview(job, 'replace_catalog');
  const parsed = parseCatalogUpload(body);
  if (!parsed.ok) {
    throw new ValidationError(
      'The catalog document is invalid.',
      parsed.errors.map((e) => ({ pointer: e.pointer, code: 'invalid_value', message: e.message })),
    );
  }
  const upload = parsed.document;
  const mismatches = [
    upload.job_id !== undefined &&
      upload.job_id !== job.id && { pointer: '/job_id', code: 'invalid_value', message: `must be ${job.id}` },
    upload.job_type !== job.jobType && {
      pointer: '/job_type',
      code: 'invalid_value',
      message: `must be ${job.jobType}`,
    },
  ].filter((e) => e !== false);
  if (mismatches.length > 0)
    throw new ValidationError('The catalog document belongs to another job.', mismatches);
  const now = deps.clock.now().toISOString();
  const document: CatalogDocument = { ...upload, job_id: job.id, generated_at: upload.generated_at ?? now };
  await deps.catalogs.write(
    objectKeys.catalog(job.clientId, job.id),
    catalogJsonChunks(document),
    'application/json',
  );
  const { changes: _earlier, ...results } = job.results;
  const changes = await recordChanges(deps, job, document);
  return moveReviewed(deps, job, 'replace_catalog', {
    results: {
      ...results,
      catalog: summariseCatalog(document),
      catalog_replaced_at: now,
      ...(changes === undefined ? {} : { changes }),
    },
  });
};

const moveReviewed = async (
  deps: OperationsDeps,
  job: JobRecord,
  event: 'replace_catalog' | 'ops_complete',
  set: Partial<JobRecord>,
): Promise<JobRecord> => {
  try {
    return await deps.jobs.transition(job.clientId, job.id, {
      event,
      expectedVersion: job.version,
      set,
      at: deps.clock.now().toISOString(),
    });
  } catch (error) {
    if (error instanceof ConflictError) {
      throw new InvalidStateError('The job changed meanwhile; read it again.', { cause: error });
    }
    throw error;
  }
};

/** Completes a reviewed job with its current catalog; its waiting exports proceed. */
export const completeReviewedJob = async (deps: OperationsDeps, id: string): Promise<JobRecord> => {
  const job = await findJob(deps, id);
  requireReview(job, 'ops_complete');
  if ((await deps.catalogs.size(objectKeys.catalog(job.clientId, job.id))) === undefined) {
    throw new InvalidStateError('The job has no catalog yet: PUT one to /v1/ops/jobs/{id}/catalog first.');
  }
  const { review_reasons: _done, ...results } = job.results;
  const completed = await moveReviewed(deps, job, 'ops_complete', {
    results,
    completedAt: deps.clock.now().toISOString(),
  });
  await wakeExportsOfJob(deps, completed).catch(() => 0);
  return completed;
};

/** Fails a job the operations team cannot complete, with their code and message. */
export const failReviewedJob = async (
  deps: OperationsDeps,
  id: string,
  request: OpsFailRequest,
): Promise<JobRecord> => {
  const job = await findJob(deps, id);
  if (!jobMayMove('fail', job.state)) throw new InvalidStateError(`The job is already ${job.state}.`);
  const failed = await failJob(
    deps,
    job,
    problem(request.code, 'Failed by the operations team', request.message),
  );
  if (!failed) throw new InvalidStateError('The job changed meanwhile; read it again.');
  return failed;
};
