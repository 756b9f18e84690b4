import { exportResource } from '../../core/model';
import { makeCreateExportRequestSchema } from '../../core/schemas/export';
import { createExport } from '../../core/use-cases/exports';
import { parseOrThrow } from '../../core/validation';
import { type AppDeps, defaultDeps } from '../../shared/deps';
import { httpRoute, json } from '../../shared/http';
import { lazy } from '../../shared/lazy';

/** POST /v1/data_exports (seed 4.2): 201 with the export in `initiated` and a Location header. */
export const makeCreateExportHandler = (deps: AppDeps) => {
  const schema = makeCreateExportRequestSchema({
    allowHttpCallbacks: deps.allowHttpCallbacks,
    allowLoopback: deps.allowLoopbackUrls,
  });
  return httpRoute(deps, { scope: 'client', body: 'json', idempotent: true }, async (event, principal) => {
    const request = parseOrThrow(schema, event.body);
    const exp = await createExport(deps, principal.clientId, request);
    deps.logger.info('export created', {
      export_id: exp.id,
      job_id: exp.jobId,
      callback: exp.callbackUrl !== null,
    });
    return json(201, exportResource(exp, null), { location: `/v1/data_exports/${exp.id}` });
  });
};

export const handler = lazy(() => makeCreateExportHandler(defaultDeps()));
