/**
 * The body of a consumer thread (see consumer-pool.ts): one queue consumer's handler on an event loop of its
 * own, as a Lambda function runs in an environment of its own. It runs the batches the pool hands it and
 * answers each with the handler's partial batch response; the pool's poller owns the messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { lambdaContext } from './api-gateway';
import type { SqsHandler } from './sqs-poller';

export interface ConsumerWorkerData {
  readonly name: string;
  /** Absolute path of the handler module (exports `handler`). */
  readonly module: string;
}

export type ToConsumer = {
  readonly type: 'invoke';
  readonly id: number;
  readonly event: SQSEvent;
  readonly requestId: string;
  readonly timeoutMs: number;
};

export type FromConsumer =
  | { readonly type: 'ready' }
  | { readonly type: 'result'; readonly id: number; readonly response: SQSBatchResponse | undefined }
  | { readonly type: 'failed'; readonly id: number; readonly error: string }
  | { readonly type: 'log'; readonly line: Record<string, unknown> };

const port = parentPort;
if (port) {
  const data = workerData as ConsumerWorkerData;
  const send = (message: FromConsumer) => port.postMessage(message);
  const { handler } = (await import(data.module)) as { handler: SqsHandler };
  port.on('message', (message: ToConsumer) => {
    if (message.type !== 'invoke') return;
    const context = lambdaContext(data.name, message.requestId, message.timeoutMs);
    handler(message.event, context).then(
      (response) => send({ type: 'result', id: message.id, response: response ?? undefined }),
      (error: unknown) => send({ type: 'failed', id: message.id, error: String(error) }),
    );
  });
  send({ type: 'ready' });
}
