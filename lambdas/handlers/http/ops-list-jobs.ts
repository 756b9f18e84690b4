import { opsListQuerySchema } from '../../core/schemas/operations';
import { listReviewQueue, opsJobResource } from '../../core/use-cases/operations';
import { parseOrThrow } from '../../core/validation';
import { type AppDeps, defaultDeps } from '../../shared/deps';
import { httpRoute, json, queryOf } from '../../shared/http';
import { lazy } from '../../shared/lazy';

/** GET /v1/ops/jobs?state=in_review: the review queue, rush first, then the oldest due_at first. */
export const makeOpsListJobsHandler = (deps: AppDeps) =>
  httpRoute(deps, { scope: 'operator' }, async (event) => {
    const query = parseOrThrow(opsListQuerySchema, queryOf(event), { prefix: '/query' });
    const page = await listReviewQueue(deps, query);
    return json(200, { data: page.items.map(opsJobResource), next_cursor: page.nextCursor });
  });

export const handler = lazy(() => makeOpsListJobsHandler(defaultDeps()));
