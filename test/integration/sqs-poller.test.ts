import { randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SetQueueAttributesCommand,
} from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { makeJobWorkerHandler } from '../../lambdas/handlers/queue/job-worker';
import { startConsumerPool } from '../../lib/local/consumer-pool';
import { startPoller } from '../../lib/local/sqs-poller';
import { eventually, sqsRecord } from '../helpers/factories';
import { emulatorDeps, sqsClient } from '../helpers/integration';

const sqs = sqsClient();

/** A private queue pair for one test: maxReceiveCount 2 so dead-lettering happens quickly. */
const queuePair = async () => {
  const name = `t-${randomUUID().slice(0, 8)}`;
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
  );
  const main = await sqs.send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: {
        VisibilityTimeout: '30',
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes!.QueueArn, maxReceiveCount: 2 }),
      },
    }),
  );
  return { url: main.QueueUrl!, dlqUrl: dlq.QueueUrl! };
};

const bodiesIn = async (url: string): Promise<string[]> => {
  const { Messages = [] } = await sqs.send(
    new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, VisibilityTimeout: 0 }),
  );
  return Messages.map((m) => m.Body!).sort();
};

describe('local SQS poller (Lambda event source mapping semantics)', () => {
  it('deletes succeeded records, retries failed ones, and dead-letters after maxReceiveCount', async () => {
    const { url, dlqUrl } = await queuePair();
    const seen: Record<string, number> = {};
    const poller = startPoller({
      sqs,
      name: 'test',
      queues: [{ url, batchSize: 10 }],
      retryVisibilitySeconds: 0,
      idleWaitMs: 20,
      handler: async (event: SQSEvent) => {
        for (const r of event.Records) seen[r.body] = (seen[r.body] ?? 0) + 1;
        return {
          batchItemFailures: event.Records.filter((r) => r.body === 'bad').map((r) => ({
            itemIdentifier: r.messageId,
          })),
        };
      },
    });
    try {
      await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'good' }));
      await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'bad' }));
      await eventually(async () => ((await bodiesIn(dlqUrl)).includes('bad') ? true : undefined), {
        what: 'the DLQ',
      });
      expect(seen.good).toBe(1);
      expect(seen.bad).toBe(2);
      expect(await bodiesIn(url)).toEqual([]);
    } finally {
      await poller.stop();
    }
  });

  it('polls at once when nudged, instead of after its idle wait', async () => {
    const { url } = await queuePair();
    const seen: string[] = [];
    const poller = startPoller({
      sqs,
      name: 'test',
      queues: [{ url, batchSize: 10 }],
      retryVisibilitySeconds: 0,
      // Longer than the deadline below: only a nudge can bring the message in time.
      idleWaitMs: 120_000,
      handler: async (event: SQSEvent) => {
        seen.push(...event.Records.map((r) => r.body));
        return { batchItemFailures: [] };
      },
    });
    try {
      await poller.idle();
      await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'new job' }));
      poller.nudge();
      await eventually(async () => (seen.includes('new job') ? true : undefined), {
        what: 'the nudged poll',
        timeoutMs: 10_000,
      });
    } finally {
      await poller.stop();
    }
  });

  it('fails the whole batch when the handler throws', async () => {
    const { url, dlqUrl } = await queuePair();
    let calls = 0;
    const poller = startPoller({
      sqs,
      name: 'test',
      queues: [{ url, batchSize: 10 }],
      retryVisibilitySeconds: 0,
      idleWaitMs: 20,
      handler: async () => {
        calls++;
        throw new Error('crash');
      },
    });
    try {
      await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'x' }));
      await eventually(async () => ((await bodiesIn(dlqUrl)).includes('x') ? true : undefined), {
        what: 'the DLQ',
      });
      expect(calls).toBe(2);
    } finally {
      await poller.stop();
    }
  });

  it('serves the first queue before the second (rush before standard)', async () => {
    const rush = await queuePair();
    const standard = await queuePair();
    for (let i = 0; i < 3; i++)
      await sqs.send(new SendMessageCommand({ QueueUrl: standard.url, MessageBody: `s${i}` }));
    for (let i = 0; i < 3; i++)
      await sqs.send(new SendMessageCommand({ QueueUrl: rush.url, MessageBody: `r${i}` }));
    const order: string[] = [];
    const poller = startPoller({
      sqs,
      name: 'test',
      queues: [
        { url: rush.url, batchSize: 1 },
        { url: standard.url, batchSize: 1 },
      ],
      retryVisibilitySeconds: 0,
      idleWaitMs: 20,
      handler: async (event) => {
        order.push(...event.Records.map((r) => r.body));
        return { batchItemFailures: [] };
      },
    });
    try {
      await eventually(async () => (order.length === 6 ? true : undefined), { what: 'all six messages' });
      expect(order.slice(0, 3).every((b) => b.startsWith('r'))).toBe(true);
    } finally {
      await poller.stop();
    }
  });
});

