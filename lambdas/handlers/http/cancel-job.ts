import { jobResource } from '../../core/model';
import { cancelJob } from '../../core/use-cases/jobs';
import { type AppDeps, defaultDeps } from '../../shared/deps';
import { httpRoute, json, pathParam } from '../../shared/http';
import { lazy } from '../../shared/lazy';

/** POST /v1/jobs/{id}/cancel: 200 with the canceled job, or 409 invalid_state. */
export const makeCancelJobHandler = (deps: AppDeps) =>
  httpRoute(deps, { scope: 'client' }, async (event, principal) => {
    const job = await cancelJob(deps, principal.clientId, pathParam(event, 'id'));
    deps.logger.info('job canceled', { job_id: job.id });
    return json(200, jobResource(job));
  });

export const handler = lazy(() => makeCancelJobHandler(defaultDeps()));
