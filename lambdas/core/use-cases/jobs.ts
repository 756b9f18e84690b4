import { literalHostAllowed } from '../address-policy';
import {
  ConflictError,
  DependencyUnavailableError,
  type FieldError,
  InvalidStateError,
  NotFoundError,
  ValidationError,
} from '../errors';
import type { JobRecord } from '../model';
import type {
  Clock,
  ExportRepository,
  FileRepository,
  IdGenerator,
  JobListQuery,
  JobRepository,
  ObjectStore,
  Page,
  WorkQueue,
} from '../ports';
import { isUuid, type JobSpec, LIMITS, type ProcessingType } from '../schemas/job';
import { isTerminalJobState, JOB_TRANSITIONS, jobMayMove } from '../states';
import { wakeExportsOfJob } from './export-processing';
import { refreshUpload } from './files';

export interface JobSettings {
  /** SLA per processing type, in hours (SPEC 3.1: rush 24 h, standard 72 h). */
  readonly slaHours: Readonly<Record<ProcessingType, number>>;
}

export const DEFAULT_JOB_SETTINGS: JobSettings = { slaHours: { rush: 24, standard: 72 } };

export interface JobDeps {
  readonly jobs: JobRepository;
  readonly files: FileRepository;
  readonly uploads: ObjectStore;
  readonly queue: WorkQueue;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly jobSettings: JobSettings;
  /** The local runtime's ALLOW_LOOPBACK_URLS: loopback URL hosts are allowed (SPEC 8). */
  readonly allowLoopbackUrls: boolean;
}

const addHours = (date: Date, hours: number): string =>
  new Date(date.getTime() + hours * 3_600_000).toISOString();

/**
 * URLs the guarded client would certainly refuse (SPEC 8), found without a DNS query: a host that is an IP
 * literal outside what may be reached (in any spelling: `169.254.169.254`, `0xa9fea9fe`, `[::ffff:10.0.0.1]`)
 * or a localhost name where loopback is not allowed. Refused now, as callback_url is, rather than failing
 * the job later; host names are checked by the worker against what they resolve to.
 */
const internalUrlProblems = (spec: JobSpec, allowLoopback: boolean): FieldError[] => {
  const lists = {
    catalog_sources: spec.job_data.catalog_sources,
    image_sources: 'image_sources' in spec.job_data ? (spec.job_data.image_sources ?? []) : [],
  };
  const problems: FieldError[] = [];
  for (const [field, urls] of Object.entries(lists)) {
    urls.forEach((value, index) => {
      if (isUuid(value)) return;
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        return;
      }
      if (literalHostAllowed(url, { allowLoopback })) return;
      problems.push({
        pointer: `/job/job_data/${field}/${index}`,
        code: 'internal_address',
        message: 'must not point at an internal address',
      });
    });
  }
  return problems;
};

/**
 * Checks that every uploaded-file id in catalog_sources is a file of this client that has been uploaded,
 * and that no URL names an internal address outright (internalUrlProblems).
 */
const checkUploadedSources = async (deps: JobDeps, clientId: string, spec: JobSpec): Promise<void> => {
  const problems: FieldError[] = internalUrlProblems(spec, deps.allowLoopbackUrls);
  await Promise.all(
    spec.job_data.catalog_sources.map(async (source, index) => {
      if (!isUuid(source)) return;
      const pointer = `/job/job_data/catalog_sources/${index}`;
      const found = await deps.files.get(clientId, source);
      const file = found && (await refreshUpload(deps, found));
      if (!file) {
        problems.push({ pointer, code: 'file_not_found', message: `no uploaded file has the id ${source}` });
      } else if (file.state !== 'uploaded') {
        problems.push({
          pointer,
          code: 'file_not_uploaded',
          message:
            'the file has not been uploaded yet: PUT it to upload_url (or POST upload_form), then read it with GET /v1/files/{id}',
        });
      } else if ((file.sizeBytes ?? 0) > LIMITS.sourceFileBytes) {
        problems.push({ pointer, code: 'file_too_large', message: 'source files may be at most 100 MB' });
      }
    }),
  );
  if (problems.length > 0) {
    problems.sort((a, b) => a.pointer.localeCompare(b.pointer, 'en', { numeric: true }));
    throw new ValidationError('Some catalog sources cannot be used.', problems);
  }
};

/**
 * A job a request with this id already wrote: the id was reserved by an Idempotency-Key whose first request
 * died after writing it (ports.ts IdempotencyRecord.resourceId). Its enqueue is made sure of (a second
 * message is harmless: workers move jobs by conditional transitions), and the job is the answer.
 */
