import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BucketKey } from '../../lib/resources';
import { DynamoCredentialRepository } from '../adapters/dynamo-credential-repository';
import { DynamoDocumentTable } from '../adapters/dynamo-document';
import { DynamoExportRepository } from '../adapters/dynamo-export-repository';
import { DynamoFileRepository } from '../adapters/dynamo-file-repository';
import { DynamoIdempotencyStore } from '../adapters/dynamo-idempotency-store';
import { DynamoJobRepository } from '../adapters/dynamo-job-repository';
import { documentClient } from '../adapters/dynamo-marshalling';
import { DynamoOutboxReader } from '../adapters/dynamo-outbox-reader';
import type { TableContext } from '../adapters/dynamo-table';
import { GuardedHttp } from '../adapters/guarded-http';
import { S3ObjectStore } from '../adapters/s3-object-store';
import { SqsWorkQueue } from '../adapters/sqs-work-queue';
import type { Clock, IdGenerator } from '../core/ports';
import type { Config } from './config';
import type { AppDeps } from './deps';

/**
 * The parts a function is wired from, each built once per configuration (in Lambda, at the container's init:
 * lazy.ts). A handler's own module picks the parts it uses (STYLE: handlers are built from their
 * dependencies), so its bundle carries those and nothing else: the authorizer holds one DynamoDB client and
 * no SQS, no S3 and no tracer. One SDK client per service and function (DynamoDBDocumentClient, SQSClient,
 * S3Client), shared by every adapter that talks to that service.
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

/**
 * What every client is built with: the region, the emulator's endpoint locally, the credentials Lambda
 * puts in the environment (or the provider a command passes; else the SDK's own chain), the SDK's standard
 * retries (3 attempts, backoff with jitter, throttling and 5xx retried), and time limits, so that a
 * dependency that hangs costs a 503 rather than the function's whole time-out.
 */
const clientOptions = (config: Config, endpoint: string | undefined) => ({
  region: config.region,
  ...(endpoint ? { endpoint } : {}),
  ...(config.credentialSource
    ? { credentials: config.credentialSource }
    : config.credentials
      ? { credentials: config.credentials }
      : {}),
  maxAttempts: 3,
  requestHandler: { connectionTimeout: 3_000, requestTimeout: 10_000 },
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

/** The document client (dynamo-marshalling.ts): plain values in and out. */
export const dynamoDocumentClient = (config: Config): DynamoDBDocumentClient =>
  once(config, 'dynamodb', () =>
    documentClient(new DynamoDBClient(clientOptions(config, config.endpoints.dynamodb))),
  );

export const table = (config: Config): TableContext =>
  once(config, 'table', () => ({
    db: new DynamoDocumentTable(dynamoDocumentClient(config)),
    tableName: config.tableName,
  }));

export const jobRepository = (config: Config) => new DynamoJobRepository(table(config));
export const exportRepository = (config: Config) => new DynamoExportRepository(table(config));
export const fileRepository = (config: Config) => new DynamoFileRepository(table(config));
export const credentialRepository = (config: Config) => new DynamoCredentialRepository(table(config));
export const idempotencyStore = (config: Config) => new DynamoIdempotencyStore(table(config));
export const outboxReader = (config: Config) => new DynamoOutboxReader(table(config));

export const sqsClient = (config: Config): SQSClient =>
  once(config, 'sqs', () => new SQSClient(clientOptions(config, config.endpoints.sqs)));

export const workQueue = (config: Config): SqsWorkQueue =>
  once(
    config,
    'queue',
    () =>
      new SqsWorkQueue(sqsClient(config), {
        ...config.queueUrls,
        callbackDeadLetters: config.callbackDeadLetterQueueUrl,
      }),
  );

/**
 * S3 options: path-style addressing where the emulator needs it; checksums only where S3 requires them, so
 * that a presigned PUT carries no checksum of an empty body (the SDK's default computes one when it signs
 * a PutObject without its body, which S3 would then compare with the file) and a presigned GET asks for no
 * checksum mode.
 */
const s3Options = (config: Config, endpoint: string | undefined) => ({
  ...clientOptions(config, endpoint),
  forcePathStyle: config.s3ForcePathStyle,
  requestChecksumCalculation: 'WHEN_REQUIRED' as const,
  responseChecksumValidation: 'WHEN_REQUIRED' as const,
});

export const s3Client = (config: Config): S3Client =>
  once(config, 's3', () => new S3Client(s3Options(config, config.endpoints.s3)));

/**
 * The client that signs URLs for clients: the same one in AWS; locally one whose endpoint is the storage
 * front (it sends nothing: presigning is local computation).
 */
export const publicS3Client = (config: Config): S3Client =>
  config.endpoints.storage
    ? once(config, 's3:public', () => new S3Client(s3Options(config, config.endpoints.storage)))
    : s3Client(config);

/** A bucket: presigned forms, PUTs and downloads, sizes, streamed reads, writes of any size. */
export const objectStore = (
  config: Config,
  bucket: BucketKey,
  clock: Clock = systemClock,
  s3: S3Client = s3Client(config),
): S3ObjectStore =>
  new S3ObjectStore(s3, { bucket: config.buckets[bucket], publicS3: publicS3Client(config) }, clock);

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
