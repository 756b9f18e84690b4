/**
 * The one description of the service's resources: table keys and indexes, queues and their redrive
 * settings, buckets, functions and routes. Read by the CDK stacks (lib/aws) and by the local runtime
 * (lib/local), so both deployments create exactly the same things.
 */
import type { Scope } from '../lambdas/core/auth';

/** What an index carries besides its keys and the table's keys: only what the queries on it read. */
export type IndexProjection =
  | { readonly type: 'KEYS_ONLY' }
  | { readonly type: 'INCLUDE'; readonly attributes: readonly string[] };

export interface IndexDefinition {
  readonly name: string;
  readonly partitionKey: string;
  readonly sortKey: string;
  readonly projection: IndexProjection;
}

export const TABLE = {
  id: 'Catalog',
  localName: 'catalog-jobs',
  partitionKey: 'PK',
  sortKey: 'SK',
  /** Epoch seconds. DynamoDB deletes expired items eventually; code always checks expiry itself. */
  ttlAttribute: 'expiresAt',
  /**
   * A record is read whole from the table (GetItem, BatchGetItem), never from an index: an index holds its
   * keys and what its queries filter on, so a transition that changes neither writes no index at all
   * (docs/scaling.md: projecting ALL made every write of a job cost its whole size once more per index).
   */
  indexes: [
    /**
     * Per-client listings: a client's jobs newest first (filtered by state and job type), the exports of one
     * job (their state says which are still waiting), a client's keys.
     */
    {
      name: 'GSI1',
      partitionKey: 'GSI1PK',
      sortKey: 'GSI1SK',
      projection: { type: 'INCLUDE', attributes: ['state', 'jobType'] },
    },
    /**
     * Sweeps: records waiting to be enqueued (outbox), open jobs by due date, the review queue. The sort
     * keys hold what the sweeps read (creation or due time, kind, client, id).
     */
    { name: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK', projection: { type: 'KEYS_ONLY' } },
    /** A job or an export by its id alone (the operations API, `npm run callbacks -- replay`). */
    { name: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK', projection: { type: 'KEYS_ONLY' } },
    /**
     * One merchant's completed jobs (client, job type and merchant_token), latest first: the previous
     * catalog a job's `results.changes` is measured against, found by one query. Sparse: only jobs with a
     * merchant_token are in it, and only once completed (the sort key is written by that transition).
     */
    { name: 'GSI4', partitionKey: 'GSI4PK', sortKey: 'GSI4SK', projection: { type: 'KEYS_ONLY' } },
  ] satisfies IndexDefinition[],
  /**
   * The outbox and the open jobs are spread over this many GSI2 partitions (`OUTBOX#0` ... `OUTBOX#3`),
   * chosen by record id; the sweeps read every one. One partition takes 1,000 writes a second; at a peak of
   * ten times 1M jobs a day each of them would take about 290 (docs/scaling.md).
   */
  sweepShards: 4,
  /**
   * On-demand maximum throughput of the table and of each index: a ceiling against runaway loops, set where
   * a new on-demand table starts (4,000 writes, 12,000 reads a second) and above the peak of 1M jobs a day
   * at ten times the average, about 1,900 write and 1,500 read units a second (docs/scaling.md). The
   * earlier 1,000 writes throttled that peak. Context catalogJobs:maxWriteRequestUnits / maxReadRequestUnits.
   */
  maxThroughput: { readRequestUnits: 12_000, writeRequestUnits: 4_000 },
} as const;

export type ConsumerName = 'job-worker' | 'export-worker' | 'callback-worker';

/**
 * V8's semi-space, in MB, for consumers that hold large documents: the young generation is three of them.
 * Node 24 sizes it from the machine's memory (64 MB semi-spaces, a 192 MB young generation, on a 24 GB
 * machine or in a worker thread), and a catalog build fills it: a 100,000-row menu CSV peaks at ~290 MB RSS
 * by default, ~220 MB with 16 (bench/parse-csv.ts), for no more CPU. Applied to the job worker's
 * NODE_OPTIONS in AWS (lib/aws/functions.ts nodeOptions) and to its thread locally (resourceLimits,
 * lib/local/consumer-thread.ts).
 */
export const CONSUMER_SEMI_SPACE_MB: Partial<Record<ConsumerName, number>> = { 'job-worker': 16 };

export interface QueueDefinition {
  readonly id: string;
  readonly localName: string;
  readonly consumer: ConsumerName;
  /** Lambda timeout of the consumer; the queue's visibility timeout is 6x this, as AWS advises. */
  readonly consumerTimeoutSeconds: number;
  /**
   * Records per invocation. Jobs: 1, so that each job has the consumer's memory and time limit to itself (five
   * 200,000-item jobs in one 2 GB, 900 s invocation would share both), and so has each export; callbacks
   * are short requests.
   */
  readonly batchSize: number;
  /**
   * At most this many concurrent invocations fed by the queue (the event source's maximum concurrency in AWS,
   * overridable by context; the local runtime's batches in flight). Every queue is capped, so that however
   * deep a backlog gets the consumers leave the account's concurrency to the API (docs/scaling.md).
   */
  readonly maxConcurrency: number;
  readonly maxReceiveCount: number;
  /** Lower is served first by the local runtime's poller (rush before standard). */
  readonly priority: number;
}

const queue = (
  id: string,
  localName: string,
  consumer: ConsumerName,
  settings: Pick<QueueDefinition, 'consumerTimeoutSeconds' | 'batchSize' | 'maxConcurrency'>,
  priority = 0,
): QueueDefinition => ({ id, localName, consumer, ...settings, maxReceiveCount: 5, priority });

/**
 * Concurrency caps sized in docs/scaling.md for 1M jobs and 240k exports a day with peaks of ten times the
 * average, inside the default account quota of 1,000 concurrent executions: the consumers together take at
 * most 450 (rush 200 + standard 100 + exports 100 + callbacks 50), the API keeps the rest.
 */
export const QUEUES = {
  // Lambda's longest timeout: a job fetches up to 50 sources of 100 MB and 10,000 images.
  jobsRush: queue(
    'JobsRush',
    'jobs-rush',
    'job-worker',
    { consumerTimeoutSeconds: 900, batchSize: 1, maxConcurrency: 200 },
    0,
  ),
  jobsStandard: queue(
    'JobsStandard',
    'jobs-standard',
    'job-worker',
    { consumerTimeoutSeconds: 900, batchSize: 1, maxConcurrency: 100 },
    1,
  ),
  exports: queue('Exports', 'exports', 'export-worker', {
    consumerTimeoutSeconds: 300,
    batchSize: 1,
    maxConcurrency: 100,
  }),
  callbacks: queue('Callbacks', 'callbacks', 'callback-worker', {
    consumerTimeoutSeconds: 60,
    batchSize: 10,
    maxConcurrency: 50,
  }),
} as const satisfies Record<string, QueueDefinition>;

export type QueueKey = keyof typeof QUEUES;

export const visibilityTimeoutSeconds = (q: QueueDefinition): number => q.consumerTimeoutSeconds * 6;
export const deadLetterQueueName = (q: QueueDefinition): string => `${q.localName}-dlq`;
/** Messages stay in a dead-letter queue for the SQS maximum, so an operator has time to replay them. */
export const DLQ_RETENTION_SECONDS = 14 * 24 * 3600;

export const BUCKETS = {
  uploads: { id: 'Uploads', localName: 'catalog-uploads', expireAfterDays: 7 },
  catalogs: { id: 'Catalogs', localName: 'catalog-documents', expireAfterDays: undefined },
  exports: { id: 'Exports', localName: 'catalog-exports', expireAfterDays: 30 },
} as const;

export type BucketKey = keyof typeof BUCKETS;

/** Environment variables the Lambda code reads (only in lambdas/shared/config.ts). */
export const ENV = {
  tableName: 'TABLE_NAME',
  queueUrl: {
    jobsRush: 'JOBS_RUSH_QUEUE_URL',
    jobsStandard: 'JOBS_STANDARD_QUEUE_URL',
    exports: 'EXPORTS_QUEUE_URL',
    callbacks: 'CALLBACKS_QUEUE_URL',
  } satisfies Record<QueueKey, string>,
  /** Callbacks that failed for good land here with their event, for `npm run callbacks -- replay`. */
  callbackDeadLetterQueueUrl: 'CALLBACKS_DLQ_URL',
  /** Comma-separated seconds between callback attempts (SPEC 6); unset: the Standard Webhooks schedule. */
  callbackRetryDelays: 'CALLBACK_RETRY_DELAYS',
  bucket: {
    uploads: 'UPLOADS_BUCKET',
    catalogs: 'CATALOGS_BUCKET',
    exports: 'EXPORTS_BUCKET',
  } satisfies Record<BucketKey, string>,
  /**
   * Set by the local runtime only: where presigned upload forms are posted (its emulation of S3's POST
   * object, lib/local/upload-form.ts). In AWS the form goes to the uploads bucket itself.
   */
  uploadFormEndpoint: 'UPLOAD_FORM_ENDPOINT',
} as const;

export interface RouteDefinition {
  readonly method: 'GET' | 'POST' | 'PUT';
  /** API Gateway resource path, relative to the stage, with `{param}` placeholders. */
  readonly path: string;
  /** File name (without extension) under lambdas/handlers/http. */
  readonly handler: string;
  readonly scope: Scope;
}

export const ROUTES: readonly RouteDefinition[] = [
  { method: 'POST', path: '/v1/jobs', handler: 'create-job', scope: 'client' },
  { method: 'GET', path: '/v1/jobs', handler: 'list-jobs', scope: 'client' },
  { method: 'GET', path: '/v1/jobs/{id}', handler: 'get-job', scope: 'client' },
  { method: 'POST', path: '/v1/jobs/{id}/cancel', handler: 'cancel-job', scope: 'client' },
  { method: 'POST', path: '/v1/data_exports', handler: 'create-export', scope: 'client' },
  { method: 'GET', path: '/v1/data_exports/{id}', handler: 'get-export', scope: 'client' },
  { method: 'POST', path: '/v1/files', handler: 'create-file', scope: 'client' },
  { method: 'GET', path: '/v1/files/{id}', handler: 'get-file', scope: 'client' },
  // The operations API (SPEC 5.4): operator keys only.
  { method: 'GET', path: '/v1/ops/jobs', handler: 'ops-list-jobs', scope: 'operator' },
  { method: 'GET', path: '/v1/ops/jobs/{id}', handler: 'ops-get-job', scope: 'operator' },
  { method: 'GET', path: '/v1/ops/jobs/{id}/sources/{n}', handler: 'ops-get-job-source', scope: 'operator' },
  { method: 'PUT', path: '/v1/ops/jobs/{id}/catalog', handler: 'ops-put-catalog', scope: 'operator' },
  { method: 'POST', path: '/v1/ops/jobs/{id}/complete', handler: 'ops-complete-job', scope: 'operator' },
  { method: 'POST', path: '/v1/ops/jobs/{id}/fail', handler: 'ops-fail-job', scope: 'operator' },
];

/** Consumers and scheduled functions (files under lambdas/handlers/queue and lambdas/handlers). */
export const RECONCILER = { handler: 'reconciler', scheduleMinutes: 5 } as const;
