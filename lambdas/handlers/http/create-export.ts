import { exportResource } from '../../core/model';
import { makeCreateExportRequestSchema } from '../../core/schemas/export';
import { createExport } from '../../core/use-cases/exports';
import { parseOrThrow } from '../../core/validation';
import { loadConfig } from '../../shared/config';
import type { AppDeps } from '../../shared/deps';
import { httpRoute, json } from '../../shared/http';
import { lazy } from '../../shared/lazy';
import { workQueue } from '../../shared/queue-wiring';
import { objectStore } from '../../shared/storage-wiring';
import { basics, exportRepository, idempotencyStore, jobRepository } from '../../shared/wiring';

export type CreateExportDeps = Pick<
  AppDeps,
  | 'jobs'
  | 'exports'
  | 'exportFiles'
  | 'queue'
  | 'clock'
  | 'ids'
  | 'idempotency'
  | 'logger'
  | 'metrics'
  | 'allowHttpCallbacks'
  | 'allowLoopbackUrls'
>;

/** POST /v1/data_exports (seed 4.2): 201 with the export in `initiated` and a Location header. */
export const makeCreateExportHandler = (deps: CreateExportDeps) => {
  const schema = makeCreateExportRequestSchema({
    allowHttpCallbacks: deps.allowHttpCallbacks,
    allowLoopback: deps.allowLoopbackUrls,
  });
  return httpRoute(deps, { scope: 'client', body: 'json', idempotent: true }, async (event, principal) => {
    const request = parseOrThrow(schema, event.body);
    const exp = await createExport(deps, principal.clientId, request, { id: event.resourceId });
    deps.logger.info('export created', {
      export_id: exp.id,
      job_id: exp.jobId,
      callback: exp.callbackUrl !== null,
    });
    return json(201, exportResource(exp, null), { location: `/v1/data_exports/${exp.id}` });
  });
};

export const handler = lazy(() => {
  const config = loadConfig();
  return makeCreateExportHandler({
    ...basics(config),
    jobs: jobRepository(config),
    exports: exportRepository(config),
    exportFiles: objectStore(config, 'exports'),
    queue: workQueue(config),
    idempotency: idempotencyStore(config),
    allowHttpCallbacks: config.allowHttpCallbacks,
    allowLoopbackUrls: config.allowLoopbackUrls,
  });
});
