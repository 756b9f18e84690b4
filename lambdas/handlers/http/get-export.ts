import { exportResource } from '../../core/model';
import { deliveryLink, exportRetryAfterSeconds, getExport } from '../../core/use-cases/exports';
import { loadConfig } from '../../shared/config';
import type { AppDeps } from '../../shared/deps';
import { httpRoute, json, pathParam } from '../../shared/http';
import { lazy } from '../../shared/lazy';
import { objectStore } from '../../shared/storage-wiring';
import { basics, exportRepository } from '../../shared/wiring';

export type GetExportDeps = Pick<AppDeps, 'exports' | 'exportFiles' | 'logger' | 'metrics'>;

/** GET /v1/data_exports/{id}: poll an export; a completed one carries a freshly signed delivery_url. */
export const makeGetExportHandler = (deps: GetExportDeps) =>
  httpRoute(deps, { scope: 'client' }, async (event, principal) => {
    const exp = await getExport(deps, principal.clientId, pathParam(event, 'id'));
    const retryAfter = exportRetryAfterSeconds(exp);
    return json(
      200,
      exportResource(exp, await deliveryLink(deps, exp)),
      retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) },
    );
  });

export const handler = lazy(() => {
  const config = loadConfig();
  return makeGetExportHandler({
    ...basics(config),
    exports: exportRepository(config),
    exportFiles: objectStore(config, 'exports'),
  });
});
