import { jobResource } from '../../core/model';
import { listJobsQuerySchema } from '../../core/schemas/job';
import { listJobs } from '../../core/use-cases/jobs';
import { parseOrThrow } from '../../core/validation';
import { loadConfig } from '../../shared/config';
import type { AppDeps } from '../../shared/deps';
import { httpRoute, json, queryOf } from '../../shared/http';
import { lazy } from '../../shared/lazy';
import { basics, jobRepository } from '../../shared/wiring';

export type ListJobsDeps = Pick<AppDeps, 'jobs' | 'logger' | 'metrics'>;

/** GET /v1/jobs?state=&job_type=&limit=&cursor=: the client's jobs, newest first. */
export const makeListJobsHandler = (deps: ListJobsDeps) =>
  httpRoute(deps, { scope: 'client' }, async (event, principal) => {
    const query = parseOrThrow(listJobsQuerySchema, queryOf(event), {
      prefix: '/query',
      message: 'The query parameters are invalid.',
    });
    const page = await listJobs(deps, principal.clientId, {
      state: query.state,
      jobType: query.job_type,
      limit: query.limit,
      cursor: query.cursor,
    });
    return json(200, { data: page.items.map(jobResource), next_cursor: page.nextCursor });
  });

export const handler = lazy(() => {
  const config = loadConfig();
  return makeListJobsHandler({ ...basics(config), jobs: jobRepository(config) });
});