describe('local SQS poller: a slow batch holds nobody else (Lambda scales out per queue)', () => {
  it('works the next batches while one hangs, rush first, and idles only once all are done', async () => {
    const rush = await queuePair();
    const standard = await queuePair();
    let releaseHanging: () => void = () => undefined;
    const hanging = new Promise<void>((resolve) => {
      releaseHanging = resolve;
    });
    const done: string[] = [];
    const poller = startPoller({
      sqs,
      name: 'test',
      queues: [
        { url: rush.url, batchSize: 5 },
        { url: standard.url, batchSize: 5 },
      ],
      retryVisibilitySeconds: 0,
      idleWaitMs: 20,
      handler: async (event) => {
        // Records of a batch are worked in parallel, as Powertools' BatchProcessor does.
        await Promise.all(
          event.Records.map(async (r) => {
            if (r.body.startsWith('hang')) await hanging;
            done.push(r.body);
          }),
        );
        return { batchItemFailures: [] };
      },
    });
    try {
      // Six records that hang fill a batch and a half; then another client's rush job and a standard one.
      for (let i = 0; i < 6; i++)
        await sqs.send(new SendMessageCommand({ QueueUrl: rush.url, MessageBody: `hang${i}` }));
      await eventually(async () => ((await bodiesIn(rush.url)).length === 0 ? true : undefined), {
        what: 'the hanging records to be taken',
      });
      await sqs.send(new SendMessageCommand({ QueueUrl: rush.url, MessageBody: 'rush-other-client' }));
      await sqs.send(new SendMessageCommand({ QueueUrl: standard.url, MessageBody: 'standard' }));
      await eventually(async () => (done.length === 2 ? true : undefined), { what: 'the two others' });
      expect(done.sort()).toEqual(['rush-other-client', 'standard']);

      let idle = false;
      const quiet = poller.idle().then(() => {
        idle = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(idle).toBe(false);
      releaseHanging();
      await quiet;
      expect(done).toHaveLength(8);
      expect(await bodiesIn(rush.url)).toEqual([]);
    } finally {
      releaseHanging();
      await poller.stop();
    }
  });

  it('never runs more batches of one queue at once than its limit', async () => {
    const { url } = await queuePair();
    let running = 0;
    let most = 0;
    const poller = startPoller({
      sqs,
      name: 'test',
      queues: [{ url, batchSize: 1 }],
      retryVisibilitySeconds: 0,
      idleWaitMs: 20,
      maxConcurrentBatches: 3,
      handler: async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 50));
        running -= 1;
        return { batchItemFailures: [] };
      },
    });
    try {
      for (let i = 0; i < 10; i++)
        await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: `m${i}` }));
      await eventually(async () => ((await bodiesIn(url)).length === 0 && running === 0 ? true : undefined), {
        what: 'all ten messages',
      });
      expect(most).toBe(3);
    } finally {
      await poller.stop();
    }
  });
});

describe('local SQS poller and consumer threads: a thread that dies', () => {
  it('gives back every message it held at once (not after the visibility timeout), and a new thread takes them', async () => {
    const { url, dlqUrl } = await queuePair();
    await sqs.send(
      new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { VisibilityTimeout: '600' } }),
    );
    const pool = startConsumerPool({
      name: 'test',
      module: path.join(__dirname, '..', 'fixtures', 'local', 'pool-handler.ts'),
      threads: 2,
      batchesPerThread: 5,
    });
    await pool.ready;
    const poller = startPoller({
      sqs,
      name: 'test',
      queues: [{ url, batchSize: 1 }],
      retryVisibilitySeconds: 1,
      idleWaitMs: 20,
      maxTotalBatches: pool.capacity,
      handler: (event, context) => pool.invoke(event, context.getRemainingTimeInMillis()),
    });
    try {
      // Two messages wait in the thread when a third one's first delivery ends it.
      for (const body of ['wait:3000', 'wait:3000', 'crash-first'])
        await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body }));
      await eventually(
        async () => {
          const { Attributes } = await sqs.send(
            new GetQueueAttributesCommand({
              QueueUrl: url,
              AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
            }),
          );
          const left =
            Number(Attributes?.ApproximateNumberOfMessages) +
            Number(Attributes?.ApproximateNumberOfMessagesNotVisible);
          return left === 0 ? true : undefined;
        },
        { timeoutMs: 60_000, what: 'every message handled' },
      );
      // All three handled well inside the queue's 600 s visibility timeout, none dead-lettered.
      expect(await bodiesIn(dlqUrl)).toEqual([]);
    } finally {
      await poller.stop();
      await pool.stop();
    }
  }, 90_000);
});

describe('job worker', () => {
  const deps = emulatorDeps();
  const worker = makeJobWorkerHandler(deps);
  const context = { awsRequestId: 'x', getRemainingTimeInMillis: () => 30_000 } as never;

  it('acknowledges a malformed message instead of retrying it forever', async () => {
    const result = await worker({ Records: [sqsRecord('not json'), sqsRecord({ kind: 'job' })] }, context);
    expect(result.batchItemFailures).toEqual([]);
  });
});
