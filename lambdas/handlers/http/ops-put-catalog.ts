import { opsJobResource, replaceCatalog } from '../../core/use-cases/operations';
import { loadConfig } from '../../shared/config';
import { httpRoute, json, pathParam } from '../../shared/http';
import { lazy } from '../../shared/lazy';
import { type OperationsRouteDeps, operationsDeps } from '../../shared/operations-wiring';

/** PUT /v1/ops/jobs/{id}/catalog: replaces the draft with a validated catalog document (SPEC 5.5). */
export const makeOpsPutCatalogHandler = (deps: OperationsRouteDeps) =>
  httpRoute(deps, { scope: 'operator', body: 'json' }, async (event) => {
    const job = await replaceCatalog(deps, pathParam(event, 'id'), event.body);
    deps.logger.info('catalog replaced by operations', { job_id: job.id });
    return json(200, opsJobResource(job));
  });

export const handler = lazy(() => makeOpsPutCatalogHandler(operationsDeps(loadConfig())));
