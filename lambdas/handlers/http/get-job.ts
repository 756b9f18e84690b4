import { jobResource } from '../../core/model';
import { getJob, jobRetryAfterSeconds } from '../../core/use-cases/jobs';
import { loadConfig } from '../../shared/config';
import type { AppDeps } from '../../shared/deps';
import { httpRoute, json, pathParam } from '../../shared/http';
import { lazy } from '../../shared/lazy';
import { basics, jobRepository } from '../../shared/wiring';

export type GetJobDeps = Pick<AppDeps, 'jobs' | 'logger' | 'metrics'>;

/** GET /v1/jobs/{id}: the job, with Retry-After while it is not terminal. */
export const makeGetJobHandler = (deps: GetJobDeps) =>
  httpRoute(deps, { scope: 'client' }, async (event, principal) => {
    const job = await getJob(deps, principal.clientId, pathParam(event, 'id'));
    const retryAfter = jobRetryAfterSeconds(job);
    return json(200, jobResource(job), retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) });
  });

export const handler = lazy(() => {
  const config = loadConfig();
  return makeGetJobHandler({ ...basics(config), jobs: jobRepository(config) });
});
