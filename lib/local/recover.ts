import { type DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { stripKeys } from '../../lambdas/adapters/dynamo-table';
import { ConflictError, NotFoundError } from '../../lambdas/core/errors';
import type { ExportRecord, JobRecord } from '../../lambdas/core/model';
import type { IdempotencyRecord } from '../../lambdas/core/ports';
import type { AppDeps } from '../../lambdas/shared/deps';
import type { Emulators } from './emulators';

export interface RecoveryReport {
  /** Leases of `processing` jobs held by the workers of a process that is gone. */
  readonly leasesReleased: number;
  /** Messages that process had received (they were in flight, invisible for 6x the consumer's timeout). */
  readonly messagesReleased: number;
  /** Open jobs, and exports that were being made or never confirmed on their queue, enqueued again. */
  readonly requeued: number;
  /** Idempotency keys whose request was in flight: their retries take them over at once. */
  readonly keysReleased: number;
}

interface TableRecords {
  /** Jobs `initiated` or `processing`, and whether the item still waits in the outbox. */
  readonly jobs: { readonly job: JobRecord; readonly inOutbox: boolean }[];
  readonly exports: { readonly exp: ExportRecord; readonly inOutbox: boolean }[];
  readonly keys: IdempotencyRecord[];
}

const OPEN = ['initiated', 'processing'];

/**
 * What a process that died can have left in hand, read from the table itself: one Scan of the base table,
 * never an index. An index entry is a second write of the item, which a full disk can refuse after the
 * item's own write succeeded (dynalite writes them one by one): a job moved on in its index but still
 * `processing` in the table was invisible to a sweep of the index, and stayed `processing` for good.
 */
const readOpenRecords = async (dynamo: DynamoDBClient, tableName: string): Promise<TableRecords> => {
  const records: TableRecords = { jobs: [], exports: [], keys: [] };
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new ScanCommand({
        TableName: tableName,
        ConsistentRead: true,
        FilterExpression:
          '(entity IN (:job, :export) AND #state IN (:initiated, :processing)) OR (entity = :key AND #state = :inProgress)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: marshall({
          ':job': 'job',
          ':export': 'export',
          ':key': 'idempotency',
          ':initiated': OPEN[0],
          ':processing': OPEN[1],
          ':inProgress': 'in_progress',
        }),
        ...(start ? { ExclusiveStartKey: marshall(start) } : {}),
      }),
    );
    for (const raw of page.Items ?? []) {
      const item = unmarshall(raw);
      const inOutbox = String(item.GSI2PK ?? '').startsWith('OUTBOX#');
      if (item.entity === 'job') records.jobs.push({ job: stripKeys<JobRecord>(item), inOutbox });
      else if (item.entity === 'export')
        records.exports.push({ exp: stripKeys<ExportRecord>(item), inOutbox });
      else records.keys.push(stripKeys<IdempotencyRecord>(item));
    }
    start = page.LastEvaluatedKey ? unmarshall(page.LastEvaluatedKey) : undefined;
  } while (start);
  return records;
};

const ignoreMoved = (error: unknown) => {
  if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
};

/**
 * Hands back the work a previous process had in hand when it stopped, crash or not (SPEC 10: a job queued or
 * in progress when the process died finishes after the restart). Runs at start-up, holding the data
 * directory's lock (so no worker or request of an earlier process is alive) and before this process
 * consumes a queue or accepts a request. From the table itself (readOpenRecords):
 *
 * 1. a `processing` job's lease is cleared (as a worker does when it gives a job back), so that the next
 *    delivery takes the job over instead of skipping it as held by another worker;
 * 2. every in-flight message is made visible again: in AWS a crashed consumer's message comes back after
 *    the queue's visibility timeout (6x the consumer's timeout, 90 minutes for jobs); here nothing can still
 *    be working on it. The delivery counts as an attempt, as a crashed invocation does in Lambda, so a job
 *    that crashes the process every time still ends in the dead-letter queue;
 * 3. every open job is enqueued again, and every export that was being made or never confirmed on its
 *    queue: its own message may be gone (deleted as a duplicate while the dead worker held the job, or
 *    never sent), and a second one is harmless, since workers move records by conditional transitions.
 *    Records still in the outbox are marked enqueued;
 * 4. every idempotency key whose request was in flight is released to its retry at once (not after its
 *    60-second lock), which takes it over with the id it reserved.
 */
export const recoverAfterRestart = async (
  deps: Pick<AppDeps, 'jobs' | 'exports' | 'idempotency' | 'queue' | 'clock'>,
  dynamo: DynamoDBClient,
  tableName: string,
  emulators: Pick<Emulators, 'releaseInFlightMessages'>,
): Promise<RecoveryReport> => {
  const open = await readOpenRecords(dynamo, tableName);
  let leasesReleased = 0;
  for (const { job } of open.jobs) {
    if (job.state !== 'processing' || typeof job.leaseUntil !== 'string') continue;
    try {
      await deps.jobs.transition(job.clientId, job.id, {
        event: 'release',
        expectedVersion: job.version,
        set: { leaseUntil: null },
        at: deps.clock.now().toISOString(),
      });
      leasesReleased++;
    } catch (error) {
      ignoreMoved(error);
    }
  }
  const messagesReleased = await emulators.releaseInFlightMessages();
  let requeued = 0;
  for (const { job, inOutbox } of open.jobs) {
    await deps.queue.sendJob({ kind: 'job', clientId: job.clientId, jobId: job.id }, job.processingType);
    if (inOutbox) await deps.jobs.markEnqueued(job.clientId, job.id);
    requeued++;
  }
  for (const { exp, inOutbox } of open.exports) {
    if (exp.state !== 'processing' && !inOutbox) continue;
    await deps.queue.sendExport({ kind: 'export', clientId: exp.clientId, exportId: exp.id });
    if (inOutbox) await deps.exports.markEnqueued(exp.clientId, exp.id);
    requeued++;
  }
  let keysReleased = 0;
  for (const key of open.keys) {
    if (await deps.idempotency.takeOver(key, 0)) keysReleased++;
  }
  return { leasesReleased, messagesReleased, requeued, keysReleased };
};
