import { randomUUID } from 'node:crypto';
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { lambdaContext } from './api-gateway';

export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | undefined>;

export interface PolledQueue {
  readonly url: string;
  readonly batchSize: number;
  /** Batches of this queue in the handler at once (QUEUES' maxConcurrency); else maxConcurrentBatches. */
  readonly maxConcurrentBatches?: number;
}

/** Batches in the handler at once, per queue, unless told otherwise (Lambda scales out much further). */
export const DEFAULT_MAX_CONCURRENT_BATCHES = 10;
/** How long an idle poller waits before it polls again, unless told otherwise (`idleWaitMs`). */
export const DEFAULT_IDLE_WAIT_MS = 200;

export interface PollerOptions {
  readonly sqs: SQSClient;
  readonly name: string;
  /** Served in this order: a queue is read only when every queue before it is empty (rush first). */
  readonly queues: readonly PolledQueue[];
  readonly handler: SqsHandler;
  /**
   * Seconds before a failed message is seen again. Lambda leaves it to the queue's visibility timeout (6x
   * the function timeout); locally that would be half an hour, so failures are retried sooner.
   */
  readonly retryVisibilitySeconds: number;
  /**
   * How many batches of one queue may be in the handler at once. Lambda's event source mapping invokes
   * concurrently too (one mapping per queue, each scaling out), so a slow batch never holds the next one.
   */
  readonly maxConcurrentBatches?: number;
  /** Batches of all queues in the handler at once (what the consumer's threads can run); unbounded if unset. */
  readonly maxTotalBatches?: number;
  /** The consumer's time limit, as its Lambda context tells the handler (default 300 s). */
  readonly timeoutMs?: number;
  /** How long the poller waits after a poll that found nothing to take (default 200 ms). */
  readonly idleWaitMs?: number;
  /**
   * The wait doubles after each such poll, up to this (default: idleWaitMs, no doubling); a nudge, a message
   * taken or a batch finished brings it back to idleWaitMs. An idle service then polls a few times a second
   * instead of five times a second per queue (each poll an SQS request: CPU the jobs on the same cores want).
   */
  readonly maxIdleWaitMs?: number;
  /** How long stop() waits for batches still in the handler; their messages are redelivered later. */
  readonly stopGraceMs?: number;
  readonly log?: (line: Record<string, unknown>) => void;
}

const toRecord = (message: Message, queueArn: string): SQSRecord => ({
  messageId: message.MessageId!,
  receiptHandle: message.ReceiptHandle!,
  body: message.Body ?? '',
  attributes: {
    ApproximateReceiveCount: message.Attributes?.ApproximateReceiveCount ?? '1',
    SentTimestamp: message.Attributes?.SentTimestamp ?? String(Date.now()),
    SenderId: message.Attributes?.SenderId ?? 'local',
    ApproximateFirstReceiveTimestamp:
      message.Attributes?.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
  },
  messageAttributes: {},
  md5OfBody: message.MD5OfBody ?? '',
  eventSource: 'aws:sqs',
  eventSourceARN: queueArn,
  awsRegion: 'us-east-1',
});

export interface Poller {
  stop(): Promise<void>;
  /** Resolves when every queue was found empty with no batch in the handler, at least once after this call. */
  idle(): Promise<void>;
  /**
   * Polls at once instead of after the idle wait: a message may just have been sent (the local runtime
   * calls it after each API request, so that a new job starts without waiting out `idleWaitMs`).
   */
  nudge(): void;
}

/**
 * `action`, run at once when called, but at most once per `ms`: a call within `ms` of the last run is run
 * `ms` after it, once for all such calls. Nudging every poller after each batch, under a stream of short
 * batches (callbacks), would otherwise make every idle poller poll all its queues each time.
 */
export const atMostEvery = (ms: number, action: () => void): { (): void; cancel(): void } => {
  let last = Number.NEGATIVE_INFINITY;
  let later: NodeJS.Timeout | undefined;
  const run = () => {
    later = undefined;
    last = Date.now();
    action();
  };
  const call = () => {
    const since = Date.now() - last;
    if (since >= ms) run();
    else later ??= setTimeout(run, ms - since).unref();
  };
  return Object.assign(call, {
    cancel: () => {
      clearTimeout(later);
      later = undefined;
    },
  });
};

/**
 * Feeds SQS batches to a consumer handler as Lambda's event source mapping does: records of one batch in
 * one invocation, successful ones deleted, `batchItemFailures` left on the queue (redelivered, then moved
 * to the dead-letter queue by the queue's redrive policy), and a thrown error failing the whole batch.
 *
 * Batches run concurrently, up to `maxConcurrentBatches` per queue, and every poll starts again from the
 * first queue: a batch whose records hang holds only itself, and a rush job waits for no standard one.
 */
