import { opsFailRequestSchema } from '../../core/schemas/operations';
import { failReviewedJob, opsJobResource } from '../../core/use-cases/operations';
import { parseOrThrow } from '../../core/validation';
import { loadConfig } from '../../shared/config';
import { httpRoute, json, pathParam } from '../../shared/http';
import { lazy } from '../../shared/lazy';
import { type OperationsRouteDeps, operationsDeps } from '../../shared/operations-wiring';

/** POST /v1/ops/jobs/{id}/fail `{ "code", "message" }`: the job fails with the operations team's reason. */
export const makeOpsFailJobHandler = (deps: OperationsRouteDeps) =>
  httpRoute(deps, { scope: 'operator', body: 'json' }, async (event) => {
    const request = parseOrThrow(opsFailRequestSchema, event.body);
    const job = await failReviewedJob(deps, pathParam(event, 'id'), request);
    deps.logger.info('job failed by operations', { job_id: job.id, code: request.code });
    return json(200, opsJobResource(job));
  });

export const handler = lazy(() => makeOpsFailJobHandler(operationsDeps(loadConfig())));
