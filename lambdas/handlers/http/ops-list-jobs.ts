import { opsListQuerySchema } from '../../core/schemas/operations';
import { listReviewQueue, opsJobResource } from '../../core/use-cases/operations';
import { parseOrThrow } from '../../core/validation';
import { loadConfig } from '../../shared/config';
import type { AppDeps } from '../../shared/deps';
import { httpRoute, json, queryOf } from '../../shared/http';
import { lazy } from '../../shared/lazy';
import { basics, jobRepository } from '../../shared/wiring';

export type OpsListJobsDeps = Pick<AppDeps, 'jobs' | 'logger' | 'metrics'>;

/** GET /v1/ops/jobs?state=in_review: the review queue, rush first, then the oldest due_at first. */
export const makeOpsListJobsHandler = (deps: OpsListJobsDeps) =>
  httpRoute(deps, { scope: 'operator' }, async (event) => {
    const query = parseOrThrow(opsListQuerySchema, queryOf(event), { prefix: '/query' });
    const page = await listReviewQueue(deps, query);
    return json(200, { data: page.items.map(opsJobResource), next_cursor: page.nextCursor });
  });

export const handler = lazy(() => {
  const config = loadConfig();
  return makeOpsListJobsHandler({ ...basics(config), jobs: jobRepository(config) });
});
