import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoCredentialRepository } from '../adapters/dynamo-credential-repository';
import { DynamoExportRepository } from '../adapters/dynamo-export-repository';
import { DynamoFileRepository } from '../adapters/dynamo-file-repository';
import { DynamoIdempotencyStore } from '../adapters/dynamo-idempotency-store';
import { DynamoJobRepository } from '../adapters/dynamo-job-repository';
import { shieldMarshalling } from '../adapters/dynamo-marshalling';
import { DynamoOutboxReader } from '../adapters/dynamo-outbox-reader';
import { GuardedHttp } from '../adapters/guarded-http';
import { S3ObjectStore } from '../adapters/s3-object-store';
import { SqsWorkQueue } from '../adapters/sqs-work-queue';
import type {
  Clock,
  CredentialRepository,
  ExportRepository,
  FileRepository,
  IdempotencyStore,
  IdGenerator,
  ImageDecoder,
  JobRepository,
  ObjectStore,
  OutboundHttp,
  OutboxReader,
  PageRasterizer,
  TextRecognizer,
  WorkQueue,
} from '../core/ports';
import type { JobSettings } from '../core/use-cases/jobs';
import { type Config, loadConfig } from './config';

/** Everything a handler needs, built once per Lambda container (or per local runtime, or per test). */
export interface AppDeps {
  readonly jobs: JobRepository;
  readonly exports: ExportRepository;
  readonly files: FileRepository;
  readonly credentials: CredentialRepository;
  readonly idempotency: IdempotencyStore;
  readonly outbox: OutboxReader;
  /** Every queue of the service (jobs, exports, callbacks and the callbacks' dead letters): one SQS adapter. */
  readonly queue: WorkQueue;
  readonly uploads: ObjectStore;
  readonly catalogs: ObjectStore;
  readonly exportFiles: ObjectStore;
  /** Every outbound request (sources, images, callbacks) goes through the guard of SPEC 8. */
  readonly http: OutboundHttp;
  readonly retryDelays: readonly number[];
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  /** CloudWatch metrics (EMF). Handlers publish what they stored at the end of each invocation. */
  readonly metrics: Metrics;
  readonly jobSettings: JobSettings;
  readonly allowHttpCallbacks: boolean;
  readonly allowLoopbackUrls: boolean;
  /**
   * OCR of photographed menus and scanned PDF pages (SPEC 5.2 drafts), and the drawing of scanned pages:
   * only the job worker has them (shared/drafting.ts), so that no other bundle carries pdf.js.
   */
  readonly recognizer?: TextRecognizer;
  readonly rasterizer?: PageRasterizer;
  readonly decoder?: ImageDecoder;
}

const systemClock: Clock = { now: () => new Date() };
const randomIds: IdGenerator = { uuid: () => randomUUID() };

/**
 * The AWS SDK clients for a configuration: the emulators locally, the real services in AWS. In Lambda every
 * SDK call is traced (X-Ray subsegments through Powertools Tracer); elsewhere the tracer is a no-op.
 */
export const awsClients = (config: Config) => {
  const tracer = new Tracer({ serviceName: config.serviceName });
  const dynamo = tracer.captureAWSv3Client(
    new DynamoDBClient({ region: config.region, endpoint: config.endpoints.dynamodb }),
  );
  return {
    dynamo,
    doc: shieldMarshalling(
      DynamoDBDocumentClient.from(dynamo, {
        marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
      }),
    ),
    sqs: tracer.captureAWSv3Client(new SQSClient({ region: config.region, endpoint: config.endpoints.sqs })),
    s3: tracer.captureAWSv3Client(
      new S3Client({
        region: config.region,
        endpoint: config.endpoints.s3,
        forcePathStyle: config.s3ForcePathStyle,
        // Otherwise presigned PUTs carry the checksum of an empty body and S3 rejects the client's upload.
        requestChecksumCalculation: 'WHEN_REQUIRED',
      }),
    ),
  };
};

export const buildDeps = (config: Config, overrides: Partial<AppDeps> = {}): AppDeps => {
  const { doc, sqs, s3 } = awsClients(config);
  const table = { doc, tableName: config.tableName };
  const clock = overrides.clock ?? systemClock;

  return {
    jobs: new DynamoJobRepository(table),
    exports: new DynamoExportRepository(table),
    files: new DynamoFileRepository(table),
    credentials: new DynamoCredentialRepository(table),
    idempotency: new DynamoIdempotencyStore(table),
    outbox: new DynamoOutboxReader(table),
    queue: new SqsWorkQueue(sqs, {
      ...config.queueUrls,
      callbackDeadLetters: config.callbackDeadLetterQueueUrl,
    }),
    uploads: new S3ObjectStore(s3, config.buckets.uploads, clock),
    catalogs: new S3ObjectStore(s3, config.buckets.catalogs, clock),
    exportFiles: new S3ObjectStore(s3, config.buckets.exports, clock),
    http: new GuardedHttp({ allowLoopback: config.allowLoopbackUrls }),
    retryDelays: config.callbackRetryDelays,
    clock,
    ids: randomIds,
    logger: new Logger({ serviceName: config.serviceName }),
    metrics: new Metrics({ serviceName: config.serviceName, namespace: config.metricsNamespace }),
    jobSettings: config.jobSettings,
    allowHttpCallbacks: config.allowHttpCallbacks,
    allowLoopbackUrls: config.allowLoopbackUrls,
    ...overrides,
  };
};

let cached: AppDeps | undefined;

/** The process's dependencies, built on first use from process.env (a Lambda container's cold start). */
export const defaultDeps = (): AppDeps => {
  cached ??= buildDeps(loadConfig(process.env));
  return cached;
};
