import type { Clock, ExportRepository, JobRepository, OutboxReader, WorkQueue } from '../ports';

export interface ReconcileDeps {
  readonly outbox: OutboxReader;
  readonly jobs: JobRepository;
  readonly exports: ExportRepository;
  readonly queue: WorkQueue;
  readonly clock: Clock;
}

/** Records younger than this are still being enqueued by the request that created them. */
export const OUTBOX_GRACE_SECONDS = 60;

export interface OutboxReport {
  readonly requeued: number;
  readonly failed: number;
}

/**
 * Enqueues every job and export whose enqueue was never confirmed (the request that created it crashed or
 * lost SQS between its two writes). Enqueueing twice is harmless: workers move records with conditional
 * transitions. Runs on a schedule in AWS and at start-up locally.
 */
export const reconcileOutbox = async (
  deps: ReconcileDeps,
  options: { graceSeconds?: number; limit?: number } = {},
): Promise<OutboxReport> => {
  const cutoff = new Date(deps.clock.now().getTime() - (options.graceSeconds ?? OUTBOX_GRACE_SECONDS) * 1000);
  const entries = await deps.outbox.pending(cutoff.toISOString(), options.limit ?? 100);
  let requeued = 0;
  let failed = 0;
  for (const entry of entries) {
    try {
      if (entry.kind === 'job') {
        const job = await deps.jobs.get(entry.clientId, entry.id);
        if (job) {
          await deps.queue.sendJob(
            { kind: 'job', clientId: job.clientId, jobId: job.id },
            job.processingType,
          );
        }
        await deps.jobs.markEnqueued(entry.clientId, entry.id);
      } else {
        await deps.queue.sendExport({ kind: 'export', clientId: entry.clientId, exportId: entry.id });
        await deps.exports.markEnqueued(entry.clientId, entry.id);
      }
      requeued++;
    } catch {
      failed++;
    }
  }
  return { requeued, failed };
};
