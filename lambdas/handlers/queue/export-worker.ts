import { exportMessageSchema } from '../../core/messages';
import { processExport } from '../../core/use-cases/export-processing';
import { type AppDeps, defaultDeps } from '../../shared/deps';
import { lazy } from '../../shared/lazy';
import { count, METRIC, milliseconds } from '../../shared/metrics';
import { sqsConsumer } from '../../shared/queue';

/** Consumer of the exports queue: writes export files and queues their callbacks (SPEC 5.3). */
export const makeExportWorkerHandler = (deps: AppDeps) =>
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

export const handler = lazy(() => makeExportWorkerHandler(defaultDeps()));
