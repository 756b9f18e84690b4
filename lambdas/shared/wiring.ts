import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { BucketKey } from '../../lib/resources';
import { AwsHttp, AwsJsonApi, type CredentialSource, staticCredentials } from '../adapters/aws-http';
import { DynamoCredentialRepository } from '../adapters/dynamo-credential-repository';
import { DynamoDocumentTable } from '../adapters/dynamo-document';
import { DynamoExportRepository } from '../adapters/dynamo-export-repository';
import { DynamoFileRepository } from '../adapters/dynamo-file-repository';
import { DynamoIdempotencyStore } from '../adapters/dynamo-idempotency-store';
import { DynamoJobRepository } from '../adapters/dynamo-job-repository';
import { DynamoOutboxReader } from '../adapters/dynamo-outbox-reader';
import type { TableContext } from '../adapters/dynamo-table';
import { GuardedHttp } from '../adapters/guarded-http';
import { S3ObjectStore } from '../adapters/s3-object-store';
import { SqsWorkQueue } from '../adapters/sqs-work-queue';
import type { Clock, IdGenerator } from '../core/ports';
import type { Config } from './config';
import type { AppDeps } from './deps';

/**
 * The parts a function is wired from, each built once per configuration (a Lambda container's cold start).
 * A handler's own module picks the parts it uses (STYLE: handlers are built from their dependencies), so
 * its bundle carries those and nothing else: the authorizer reads one table item and holds no SQS, no S3
 * and no tracer. Every AWS call goes through the lean signed client (adapters/aws-http.ts); the SDK is
 * bundled only where an object of any size is written (streaming-store.ts).
 */

const built = new WeakMap<Config, Map<string, unknown>>();

const once = <T>(config: Config, part: string, build: () => T): T => {
  let parts = built.get(config);
  if (!parts) {
    parts = new Map();
    built.set(config, parts);
  }
  if (!parts.has(part)) parts.set(part, build());
  return parts.get(part) as T;
};

export const systemClock: Clock = { now: () => new Date() };
export const randomIds: IdGenerator = { uuid: () => randomUUID() };

export const credentialSource = (config: Config): CredentialSource =>
  once(config, 'credentials', () => {
    if (config.credentialSource) return config.credentialSource;
    if (config.credentials) return staticCredentials(config.credentials);
    return () =>
      Promise.reject(
        new Error('No AWS credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set'),
      );
  });

export const logger = (config: Config): Logger =>
  once(config, 'logger', () => new Logger({ serviceName: config.serviceName }));

export const metrics = (config: Config): Metrics =>
  once(
    config,
    'metrics',
    () => new Metrics({ serviceName: config.serviceName, namespace: config.metricsNamespace }),
  );

/** What every handler has: its logger and metrics, the clock and the id generator. */
export const basics = (config: Config) => ({
  logger: logger(config),
  metrics: metrics(config),
  clock: systemClock,
  ids: randomIds,
});

export const table = (config: Config): TableContext =>
  once(config, 'table', () => ({
    db: new DynamoDocumentTable(
      new AwsJsonApi(
        new AwsHttp({
          service: 'dynamodb',
          region: config.region,
          endpoint: config.endpoints.dynamodb,
          credentials: credentialSource(config),
        }),
        'DynamoDB_20120810',
      ),
    ),
    tableName: config.tableName,
  }));

export const jobRepository = (config: Config) => new DynamoJobRepository(table(config));
export const exportRepository = (config: Config) => new DynamoExportRepository(table(config));
export const fileRepository = (config: Config) => new DynamoFileRepository(table(config));
export const credentialRepository = (config: Config) => new DynamoCredentialRepository(table(config));
export const idempotencyStore = (config: Config) => new DynamoIdempotencyStore(table(config));
export const outboxReader = (config: Config) => new DynamoOutboxReader(table(config));

/** SQS's JSON API (`AmazonSQS.*`). */
export const sqsApi = (config: Config): AwsJsonApi =>
  once(
    config,
    'sqs',
    () =>
      new AwsJsonApi(
        new AwsHttp({
          service: 'sqs',
          region: config.region,
          endpoint: config.endpoints.sqs,
          credentials: credentialSource(config),
        }),
        'AmazonSQS',
      ),
  );

export const workQueue = (config: Config): SqsWorkQueue =>
  once(
    config,
    'queue',
    () =>
      new SqsWorkQueue(sqsApi(config), {
        ...config.queueUrls,
        callbackDeadLetters: config.callbackDeadLetterQueueUrl,
      }),
  );

/** A bucket: presigned forms and downloads, sizes, streamed reads, writes of objects up to 16 MiB. */
export const objectStore = (config: Config, bucket: BucketKey, clock: Clock = systemClock): S3ObjectStore =>
  once(
    config,
    `bucket:${bucket}:${clock === systemClock ? 'system' : randomUUID()}`,
    () =>
      new S3ObjectStore(
        {
          bucket: config.buckets[bucket],
          region: config.region,
          credentials: credentialSource(config),
          endpoint: config.endpoints.s3,
          pathStyle: config.s3ForcePathStyle,
          formEndpoint: config.endpoints.uploadForm,
        },
        clock,
      ),
  );

/** The operations routes that move a job (SPEC 5.4): its repository, its exports, its catalog, the queue. */
export const operationsDeps = (config: Config): OperationsRouteDeps => ({
  ...basics(config),
  jobs: jobRepository(config),
  exports: exportRepository(config),
  catalogs: objectStore(config, 'catalogs'),
  files: fileRepository(config),
  uploads: objectStore(config, 'uploads'),
  queue: workQueue(config),
});

export type OperationsRouteDeps = Pick<
  AppDeps,
  'jobs' | 'exports' | 'catalogs' | 'files' | 'uploads' | 'queue' | 'clock' | 'ids' | 'logger' | 'metrics'
>;

/**
 * The guarded outbound client of SPEC 8 for `config`: loopback allowed only where the runtime allows it,
 * and never the ports of the local runtime's own emulators (`config.endpoints`, unset in AWS).
 */
export const guardedHttp = (config: Pick<Config, 'allowLoopbackUrls' | 'endpoints'>): GuardedHttp =>
  new GuardedHttp({
    allowLoopback: config.allowLoopbackUrls,
    refusedLoopbackPorts: Object.values(config.endpoints)
      .flatMap((endpoint) => {
        try {
          return endpoint ? [new URL(endpoint)] : [];
        } catch {
          return [];
        }
      })
      .map((url) => Number(url.port || (url.protocol === 'https:' ? 443 : 80))),
  });
