import { getOpsJob } from '../../core/use-cases/operations';
import { type AppDeps, defaultDeps } from '../../shared/deps';
import { httpRoute, json, pathParam } from '../../shared/http';
import { lazy } from '../../shared/lazy';

/** GET /v1/ops/jobs/{id}: the job with its client, instructions, sources and draft catalog. */
export const makeOpsGetJobHandler = (deps: AppDeps) =>
  httpRoute(deps, { scope: 'operator' }, async (event) =>
    json(200, await getOpsJob(deps, pathParam(event, 'id'))),
  );

export const handler = lazy(() => makeOpsGetJobHandler(defaultDeps()));
