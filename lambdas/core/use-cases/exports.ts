import { formatFitsJob } from '../catalog';
import { DependencyUnavailableError, JobNotExportableError, NotFoundError, ValidationError } from '../errors';
import type { DeliveryLink, ExportRecord } from '../model';
import type { Clock, ExportRepository, IdGenerator, JobRepository, ObjectStore, WorkQueue } from '../ports';
import { type CreateExportRequest, DEFAULT_EXPORT_FORMAT } from '../schemas/export';
import { isUuid } from '../schemas/job';
import { isTerminalExportState } from '../states';

export interface ExportDeps {
  readonly jobs: JobRepository;
  readonly exports: ExportRepository;
  readonly exportFiles: ObjectStore;
  readonly queue: WorkQueue;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** SPEC 3.2: delivery URLs are valid for one hour and signed afresh on every read. */
export const DELIVERY_URL_TTL_SECONDS = 3600;
export const EXPORT_RETRY_AFTER_SECONDS = 5;

/**
 * Creates a data export of one of the client's jobs (seed 4.2). The export waits in `initiated` until the
 * job is terminal. A job that already failed or was canceled cannot be exported (409 job_not_exportable).
 */
export const createExport = async (
  deps: ExportDeps,
  clientId: string,
  request: CreateExportRequest,
): Promise<ExportRecord> => {
  const job = await deps.jobs.get(clientId, request.id);
  if (!job) throw new NotFoundError(`No job has the id ${request.id}.`);
  if (job.state === 'failed' || job.state === 'canceled') {
    throw new JobNotExportableError(
      `The job is ${job.state}; only a job that can still complete can be exported.`,
    );
  }
  const format = request.format ?? DEFAULT_EXPORT_FORMAT;
  if (!formatFitsJob(format, job.jobType)) {
    throw new ValidationError('The format does not fit the job.', [
      {
        pointer: '/format',
        code: 'invalid_value',
        message: `${format} does not take a ${job.jobType} catalog`,
      },
    ]);
  }
  if (format === 'changes' && !job.jobData.merchant_token) {
    throw new ValidationError('The job has no merchant_token.', [
      {
        pointer: '/format',
        code: 'invalid_value',
        message:
          'changes needs a job with a merchant_token: changes are told between one merchant’s catalogs',
      },
    ]);
  }
  const at = deps.clock.now().toISOString();
  const exp: ExportRecord = {
    id: deps.ids.uuid(),
    clientId,
    jobId: job.id,
    jobType: job.jobType,
    state: 'initiated',
    version: 1,
    callbackUrl: request.callback_url ?? null,
    format,
    linkTemplate: request.link_template ?? null,
    clientMappings: {},
    createdAt: at,
    updatedAt: at,
    completedAt: null,
    objectKey: null,
    file: null,
    files: null,
    warnings: [],
    callback: null,
    error: null,
  };
  await deps.exports.create(exp);
  try {
    await deps.queue.sendExport({ kind: 'export', clientId, exportId: exp.id });
  } catch (error) {
    await deps.exports.deleteUnenqueued(clientId, exp.id).catch(() => false);
    throw new DependencyUnavailableError('The export could not be queued; it was not created.', {
      cause: error,
    });
  }
  await deps.exports.markEnqueued(clientId, exp.id).catch(() => undefined);
  return exp;
};

export const getExport = async (
  deps: Pick<ExportDeps, 'exports'>,
  clientId: string,
  id: string,
): Promise<ExportRecord> => {
  const exp = isUuid(id) ? await deps.exports.get(clientId, id) : undefined;
  if (!exp) throw new NotFoundError(`No data export has the id ${id}.`);
  return exp;
};

/** A fresh presigned GET for a completed export's file, or null while there is none. */
export const deliveryLink = async (
  deps: Pick<ExportDeps, 'exportFiles'>,
  exp: ExportRecord,
): Promise<DeliveryLink | null> => {
  if (exp.state !== 'completed' || !exp.objectKey) return null;
  const first = exp.files?.[0];
  const response = first ? { contentType: first.content_type, fileName: first.name } : undefined;
  const link = await deps.exportFiles.presignDownload(exp.objectKey, DELIVERY_URL_TTL_SECONDS, response);
  if (!exp.files || exp.files.length < 2) return link;
  // The first file is delivery_url's own object: its link is that one.
  const files = await Promise.all(
    exp.files.map((f, i) =>
      i === 0
        ? link
        : deps.exportFiles.presignDownload(f.key, DELIVERY_URL_TTL_SECONDS, {
            contentType: f.content_type,
            fileName: f.name,
          }),
    ),
  );
  return { ...link, files };
};

export const exportRetryAfterSeconds = (exp: ExportRecord): number | undefined =>
  isTerminalExportState(exp.state) ? undefined : EXPORT_RETRY_AFTER_SECONDS;
