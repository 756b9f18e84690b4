/**
 * The body of a consumer thread (see consumer-thread.ts): one queue consumer's handler and its poller, on
 * an event loop of their own, as a Lambda function runs in an environment of its own.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { PolledQueue, SqsHandler } from './sqs-poller';
import { startPoller } from './sqs-poller';

export interface ConsumerWorkerData {
  readonly name: string;
  /** Absolute path of the handler module (exports `handler`). */
  readonly module: string;
  readonly queues: readonly PolledQueue[];
  readonly sqsEndpoint: string;
  readonly retryVisibilitySeconds: number;
}

export type ToConsumer = { readonly type: 'idle'; readonly id: number } | { readonly type: 'stop' };
export type FromConsumer =
  | { readonly type: 'ready' }
  | { readonly type: 'idle'; readonly id: number }
  | { readonly type: 'log'; readonly line: Record<string, unknown> }
  | { readonly type: 'stopped' };

const port = parentPort;
if (port) {
  const data = workerData as ConsumerWorkerData;
  const send = (message: FromConsumer) => port.postMessage(message);
  const { handler } = (await import(data.module)) as { handler: SqsHandler };
  const poller = startPoller({
    sqs: new SQSClient({
      region: 'us-east-1',
      endpoint: data.sqsEndpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
    name: data.name,
    queues: data.queues,
    handler,
    retryVisibilitySeconds: data.retryVisibilitySeconds,
    log: (line) => send({ type: 'log', line }),
  });
  port.on('message', (message: ToConsumer) => {
    if (message.type === 'idle') void poller.idle().then(() => send({ type: 'idle', id: message.id }));
    if (message.type === 'stop') void poller.stop().then(() => send({ type: 'stopped' }));
  });
  send({ type: 'ready' });
}
