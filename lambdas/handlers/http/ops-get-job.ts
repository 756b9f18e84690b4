import { getOpsJob } from '../../core/use-cases/operations';
import { loadConfig } from '../../shared/config';
import type { AppDeps } from '../../shared/deps';
import { httpRoute, json, pathParam } from '../../shared/http';
import { lazy } from '../../shared/lazy';
import { objectStore } from '../../shared/storage-wiring';
import { basics, fileRepository, jobRepository } from '../../shared/wiring';

export type OpsGetJobDeps = Pick<AppDeps, 'jobs' | 'catalogs' | 'files' | 'logger' | 'metrics'>;

/** GET /v1/ops/jobs/{id}: the job with its client, instructions, sources and draft catalog. */
export const makeOpsGetJobHandler = (deps: OpsGetJobDeps) =>
  httpRoute(deps, { scope: 'operator' }, async (event) =>
    json(200, await getOpsJob(deps, pathParam(event, 'id'))),
  );

export const handler = lazy(() => {
  const config = loadConfig();
  return makeOpsGetJobHandler({
    ...basics(config),
    jobs: jobRepository(config),
    catalogs: objectStore(config, 'catalogs'),
    files: fileRepository(config),
  });
});
