/**
 * `npx tsx bench/api-overhead.ts [iterations]`: what the service adds to creating a job, measured in one run
 * against the embedded emulators.
 *
 *   service   POST /v1/jobs through the local API Gateway emulation: the authorizer (GetItem of the key), the
 *             create-job handler (validation, PutItem of the job, SendMessage, UpdateItem clearing its outbox
 *             mark), as Lambda runs them, over HTTP
 *   raw3      the raw SDK calls the issue names, back to back: GetItem of the key, PutItem of the same job
 *             item, SendMessage of the same message
 *   raw4      raw3 and the UpdateItem the service makes too (the outbox mark, docs/scaling.md)
 *
 * Rounds alternate the three so that drift (GC, the emulators' growing tables) hits them alike. Prints the
 * median and mean milliseconds per create and the ratios service/raw3 and service/raw4.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, GetItemCommand, PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { marshall } from '@aws-sdk/util-dynamodb';
import { keyDigest } from '../lambdas/core/auth';
import { LOCAL_CREDENTIALS, startEmulators } from '../lib/local/emulators';
import { lambdaEnvironment, provisionAll } from '../lib/local/provision';
import { ROUTES } from '../lib/resources';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';

const iterations = Number(process.argv[2] ?? 300);
const ROUNDS = 6;
const region = 'us-east-1';

const emulators = await startEmulators();
const dynamo = new DynamoDBClient({ region, endpoint: emulators.dynamodb, credentials: LOCAL_CREDENTIALS });
const sqs = new SQSClient({ region, endpoint: emulators.aws, credentials: LOCAL_CREDENTIALS });
const s3 = new S3Client({
  region,
  endpoint: emulators.aws,
  credentials: LOCAL_CREDENTIALS,
  forcePathStyle: true,
});
const resources = await provisionAll({ dynamo, sqs, s3 });
Object.assign(process.env, {
  ALLOW_LOOPBACK_URLS: 'true',
  ...lambdaEnvironment(resources, {
    dynamodb: emulators.dynamodb,
    aws: emulators.aws,
    storage: emulators.storage.url,
  }),
});

// The handlers as the local runtime and Lambda load them (each wires its own dependencies from the env).
const { buildDeps } = await import('../lambdas/shared/deps');
const { loadConfig } = await import('../lambdas/shared/config');
const { issueKey } = await import('../lambdas/core/use-cases/credentials');
const { createApiGateway } = await import('../lib/local/api-gateway');
const createJob = (await import('../lambdas/handlers/http/create-job')).handler;
const authorizer = (await import('../lambdas/handlers/authorizer')).handler;

const issued = await issueKey(buildDeps(loadConfig(process.env)), { clientId: 'bench', scope: 'client' });
const server: Server = createApiGateway({
  routes: ROUTES.filter((r) => r.handler === 'create-job'),
  handlers: new Map([['create-job', createJob]]),
  authorizer,
  // The bench measures latency, not the per-client rate limit.
  throttle: { rateLimit: 1e9, burstLimit: 1e9 },
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const request = {
  job: {
    job_type: 'new_menu',
    processing_type: 'rush',
    job_data: {
      catalog_sources: ['https://merchant.example.com/menu.csv'],
      merchant_name: "Joe's Diner",
      merchant_address: '1 Main St, Springfield',
    },
    metadata: { store: '42' },
  },
};
const body = JSON.stringify(request);

const viaService = async (): Promise<void> => {
  const res = await fetch(`${api}/v1/jobs`, {
    method: 'POST',
    headers: { authorization: `Token api_key=${issued.api_key}`, 'content-type': 'application/json' },
    body,
  });
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
};

const keyItem = { PK: `APIKEY#${keyDigest(issued.api_key)}`, SK: `APIKEY#${keyDigest(issued.api_key)}` };

/** The item the service writes for a job (same attributes and size), and the same message. */
const jobItem = (id: string) => {
  const now = new Date().toISOString();
  return {
    PK: 'CLIENT#bench',
    SK: `JOB#${id}`,
    GSI1PK: 'CLIENT#bench#JOBS',
    GSI1SK: `${now}#${id}`,
    GSI2PK: 'OUTBOX#0',
    GSI2SK: `${now}#job#bench#${id}`,
    GSI3PK: `JOB#${id}`,
    GSI3SK: 'CLIENT#bench',
    openSortKey: `${now}#${id}`,
    reviewSortKey: `0#${now}#${id}`,
    entity: 'job',
    id,
    clientId: 'bench',
    state: 'initiated',
    version: 1,
    jobType: request.job.job_type,
    processingType: request.job.processing_type,
    jobData: { ...request.job.job_data, language: 'en_us' },
    metadata: request.job.metadata,
    results: {},
    createdAt: now,
    updatedAt: now,
    dueAt: now,
    completedAt: null,
    error: null,
  };
};

