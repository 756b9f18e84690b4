import {
  keys,
  queryShards,
  readRecords,
  stripKeys,
  type TableContext,
} from '../../lambdas/adapters/dynamo-table';
import { ConflictError, NotFoundError } from '../../lambdas/core/errors';
import type { JobRecord } from '../../lambdas/core/model';
import { reconcileOutbox } from '../../lambdas/core/use-cases/reconcile';
import type { AppDeps } from '../../lambdas/shared/deps';
import type { Emulators } from './emulators';

export interface RecoveryReport {
  /** Leases of `processing` jobs held by the workers of a process that is gone. */
  readonly leasesReleased: number;
  /** Messages that process had received (they were in flight, invisible for 6x the consumer's timeout). */
  readonly messagesReleased: number;
  /** Records written but never confirmed on their queue. */
  readonly requeued: number;
}

/**
 * Every job in `processing` whose lease is set. They are among the open jobs of the sweep index (GSI2, every
 * shard), which holds keys only: the jobs are read from the table.
 */
const leasedJobs = async (table: TableContext): Promise<JobRecord[]> => {
  const open = await queryShards(
    table,
    keys.openJobs,
    { expression: 'GSI2SK > :any', values: { ':any': ' ' } },
    10_000,
    'find leased jobs',
  );
  return (await readRecords(table, open, 'find leased jobs'))
    .map((item) => stripKeys<JobRecord>(item))
    .filter((job) => job.state === 'processing' && typeof job.leaseUntil === 'string');
};

/**
 * Hands back the work a previous process had in hand when it stopped, crash or not (SPEC 10: a job queued or
 * in progress when the process died finishes after the restart). Runs at start-up, holding the data
 * directory's lock (so no worker of an earlier process is alive) and before this process consumes a queue or
 * accepts a request:
 *
 * 1. a `processing` job's lease is cleared (as a worker does when it gives a job back), so that the next
 *    delivery of its message takes the job over instead of skipping it as held by another worker;
 * 2. every in-flight message is made visible again: in AWS a crashed consumer's message comes back after
 *    the queue's visibility timeout (6x the consumer's timeout, 90 minutes for jobs); here nothing can still
 *    be working on it. The delivery counts as an attempt, as a crashed invocation does in Lambda, so a job
 *    that crashes the process every time still ends in the dead-letter queue;
 * 3. the outbox is enqueued with no grace period: no request that could still confirm its enqueue is alive.
 */
export const recoverAfterRestart = async (
  deps: AppDeps,
  table: TableContext,
  emulators: Emulators,
): Promise<RecoveryReport> => {
  let leasesReleased = 0;
  for (const job of await leasedJobs(table)) {
    try {
      await deps.jobs.transition(job.clientId, job.id, {
        event: 'release',
        expectedVersion: job.version,
        set: { leaseUntil: null },
        at: deps.clock.now().toISOString(),
      });
      leasesReleased++;
    } catch (error) {
      if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
    }
  }
  const messagesReleased = await emulators.releaseInFlightMessages();
  let requeued = 0;
  for (;;) {
    const report = await reconcileOutbox(deps, { graceSeconds: 0, limit: 100 });
    requeued += report.requeued;
    if (report.requeued === 0 || report.failed > 0) break;
  }
  return { leasesReleased, messagesReleased, requeued };
};
