import { jobResource } from '../../core/model';
import { getJob, jobRetryAfterSeconds } from '../../core/use-cases/jobs';
import { type AppDeps, defaultDeps } from '../../shared/deps';
import { httpRoute, json, pathParam } from '../../shared/http';
import { lazy } from '../../shared/lazy';

/** GET /v1/jobs/{id}: the job, with Retry-After while it is not terminal. */
export const makeGetJobHandler = (deps: AppDeps) =>
  httpRoute(deps, { scope: 'client' }, async (event, principal) => {
    const job = await getJob(deps, principal.clientId, pathParam(event, 'id'));
    const retryAfter = jobRetryAfterSeconds(job);
    return json(200, jobResource(job), retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) });
  });

export const handler = lazy(() => makeGetJobHandler(defaultDeps()));