const raw = async (withOutboxClear: boolean): Promise<void> => {
  const id = randomUUID();
  const key = await dynamo.send(
    new GetItemCommand({ TableName: resources.tableName, Key: marshall(keyItem), ConsistentRead: true }),
  );
  if (!key.Item) throw new Error('no key item');
  await dynamo.send(
    new PutItemCommand({
      TableName: resources.tableName,
      Item: marshall(jobItem(id), { removeUndefinedValues: true }),
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: resources.queueUrls.jobsRush,
      MessageBody: JSON.stringify({ kind: 'job', clientId: 'bench', jobId: id }),
    }),
  );
  if (withOutboxClear) {
    await dynamo.send(
      new UpdateItemCommand({
        TableName: resources.tableName,
        Key: marshall({ PK: 'CLIENT#bench', SK: `JOB#${id}` }),
        UpdateExpression: 'SET GSI2PK = :open, GSI2SK = openSortKey',
        ConditionExpression: 'GSI2PK = :outbox',
        ExpressionAttributeValues: marshall({ ':open': 'OPEN_JOBS#0', ':outbox': 'OUTBOX#0' }),
      }),
    );
  }
};

const cases = {
  service: viaService,
  raw3: () => raw(false),
  raw4: () => raw(true),
} as const;
type Case = keyof typeof cases;

const samples: Record<Case, number[]> = { service: [], raw3: [], raw4: [] };
const time = async (name: Case, n: number, keep: boolean) => {
  for (let i = 0; i < n; i++) {
    const started = process.hrtime.bigint();
    await cases[name]();
    if (keep) samples[name].push(Number(process.hrtime.bigint() - started) / 1e6);
  }
};

for (const name of Object.keys(cases) as Case[]) await time(name, 30, false);
const perRound = Math.ceil(iterations / ROUNDS);
for (let round = 0; round < ROUNDS; round++) {
  const order = (Object.keys(cases) as Case[]).sort(() => (round % 2 === 0 ? 1 : -1));
  for (const name of order) await time(name, perRound, true);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const stats = Object.fromEntries(
  (Object.keys(samples) as Case[]).map((name) => [
    name,
    {
      medianMs: +median(samples[name]).toFixed(3),
      meanMs: +mean(samples[name]).toFixed(3),
      n: samples[name].length,
    },
  ]),
) as Record<Case, { medianMs: number; meanMs: number; n: number }>;
const report = {
  node: process.version,
  ...stats,
  ratioToRaw3: +(stats.service.medianMs / stats.raw3.medianMs).toFixed(2),
  ratioToRaw4: +(stats.service.medianMs / stats.raw4.medianMs).toFixed(2),
};
console.log(JSON.stringify(report));
console.log(
  `create-job through the service: ${stats.service.medianMs} ms median (${stats.service.meanMs} mean); ` +
    `raw SDK GetItem+PutItem+SendMessage: ${stats.raw3.medianMs} ms (${report.ratioToRaw3}x); ` +
    `with the outbox UpdateItem: ${stats.raw4.medianMs} ms (${report.ratioToRaw4}x)`,
);

await new Promise<void>((resolve) => server.close(() => resolve()));
server.closeAllConnections();
dynamo.destroy();
sqs.destroy();
await emulators.stop();
process.exit(0);
