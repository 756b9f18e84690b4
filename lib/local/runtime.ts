import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { type ConsumerName, QUEUES, type QueueKey, RECONCILER, ROUTES } from '../resources';
import { type AuthorizerHandler, createApiGateway, type ProxyHandler, type StaticRoute } from './api-gateway';
import { type Emulators, startEmulators } from './emulators';
import { lambdaEnvironment, type ProvisionedResources, provisionAll } from './provision';
import { type Poller, type SqsHandler, startPoller } from './sqs-poller';

export interface LocalRuntimeOptions {
  readonly port?: number;
  readonly host?: string;
  /** Extra environment for the handlers (ALLOW_LOOPBACK_URLS, CALLBACK_RETRY_DELAYS, ...). */
  readonly env?: Record<string, string | undefined>;
  readonly devApiKey?: string;
  readonly devWebhookSecret?: string;
  readonly retryVisibilitySeconds?: number;
  readonly staticRoutes?: ReadonlyMap<string, StaticRoute>;
  /** Where `npm run keys` finds the running stack. */
  readonly stateFile?: string;
  readonly log?: (line: Record<string, unknown>) => void;
}

export interface LocalRuntime {
  readonly url: string;
  readonly emulators: Emulators;
  readonly resources: ProvisionedResources;
  readonly dev: { clientId: string; apiKey: string; webhookSecret: string; generated: boolean };
  /** Resolves once every consumer has found its queues empty (tests use it to wait for quiet). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Where the running local stack describes itself for `npm run keys` (LOCAL_STATE_FILE overrides it). */
export const DEFAULT_STATE_FILE =
  process.env.LOCAL_STATE_FILE || path.join(process.cwd(), '.local', 'runtime.json');

const handlersDir = path.join(process.cwd(), 'lambdas', 'handlers');

const importHandler = async <T>(relative: string): Promise<T> => {
  const mod = (await import(path.join(handlersDir, relative))) as { handler: T };
  return mod.handler;
};

/**
 * The whole service on one machine (SPEC 10): emulators, the resources of lib/resources.ts, the HTTP API in
 * front of the same handler modules Lambda runs, and pollers feeding the queue consumers.
 */
export const startLocalRuntime = async (options: LocalRuntimeOptions = {}): Promise<LocalRuntime> => {
  const log = options.log ?? (() => undefined);
  const emulators = await startEmulators();
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const region = 'us-east-1';
  const dynamo = new DynamoDBClient({ region, endpoint: emulators.dynamodb, credentials });
  const sqs = new SQSClient({ region, endpoint: emulators.aws, credentials });
  const s3 = new S3Client({ region, endpoint: emulators.aws, credentials, forcePathStyle: true });
  const resources = await provisionAll({ dynamo, sqs, s3 });

  // The handlers read their configuration from the environment, as in Lambda; set it before the first call.
  const env = {
    ALLOW_HTTP_CALLBACKS: 'true',
    ALLOW_LOOPBACK_URLS: 'true',
    POWERTOOLS_SERVICE_NAME: 'catalog-jobs',
    // No CloudWatch here: metrics would only be EMF lines on stdout. POWERTOOLS_METRICS_DISABLED=false shows them.
    POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED ?? 'true',
    ...lambdaEnvironment(resources, { dynamodb: emulators.dynamodb, aws: emulators.aws }),
    ...options.env,
  };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) process.env[k] = v;

  const { defaultDeps } = await import('../../lambdas/shared/deps');
  const { issueKey } = await import('../../lambdas/core/use-cases/credentials');
  const { generateApiKey, generateWebhookSecret } = await import('../../lambdas/core/auth');
  const deps = defaultDeps();

  const generated = !options.devApiKey;
  const dev = {
    clientId: 'dev',
    apiKey: options.devApiKey ?? generateApiKey('client'),
    webhookSecret: options.devWebhookSecret ?? generateWebhookSecret(),
    generated,
  };
  await issueKey(deps, {
    clientId: dev.clientId,
    scope: 'client',
    apiKey: dev.apiKey,
    webhookSecret: dev.webhookSecret,
  });

  const handlers = new Map<string, ProxyHandler>();
  for (const route of ROUTES) {
    handlers.set(route.handler, await importHandler<ProxyHandler>(`http/${route.handler}`));
  }
  const authorizer = await importHandler<AuthorizerHandler>('authorizer');

  // One poller per consumer, reading its queues in priority order (rush before standard).
  const consumers = new Map<ConsumerName, { url: string; batchSize: number; priority: number }[]>();
  for (const [key, q] of Object.entries(QUEUES) as [QueueKey, (typeof QUEUES)[QueueKey]][]) {
    const list = consumers.get(q.consumer) ?? [];
    list.push({ url: resources.queueUrls[key], batchSize: q.batchSize, priority: q.priority });
    consumers.set(q.consumer, list);
  }
  const pollers: Poller[] = [];
  for (const [consumer, queues] of consumers) {
    if (!existsSync(path.join(handlersDir, 'queue', `${consumer}.ts`))) continue;
    const handler = await importHandler<SqsHandler>(`queue/${consumer}`);
    pollers.push(
      startPoller({
        sqs,
        name: consumer,
        queues: [...queues].sort((a, b) => a.priority - b.priority),
        handler,
        retryVisibilitySeconds: options.retryVisibilitySeconds ?? 2,
        log,
      }),
    );
  }

  // The reconciler runs at start-up and then on the same schedule as in AWS.
  const reconciler = await importHandler<() => Promise<unknown>>('reconciler');
  const reconcile = () =>
    reconciler().catch((error: unknown) =>
      log({ level: 'WARN', message: 'reconcile failed', error: String(error) }),
    );
  await reconcile();
  const timer = setInterval(reconcile, RECONCILER.scheduleMinutes * 60_000);
  timer.unref();

  const server: Server = createApiGateway({
    routes: ROUTES,
    handlers,
    authorizer,
    staticRoutes: options.staticRoutes,
    log,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${address.port}`;

  const stateFile = options.stateFile ?? DEFAULT_STATE_FILE;
  await mkdir(path.dirname(stateFile), { recursive: true });
  await writeFile(
    stateFile,
    JSON.stringify(
      {
        url,
        pid: process.pid,
        dynamodbEndpoint: emulators.dynamodb,
        awsEndpoint: emulators.aws,
        tableName: resources.tableName,
        // The Lambda environment, so that operator commands (npm run callbacks) run the same code.
        env: lambdaEnvironment(resources, { dynamodb: emulators.dynamodb, aws: emulators.aws }),
      },
      null,
      2,
    ),
  );

  return {
    url,
    emulators,
    resources,
    dev,
    idle: async () => {
      await Promise.all(pollers.map((p) => p.idle()));
    },
    stop: async () => {
      clearInterval(timer);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await Promise.all(pollers.map((p) => p.stop()));
      await emulators.stop();
      await rm(stateFile, { force: true });
    },
  };
};
