import { completeReviewedJob, opsJobResource } from '../../core/use-cases/operations';
import { loadConfig } from '../../shared/config';
import { httpRoute, json, pathParam } from '../../shared/http';
import { lazy } from '../../shared/lazy';
import { type OperationsRouteDeps, operationsDeps } from '../../shared/operations-wiring';

/** POST /v1/ops/jobs/{id}/complete: the reviewed job is completed with its current catalog. */
export const makeOpsCompleteJobHandler = (deps: OperationsRouteDeps) =>
  httpRoute(deps, { scope: 'operator' }, async (event) => {
    const job = await completeReviewedJob(deps, pathParam(event, 'id'));
    deps.logger.info('job completed by operations', { job_id: job.id });
    return json(200, opsJobResource(job));
  });

export const handler = lazy(() => makeOpsCompleteJobHandler(operationsDeps(loadConfig())));
