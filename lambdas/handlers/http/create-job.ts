import { jobResource } from '../../core/model';
import { createJobRequestSchema } from '../../core/schemas/job';
import { createJob } from '../../core/use-cases/jobs';
import { parseOrThrow } from '../../core/validation';
import { loadConfig } from '../../shared/config';
import type { AppDeps } from '../../shared/deps';
import { httpRoute, json } from '../../shared/http';
import { lazy } from '../../shared/lazy';
import { count, METRIC } from '../../shared/metrics';
import { workQueue } from '../../shared/queue-wiring';
import { objectStore } from '../../shared/storage-wiring';
import { basics, fileRepository, idempotencyStore, jobRepository } from '../../shared/wiring';

export type CreateJobDeps = Pick<
  AppDeps,
  | 'jobs'
  | 'files'
  | 'uploads'
  | 'queue'
  | 'clock'
  | 'ids'
  | 'jobSettings'
  | 'allowLoopbackUrls'
  | 'idempotency'
  | 'logger'
  | 'metrics'
>;

/** POST /v1/jobs (seed 4.1): 201 with the job in `initiated` and a Location header. */
export const makeCreateJobHandler = (deps: CreateJobDeps) =>
  httpRoute(deps, { scope: 'client', body: 'json', idempotent: true }, async (event, principal) => {
    const request = parseOrThrow(createJobRequestSchema, event.body);
    const job = await createJob(deps, principal.clientId, request.job, { id: event.resourceId });
    deps.logger.info('job created', {
      job_id: job.id,
      job_type: job.jobType,
      processing_type: job.processingType,
    });
    count(deps, METRIC.jobsCreated);
    return json(201, jobResource(job), { location: `/v1/jobs/${job.id}` });
  });

export const handler = lazy(() => {
  const config = loadConfig();
  return makeCreateJobHandler({
    ...basics(config),
    jobs: jobRepository(config),
    files: fileRepository(config),
    uploads: objectStore(config, 'uploads'),
    queue: workQueue(config),
    idempotency: idempotencyStore(config),
    jobSettings: config.jobSettings,
    allowLoopbackUrls: config.allowLoopbackUrls,
  });
});
