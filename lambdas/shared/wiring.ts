import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoCredentialRepository } from '../adapters/dynamo-credential-repository';
import { DynamoDocumentTable } from '../adapters/dynamo-document';
import { DynamoExportRepository } from '../adapters/dynamo-export-repository';
import { DynamoFileRepository } from '../adapters/dynamo-file-repository';
import { DynamoIdempotencyStore } from '../adapters/dynamo-idempotency-store';
import { DynamoJobRepository } from '../adapters/dynamo-job-repository';
import { documentClient } from '../adapters/dynamo-marshalling';
import { DynamoOutboxReader } from '../adapters/dynamo-outbox-reader';
import type { TableContext } from '../adapters/dynamo-table';
import type { Clock, IdGenerator } from '../core/ports';
import type { Config } from './config';

/**
 * The parts a function is wired from, each built once per configuration (in Lambda, at the container's init:
 * lazy.ts). A handler's own module picks the parts it uses (STYLE: handlers are built from their
 * dependencies), so its bundle carries those and nothing else. One module per service, so that importing one
 * never brings another's SDK client into a bundle: this one (the table, its repositories, logger, metrics),
 * queue-wiring.ts (SQS), storage-wiring.ts (S3), outbound-wiring.ts (the guarded HTTP client). The authorizer
 * holds one DynamoDB client and no SQS, no S3 and no tracer. One SDK client per service and function
 * (DynamoDBDocumentClient, SQSClient, S3Client), shared by every adapter that talks to that service.
 */

const built = new WeakMap<Config, Map<string, unknown>>();

/** `build()` once per configuration and part. */
export const once = <T>(config: Config, part: string, build: () => T): T => {
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
export const clientOptions = (config: Config, endpoint: string | undefined) => ({
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
