import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { GuardedHttp } from '../../lambdas/adapters/guarded-http';
import { makeCallbackWorkerHandler } from '../../lambdas/handlers/queue/callback-worker';
import { makeExportWorkerHandler } from '../../lambdas/handlers/queue/export-worker';
import { makeJobWorkerHandler } from '../../lambdas/handlers/queue/job-worker';
import { loadConfig } from '../../lambdas/shared/config';
import { type AppDeps, buildDeps } from '../../lambdas/shared/deps';
import { draftingAdapters } from '../../lambdas/shared/drafting';
import { createQueues } from '../../lib/local/provision';
import { type Poller, startPoller } from '../../lib/local/sqs-poller';
import { ENV, type QueueKey } from '../../lib/resources';
import { silentLogger } from './fakes';
import { sqsClient } from './integration';

export interface Pipeline {
  readonly deps: AppDeps;
  readonly deadLetterQueueUrls: Record<QueueKey, string>;
  /** The bodies waiting in a dead-letter queue (left in place). */
  deadLetters(queue: QueueKey): Promise<Record<string, unknown>[]>;
  stop(): Promise<void>;
}

/**
 * The three consumers of the service running against the emulators, on queues of this test's own (so
 * other test files' messages never reach them): job worker (rush first), export worker, callback worker.
 */
export const startPipeline = async (
  options: { env?: Record<string, string>; overrides?: Partial<AppDeps> } = {},
): Promise<Pipeline> => {
  const sqs = sqsClient();
  const { queueUrls, deadLetterQueueUrls } = await createQueues(sqs, `t${randomUUID().slice(0, 8)}-`);
  const config = loadConfig({
    ...process.env,
    [ENV.queueUrl.jobsRush]: queueUrls.jobsRush,
    [ENV.queueUrl.jobsStandard]: queueUrls.jobsStandard,
    [ENV.queueUrl.exports]: queueUrls.exports,
    [ENV.queueUrl.callbacks]: queueUrls.callbacks,
    [ENV.callbackDeadLetterQueueUrl]: deadLetterQueueUrls.callbacks,
    ALLOW_HTTP_CALLBACKS: 'true',
    ...options.env,
  });
  const deps = buildDeps(config, {
    logger: silentLogger(),
    http: new GuardedHttp({ allowLoopback: true }),
    // POST /v1/jobs refuses loopback URLs unless the runtime allows them, as the client above does.
    allowLoopbackUrls: true,
    ...options.overrides,
  });
  const common = { sqs, retryVisibilitySeconds: 0, idleWaitMs: 25 };
  const pollers: Poller[] = [
    startPoller({
      ...common,
      name: 'job-worker',
      queues: [
        { url: queueUrls.jobsRush, batchSize: 5 },
        { url: queueUrls.jobsStandard, batchSize: 5 },
      ],
      // The job worker's OCR, one engine per job, as job-worker.ts gives it in Lambda and npm start.
      handler: makeJobWorkerHandler({ drafting: () => draftingAdapters(config.moduleRoot), ...deps }),
    }),
    startPoller({
      ...common,
      name: 'export-worker',
      queues: [{ url: queueUrls.exports, batchSize: 5 }],
      handler: makeExportWorkerHandler(deps),
    }),
    startPoller({
      ...common,
      name: 'callback-worker',
      queues: [{ url: queueUrls.callbacks, batchSize: 5 }],
      handler: makeCallbackWorkerHandler(deps),
    }),
  ];
  return {
    deps,
    deadLetterQueueUrls,
    deadLetters: async (queue) => {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: deadLetterQueueUrls[queue],
          MaxNumberOfMessages: 10,
          VisibilityTimeout: 0,
        }),
      );
      return Messages.map((m) => JSON.parse(m.Body!) as Record<string, unknown>);
    },
    stop: async () => {
      await Promise.all(pollers.map((p) => p.stop()));
    },
  };
};

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export interface TestServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  stop(): Promise<void>;
}

/**
 * An HTTP server on 127.0.0.1 (the only kind of address tests may talk to): merchants' file servers,
 * image CDNs and callback receivers. `respond` sees every request with its body.
 */
export const startTestServer = async (
  respond: (req: RecordedRequest, res: ServerResponse) => void,
): Promise<TestServer> => {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      requests.push(recorded);
      respond(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
