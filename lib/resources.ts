/**
 * The one description of the service's resources: table keys and indexes, queues and their redrive
 * settings, buckets, functions and routes. Read by the CDK stacks (lib/aws) and by the local runtime
 * (lib/local), so both deployments create exactly the same things.
 */
import type { Scope } from '../lambdas/core/auth';

export interface IndexDefinition {
  readonly name: string;
  readonly partitionKey: string;
  readonly sortKey: string;
}

export const TABLE = {
  id: 'Catalog',
  localName: 'catalog-jobs',
  partitionKey: 'PK',
  sortKey: 'SK',
  /** Epoch seconds. DynamoDB deletes expired items eventually; code always checks expiry itself. */
  ttlAttribute: 'expiresAt',
  indexes: [
    /** Per-client listings: a client's jobs newest first, the exports of one job, a client's keys. */
    { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    /** Sweeps: records waiting to be enqueued (outbox), open jobs by due date, the review queue. */
    { name: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
    /** A job by its id alone, for the operations API (operators work across clients). */
    { name: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK' },
  ] satisfies IndexDefinition[],
} as const;

export type ConsumerName = 'job-worker' | 'export-worker' | 'callback-worker';

export interface QueueDefinition {
  readonly id: string;
  readonly localName: string;
  readonly consumer: ConsumerName;
  /** Lambda timeout of the consumer; the queue's visibility timeout is 6x this, as AWS advises. */
  readonly consumerTimeoutSeconds: number;
  readonly batchSize: number;
  readonly maxReceiveCount: number;
  /** Lower is served first by the local runtime's poller (rush before standard). */
  readonly priority: number;
}

const queue = (
  id: string,
  localName: string,
  consumer: ConsumerName,
  consumerTimeoutSeconds: number,
  priority = 0,
): QueueDefinition => ({
  id,
  localName,
  consumer,
  consumerTimeoutSeconds,
  batchSize: 5,
  maxReceiveCount: 5,
  priority,
});

export const QUEUES = {
  // Lambda's longest timeout: a job fetches up to 50 sources of 100 MB and 10,000 images.
  jobsRush: queue('JobsRush', 'jobs-rush', 'job-worker', 900, 0),
  jobsStandard: queue('JobsStandard', 'jobs-standard', 'job-worker', 900, 1),
  exports: queue('Exports', 'exports', 'export-worker', 300),
  callbacks: queue('Callbacks', 'callbacks', 'callback-worker', 60),
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
