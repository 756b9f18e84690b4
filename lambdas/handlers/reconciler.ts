import { reconcileOutbox } from '../core/use-cases/reconcile';
import { type AppDeps, defaultDeps } from '../shared/deps';
import { lazy } from '../shared/http';

/** Scheduled (EventBridge, every few minutes): enqueues records whose enqueue was never confirmed. */
export const makeReconcilerHandler =
  (deps: AppDeps) => async (): Promise<{ requeued: number; failed: number }> => {
    const report = await reconcileOutbox(deps);
    if (report.requeued > 0 || report.failed > 0) deps.logger.warn('outbox reconciled', { ...report });
    if (report.failed > 0)
      throw new Error(`${report.failed} outbox entries could not be enqueued; the next run retries`);
    return report;
  };

export const handler = lazy(() => makeReconcilerHandler(defaultDeps()));
