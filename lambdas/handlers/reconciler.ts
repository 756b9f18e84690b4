import { failOverdueJobs } from '../core/use-cases/job-failure';
import { reconcileOutbox } from '../core/use-cases/reconcile';
import { loadConfig } from '../shared/config';
import type { AppDeps } from '../shared/deps';
import { lazy } from '../shared/lazy';
import { count, METRIC, publishMetrics } from '../shared/metrics';
import { workQueue } from '../shared/queue-wiring';
import { basics, exportRepository, jobRepository, outboxReader } from '../shared/wiring';

export interface ReconcileReport {
  readonly requeued: number;
  readonly failedToRequeue: number;
  readonly timedOut: number;
  /** Jobs not terminal although their due_at has passed (at most 1000 are counted). */
  readonly stuck: number;
}

export type ReconcilerDeps = Pick<
  AppDeps,
  'outbox' | 'jobs' | 'exports' | 'queue' | 'clock' | 'logger' | 'metrics'
>;

/**
 * Scheduled (every few minutes in AWS, and at local start-up): enqueues records whose enqueue was never
 * confirmed, and fails jobs that are past their due date by more than the grace period (`timed_out`).
 */
export const makeReconcilerHandler = (deps: ReconcilerDeps) => async (): Promise<ReconcileReport> => {
  const outbox = await reconcileOutbox(deps);
  const timedOut = await failOverdueJobs(deps);
  const stuck = (await deps.jobs.listOverdue(deps.clock.now().toISOString(), 1000)).length;
  // Emitted on every run, 0 included: the StuckJobs alarm reads it.
  count(deps, METRIC.stuckJobs, stuck);
  publishMetrics(deps);
  const report = { requeued: outbox.requeued, failedToRequeue: outbox.failed, timedOut, stuck };
  if (report.requeued > 0 || report.timedOut > 0 || report.failedToRequeue > 0) {
    deps.logger.warn('reconciled', { ...report });
  }
  if (report.failedToRequeue > 0) {
    throw new Error(`${report.failedToRequeue} outbox entries could not be enqueued; the next run retries`);
  }
  return report;
};

export const handler = lazy(() => {
  const config = loadConfig();
  return makeReconcilerHandler({
    ...basics(config),
    outbox: outboxReader(config),
    jobs: jobRepository(config),
    exports: exportRepository(config),
    queue: workQueue(config),
  });
});