export const startPoller = (options: PollerOptions): Poller => {
  let running = true;
  let wake: (() => void) | undefined;
  const idleWaiters: (() => void)[] = [];
  const arns = new Map<string, string>();
  const limit = options.maxConcurrentBatches ?? DEFAULT_MAX_CONCURRENT_BATCHES;
  const inFlight = new Map<string, Set<Promise<void>>>(options.queues.map((q) => [q.url, new Set()]));
  const busy = () => [...inFlight.values()].reduce((n, batches) => n + batches.size, 0);
  const shortestWait = options.idleWaitMs ?? DEFAULT_IDLE_WAIT_MS;
  const longestWait = Math.max(shortestWait, options.maxIdleWaitMs ?? shortestWait);
  let idleWait = shortestWait;
  const nudge = () => {
    idleWait = shortestWait;
    wake?.();
    wake = undefined;
  };

  const arnOf = async (url: string): Promise<string> => {
    const cached = arns.get(url);
    if (cached) return cached;
    const attrs = await options.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }),
    );
    const arn = attrs.Attributes?.QueueArn ?? url;
    arns.set(url, arn);
    return arn;
  };

  const runBatch = async (queue: PolledQueue, messages: Message[]): Promise<void> => {
    const arn = await arnOf(queue.url);
    const records = messages.map((m) => toRecord(m, arn));
    let failed = new Set<string>();
    try {
      const response = await options.handler(
        { Records: records },
        lambdaContext(options.name, randomUUID(), options.timeoutMs ?? 300_000),
      );
      failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (error) {
      options.log?.({ level: 'WARN', message: `${options.name} batch failed`, error: String(error) });
      failed = new Set(records.map((r) => r.messageId));
    }
    const succeeded = messages.filter((m) => !failed.has(m.MessageId!));
    const retried = messages.filter((m) => failed.has(m.MessageId!));
    if (succeeded.length > 0) {
      await options.sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queue.url,
          Entries: succeeded.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
        }),
      );
    }
    if (retried.length > 0) {
      await options.sqs.send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: queue.url,
          Entries: retried.map((m, i) => ({
            Id: String(i),
            ReceiptHandle: m.ReceiptHandle!,
            VisibilityTimeout: options.retryVisibilitySeconds,
          })),
        }),
      );
    }
  };

  /** Starts a batch without waiting for it; the poll goes on while it runs. */
  const launch = (queue: PolledQueue, messages: Message[]) => {
    const batches = inFlight.get(queue.url)!;
    const batch = runBatch(queue, messages)
      .catch((error: unknown) =>
        options.log?.({ level: 'WARN', message: `${options.name} batch not settled`, error: String(error) }),
      )
      .finally(() => {
        batches.delete(batch);
        nudge();
      });
    batches.add(batch);
  };

  /** Takes one batch from the first queue that has messages and a free slot; false when there is none. */
  const pollOnce = async (): Promise<boolean> => {
    if (busy() >= (options.maxTotalBatches ?? Number.POSITIVE_INFINITY)) return false;
    for (const queue of options.queues) {
      if (inFlight.get(queue.url)!.size >= (queue.maxConcurrentBatches ?? limit)) continue;
      const received = await options.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queue.url,
          MaxNumberOfMessages: queue.batchSize,
          WaitTimeSeconds: 0,
          MessageSystemAttributeNames: ['All'],
        }),
      );
      const messages = received.Messages ?? [];
      if (messages.length > 0) {
        launch(queue, messages);
        return true;
      }
    }
    return false;
  };

  const loop = (async () => {
    while (running) {
      let worked = false;
      try {
        worked = await pollOnce();
      } catch (error) {
        options.log?.({ level: 'WARN', message: `${options.name} poll failed`, error: String(error) });
      }
      if (worked) idleWait = shortestWait;
      else {
        if (busy() === 0) for (const resolve of idleWaiters.splice(0)) resolve();
        // Nothing to take (or no free slot): wait for a batch to finish or a nudge, or poll again after the
        // idle wait, which grows while nothing comes.
        const wait = idleWait;
        idleWait = Math.min(longestWait, idleWait * 2);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, wait).unref();
        });
      }
    }
  })();

  return {
    stop: async () => {
      running = false;
      nudge();
      await loop;
      const batches = [...inFlight.values()].flatMap((set) => [...set]);
      if (batches.length === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(batches),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, options.stopGraceMs ?? 5_000);
        }),
      ]);
      clearTimeout(timer);
    },
    idle: () => new Promise<void>((resolve) => idleWaiters.push(resolve)),
    nudge,
  };
};
