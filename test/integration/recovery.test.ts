import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { DynamoExportRepository } from '../../lambdas/adapters/dynamo-export-repository';
import { DynamoIdempotencyStore } from '../../lambdas/adapters/dynamo-idempotency-store';
import { DynamoJobRepository } from '../../lambdas/adapters/dynamo-job-repository';
import { keys } from '../../lambdas/adapters/dynamo-table';
import { SqsWorkQueue } from '../../lambdas/adapters/sqs-work-queue';
import { claimIdempotencyKey } from '../../lambdas/core/use-cases/idempotency';
import { loadConfig } from '../../lambdas/shared/config';
import type { AppDeps } from '../../lambdas/shared/deps';
import { sqsClient } from '../../lambdas/shared/queue-wiring';
import { recoverAfterRestart } from '../../lib/local/recover';
import { aJob, TEST_EPOCH } from '../helpers/factories';
import { FakeClock } from '../helpers/fakes';
import { emulatorClients, emulatorDeps, freshQueues, freshTable, uniqueClient } from '../helpers/integration';

/**
 * Issue 25, finding 3: after a restart, the local runtime finds what the dead process left in hand from the
 * table itself. A full disk can keep an item's index entries from being written while the item's own write
 * succeeded: the job below is `processing` in the table and nowhere in the sweep index, which is how the
 * recovery used to look for it (it stayed `processing` for good).
 */

let own: Awaited<ReturnType<typeof freshTable>>;
let queues: Awaited<ReturnType<typeof freshQueues>>;
let deps: AppDeps;
const clock = new FakeClock(new Date(TEST_EPOCH));

beforeAll(async () => {
  own = await freshTable();
  queues = await freshQueues();
  deps = {
    ...emulatorDeps(),
    clock,
    jobs: new DynamoJobRepository(own),
    exports: new DynamoExportRepository(own),
    idempotency: new DynamoIdempotencyStore(own),
    queue: new SqsWorkQueue(sqsClient(loadConfig(process.env)), {
      ...queues.queueUrls,
      callbackDeadLetters: queues.deadLetterQueueUrls.callbacks,
    }),
  };
});

afterAll(async () => {
  await own?.drop();
  await queues?.drop();
});

const noMessages = { releaseInFlightMessages: async () => 0 };

describe('local recovery after a restart', () => {
  it('finds an open job from the table though its index entry was never written, and gives it back to a worker', async () => {
    const client = uniqueClient();
    // A job a dead worker held: processing, leased for 16 minutes more, and absent from the sweep index
    // (its entry there removed, as a full disk kept it from being written).
    const held = aJob({ clientId: client });
    await deps.jobs.create(held);
    await deps.jobs.markEnqueued(client, held.id);
    await deps.jobs.transition(client, held.id, {
      event: 'claim',
      expectedVersion: 1,
      set: {
        leaseUntil: new Date(clock.now().getTime() + 960_000).toISOString(),
        leaseMessageId: 'm-dead',
      },
      at: clock.now().toISOString(),
    });
    await emulatorClients().dynamo.send(
      new UpdateItemCommand({
        TableName: own.tableName,
        Key: marshall({ PK: keys.client(client), SK: keys.job(held.id) }),
        UpdateExpression: 'REMOVE GSI2PK, GSI2SK',
      }),
    );
    // Two that the sweep index does know: one waiting in the outbox, one finished.
    const waiting = aJob({ clientId: client });
    await deps.jobs.create(waiting);
    const done = aJob({ clientId: client });
    await deps.jobs.create(done);
    await deps.jobs.markEnqueued(client, done.id);
    await deps.jobs.transition(client, done.id, {
      event: 'claim',
      expectedVersion: 1,
      at: clock.now().toISOString(),
    });
    await deps.jobs.transition(client, done.id, {
      event: 'complete',
      expectedVersion: 2,
      at: clock.now().toISOString(),
    });

    const report = await recoverAfterRestart(deps, emulatorClients().dynamo, own.tableName, noMessages);

    expect(report).toMatchObject({ leasesReleased: 1, requeued: 2 });
    expect(await deps.jobs.get(client, held.id)).toMatchObject({ state: 'processing', leaseUntil: null });
    const queued = (await queues.take(queues.queueUrls.jobsStandard)) as { jobId: string }[];
    expect(queued.map((m) => m.jobId).sort()).toEqual([held.id, waiting.id].sort());
    // The one in the outbox is marked enqueued.
    const pending = await deps.outbox.pending(new Date(clock.now().getTime() + 3_600_000).toISOString(), 100);
    expect(pending.map((p) => p.id)).not.toContain(waiting.id);
  });

  it('releases the idempotency keys of requests that were in flight: their retries take them over at once', async () => {
    const client = uniqueClient();
    const nowSeconds = Math.floor(clock.now().getTime() / 1000);
    const first = await claimIdempotencyKey(deps.idempotency, {
      clientId: client,
      key: 'k-1',
      fingerprint: 'f',
      nowSeconds,
      resourceId: '11111111-1111-4111-8111-111111111111',
    });
    expect(first).toEqual({ kind: 'proceed', resourceId: '11111111-1111-4111-8111-111111111111' });

    const report = await recoverAfterRestart(deps, emulatorClients().dynamo, own.tableName, noMessages);
    expect(report.keysReleased).toBeGreaterThanOrEqual(1);

    // A second later, not a minute: the retry proceeds with the id the dead request reserved.
    const retry = await claimIdempotencyKey(deps.idempotency, {
      clientId: client,
      key: 'k-1',
      fingerprint: 'f',
      nowSeconds: nowSeconds + 1,
      resourceId: '22222222-2222-4222-8222-222222222222',
    });
    expect(retry).toEqual({ kind: 'proceed', resourceId: '11111111-1111-4111-8111-111111111111' });
  });
});