const resumeJob = async (deps: JobDeps, clientId: string, id: string): Promise<JobRecord> => {
  const job = await getJob(deps, clientId, id);
  if (job.state === 'initiated') {
    // Should SQS fail now, the job is still in the outbox (unless marked), where the reconciler finds it.
    await deps.queue
      .sendJob({ kind: 'job', clientId, jobId: job.id }, job.processingType)
      .then(() => deps.jobs.markEnqueued(clientId, job.id))
      .catch(() => undefined);
  }
  return job;
};

/**
 * Creates a job in state `initiated` and enqueues it (seed 4.1). If the enqueue fails the job is removed
 * again and a DependencyUnavailableError (503) is thrown; if even the removal fails, the job stays in the
 * outbox and the reconciler enqueues it, so no job is ever stranded. With `id` (reserved by an
 * Idempotency-Key) a job already written under it is resumed and returned, not created twice.
 */
export const createJob = async (
  deps: JobDeps,
  clientId: string,
  spec: JobSpec,
  options: { readonly id?: string } = {},
): Promise<JobRecord> => {
  await checkUploadedSources(deps, clientId, spec);
  const now = deps.clock.now();
  const at = now.toISOString();
  const job: JobRecord = {
    id: options.id ?? deps.ids.uuid(),
    clientId,
    state: 'initiated',
    version: 1,
    jobType: spec.job_type,
    processingType: spec.processing_type,
    jobData: spec.job_data,
    metadata: spec.metadata ?? {},
    results: {},
    createdAt: at,
    updatedAt: at,
    dueAt: addHours(now, deps.jobSettings.slaHours[spec.processing_type]),
    completedAt: null,
    error: null,
  };
  try {
    await deps.jobs.create(job);
  } catch (error) {
    if (options.id !== undefined && error instanceof ConflictError) return resumeJob(deps, clientId, job.id);
    throw error;
  }
  try {
    await deps.queue.sendJob({ kind: 'job', clientId, jobId: job.id }, job.processingType);
  } catch (error) {
    await deps.jobs.deleteUnenqueued(clientId, job.id).catch(() => false);
    throw new DependencyUnavailableError('The job could not be queued; it was not created.', {
      cause: error,
    });
  }
  // The job is on its queue; if clearing the outbox mark fails the reconciler enqueues it once more, and the
  // worker's conditional transition makes that harmless.
  await deps.jobs.markEnqueued(clientId, job.id).catch(() => undefined);
  return job;
};

export const getJob = async (
  deps: Pick<JobDeps, 'jobs'>,
  clientId: string,
  id: string,
): Promise<JobRecord> => {
  const job = isUuid(id) ? await deps.jobs.get(clientId, id) : undefined;
  if (!job) throw new NotFoundError(`No job has the id ${id}.`);
  return job;
};

export const listJobs = (
  deps: Pick<JobDeps, 'jobs'>,
  clientId: string,
  query: JobListQuery,
): Promise<Page<JobRecord>> => deps.jobs.list(clientId, query);

/** Cancels a job that has not started processing or is waiting for review (SPEC 4); else InvalidStateError. */
export const cancelJob = async (
  deps: Pick<JobDeps, 'jobs' | 'clock' | 'queue'> & { readonly exports: ExportRepository },
  clientId: string,
  id: string,
): Promise<JobRecord> => {
  const job = await getJob(deps, clientId, id);
  if (!jobMayMove('cancel', job.state)) {
    throw new InvalidStateError(
      `A job can be canceled only while it is ${JOB_TRANSITIONS.cancel.from.join(' or ')}; this one is ${job.state}.`,
    );
  }
  const at = deps.clock.now().toISOString();
  try {
    const canceled = await deps.jobs.transition(clientId, id, {
      event: 'cancel',
      expectedVersion: job.version,
      set: { completedAt: at },
      at,
    });
    // Its waiting exports fail now (job_failed); should this notice be lost, their own re-check finds it.
    await wakeExportsOfJob(deps, canceled).catch(() => 0);
    return canceled;
  } catch (error) {
    if (error instanceof ConflictError) {
      const now = error.current as JobRecord | undefined;
      throw new InvalidStateError(`The job moved to ${now?.state} while it was being canceled.`, {
        cause: error,
      });
    }
    throw error;
  }
};

/** Seconds a client should wait before polling again (SPEC 5.1), or undefined once terminal. */
export const jobRetryAfterSeconds = (job: JobRecord): number | undefined =>
  isTerminalJobState(job.state) ? undefined : job.processingType === 'rush' ? 5 : 30;
