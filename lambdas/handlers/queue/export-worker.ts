import { exportMessageSchema } from '../../core/messages';
import { processExport } from '../../core/use-cases/export-processing';
import { loadConfig } from '../../shared/config';
import type { AppDeps } from '../../shared/deps';
import { lazy } from '../../shared/lazy';
import { count, METRIC, milliseconds } from '../../shared/metrics';
import { sqsConsumer } from '../../shared/queue';
import { workQueue } from '../../shared/queue-wiring';
import { objectStore } from '../../shared/storage-wiring';
import { tracedObjectStore } from '../../shared/traced-store';
import { basics, exportRepository, jobRepository } from '../../shared/wiring';

export type ExportWorkerDeps = Pick<
  AppDeps,
  'jobs' | 'exports' | 'catalogs' | 'exportFiles' | 'queue' | 'clock' | 'logger' | 'metrics'
>;

/** Consumer of the exports queue: writes export files and queues their callbacks (SPEC 5.3). */
export const makeExportWorkerHandler = (deps: ExportWorkerDeps) =>
  sqsConsumer(deps, 'export-worker', exportMessageSchema, async (message) => {
    const started = Date.now();
    const outcome = await processExport(deps, message.clientId, message.exportId);
    const ms = Date.now() - started;
    if (outcome.kind === 'completed') {
      count(deps, METRIC.exportsCompleted);
      milliseconds(deps, METRIC.exportDuration, ms);
    } else if (outcome.kind === 'failed') {
      count(deps, METRIC.exportsFailed);
    }
    return { export_id: message.exportId, outcome: outcome.kind, ms };
  });

export const handler = lazy(() => {
  const config = loadConfig();
  return makeExportWorkerHandler({
    ...basics(config),
    jobs: jobRepository(config),
    exports: exportRepository(config),
    catalogs: objectStore(config, 'catalogs'),
    // Export files are as large as the catalogs: streamed through a multipart upload.
    exportFiles: tracedObjectStore(config, 'exports'),
    queue: workQueue(config),
  });
});
