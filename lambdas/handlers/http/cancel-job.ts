import { jobResource } from '../../core/model';
import { cancelJob } from '../../core/use-cases/jobs';
import { loadConfig } from '../../shared/config';
import type { AppDeps } from '../../shared/deps';
import { httpRoute, json, pathParam } from '../../shared/http';
import { lazy } from '../../shared/lazy';
import { workQueue } from '../../shared/queue-wiring';
import { basics, exportRepository, jobRepository } from '../../shared/wiring';

export type CancelJobDeps = Pick<AppDeps, 'jobs' | 'exports' | 'queue' | 'clock' | 'logger' | 'metrics'>;

/** POST /v1/jobs/{id}/cancel: 200 with the canceled job, or 409 invalid_state. */
export const makeCancelJobHandler = (deps: CancelJobDeps) =>
  httpRoute(deps, { scope: 'client' }, async (event, principal) => {
    const job = await cancelJob(deps, principal.clientId, pathParam(event, 'id'));
    deps.logger.info('job canceled', { job_id: job.id });
    return json(200, jobResource(job));
  });

export const handler = lazy(() => {
  const config = loadConfig();
  return makeCancelJobHandler({
    ...basics(config),
    jobs: jobRepository(config),
    exports: exportRepository(config),
    queue: workQueue(config),
  });
});
