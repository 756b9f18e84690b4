import type { Logger } from '@aws-lambda-powertools/logger';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import type { ImageDecoder, PageRasterizer, TextRecognizer } from '../core/catalog';
import { DEFAULT_WEB_LIMITS, type WebSourceSettings, webUserAgent } from '../core/catalog';
import type {
  Clock,
  CredentialRepository,
  ExportRepository,
  FileRepository,
  IdempotencyStore,
  IdGenerator,
  JobRepository,
  ObjectStore,
  OutboundHttp,
  OutboxReader,
  WorkQueue,
} from '../core/ports';
import type { JobSettings } from '../core/use-cases/jobs';
import { type Config, loadConfig } from './config';
import { guardedHttp } from './outbound-wiring';
import { workQueue } from './queue-wiring';
import { tracedObjectStore } from './traced-store';
import {
  basics,
  credentialRepository,
  exportRepository,
  fileRepository,
  idempotencyStore,
  jobRepository,
  outboxReader,
  randomIds,
  systemClock,
} from './wiring';

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
  /** Bounds and User-Agent of web sources (menu pages, online stores). */
  readonly webSources: WebSourceSettings;
  /**
   * OCR of photographed menus and scanned PDF pages (SPEC 5.2 drafts), and the drawing of scanned pages:
   * only the job worker has them (shared/drafting.ts), so that no other bundle carries pdf.js.
   */
  readonly recognizer?: TextRecognizer;
  readonly rasterizer?: PageRasterizer;
  readonly decoder?: ImageDecoder;
}

/**
 * Everything, for the programs that use every part (the local runtime's start-up, the integration tests, the
 * benches, the operator commands). A Lambda function is wired from the parts its handler uses (wiring.ts),
 * never from this.
 */
export const buildDeps = (config: Config, overrides: Partial<AppDeps> = {}): AppDeps => {
  const clock = overrides.clock ?? systemClock;
  const { logger: log, metrics: meter } = basics(config);
  return {
    jobs: jobRepository(config),
    exports: exportRepository(config),
    files: fileRepository(config),
    credentials: credentialRepository(config),
    idempotency: idempotencyStore(config),
    outbox: outboxReader(config),
    queue: workQueue(config),
    uploads: tracedObjectStore(config, 'uploads', clock),
    catalogs: tracedObjectStore(config, 'catalogs', clock),
    exportFiles: tracedObjectStore(config, 'exports', clock),
    http: guardedHttp(config),
    retryDelays: config.callbackRetryDelays,
    clock,
    ids: randomIds,
    logger: log,
    metrics: meter,
    jobSettings: config.jobSettings,
    allowHttpCallbacks: config.allowHttpCallbacks,
    allowLoopbackUrls: config.allowLoopbackUrls,
    webSources: { limits: DEFAULT_WEB_LIMITS, userAgent: webUserAgent(config.webContactUrl) },
    ...overrides,
  };
};

let cached: AppDeps | undefined;

/** The process's dependencies, built on first use from process.env. */
export const defaultDeps = (): AppDeps => {
  cached ??= buildDeps(loadConfig(process.env));
  return cached;
};
