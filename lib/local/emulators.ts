import { createServer, Server } from 'node:net';
import path from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { ChangeMessageVisibilityBatchCommand, ListQueuesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { type FauxqsServer, startFauxqs } from 'fauxqs';
import { LIMITS } from '../../lambdas/core/schemas/job';
import {
  DATA_DIR_ENTRIES,
  type DataDirLock,
  lockDataDir,
  readMeta,
  resetDataDir,
  writeMeta,
} from './data-dir';
import { type DynamoEmulator, startDynamoEmulator } from './dynamodb-emulator';
import { type StorageFront, startStorageFront } from './storage-front';

export interface EmulatorOptions {
  /** Preferred ports: taken when free, otherwise any free port. Default: the ports of the last run, else any. */
  readonly dynamodbPort?: number;
  readonly awsPort?: number;
  /**
   * Keep every table, queue, message, bucket and object on disk here (dynalite's `path`, fauxqs's
   * `dataDir`), so that a restart, or a crash, loses nothing. Without it the state lives in memory.
   */
  readonly dataDir?: string;
  /** Start from an empty data directory. */
  readonly reset?: boolean;
  /**
   * Failures of the storage front, and an emulator that had to be started again (the DynamoDB one, after a
   * store write failed), one JSON line each.
   */
  readonly log?: (line: Record<string, unknown>) => void;
}

export interface Emulators {
  /** DynamoDB-compatible endpoint (dynalite). */
  readonly dynamodb: string;
  /** SQS- and S3-compatible endpoint (fauxqs). */
  readonly aws: string;
  /**
   * The storage front (lib/local/storage-front.ts): where presigned uploads, forms and downloads point, checked
   * as S3 checks them before they reach fauxqs.
   */
  readonly storage: StorageFront;
  readonly dataDir: string | undefined;
  /**
   * Makes every in-flight message of every queue visible again and returns how many there were. Only for a
   * process that holds the data directory and has not started consuming yet: the messages a crashed
   * process had received would otherwise stay invisible for their whole visibility timeout.
   */
  releaseInFlightMessages(): Promise<number>;
  stop(): Promise<void>;
}

/** The credentials the local functions sign with (lambdaEnvironment sets them). */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;
const credentials = LOCAL_CREDENTIALS;

/** `port` if nothing listens on it (on any interface), else 0: the OS then picks a free one. */
const freeOrAny = (port: number | undefined): Promise<number> => {
  if (!port) return Promise.resolve(0);
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(0));
    probe.listen(port, '0.0.0.0', () => probe.close(() => resolve(port)));
  });
};

/**
 * fauxqs 2.x always listens on 0.0.0.0 (its `host` option only names the host in queue URLs), which would
 * put an unauthenticated S3 and SQS — merchants' files and the job queues — on every network the machine
 * is on. While it starts, a listen on the wildcard address is narrowed to loopback; nothing else listens
 * during that window in this process's start-up, and the original is put back whatever happens.
 */
const onLoopbackOnly = async <T>(start: () => Promise<T>): Promise<T> => {
  const original = Server.prototype.listen;
  const narrowed = function (this: Server, ...args: unknown[]) {
    const [first] = args;
    if (first && typeof first === 'object' && (first as { host?: string }).host === '0.0.0.0') {
      args[0] = { ...(first as object), host: '127.0.0.1' };
    }
    return (original as (...a: unknown[]) => Server).apply(this, args);
  } as typeof original;
  Server.prototype.listen = narrowed;
  try {
    return await start();
  } finally {
    Server.prototype.listen = original;
  }
};

/**
 * Starts the embedded emulators: dynalite (DynamoDB API) on 127.0.0.1 and fauxqs (SQS and S3 APIs). Both are
 * plain npm packages: no Docker, no cloud account.
 */
export const startEmulators = async (options: EmulatorOptions = {}): Promise<Emulators> => {
  const { dataDir } = options;
  let lock: DataDirLock | undefined;
  if (dataDir) {
    lock = lockDataDir(dataDir);
    if (options.reset) resetDataDir(dataDir);
  }
  const remembered = dataDir ? (readMeta(dataDir).ports ?? {}) : {};
  let dynamo: DynamoEmulator | undefined;
  let fauxqs: FauxqsServer | undefined;
  let storage: StorageFront | undefined;
  try {
    dynamo = await startDynamoEmulator({
      ...(dataDir ? { path: path.join(dataDir, DATA_DIR_ENTRIES.dynamodb) } : {}),
      port: await freeOrAny(options.dynamodbPort ?? remembered.dynamodb),
      onRestart: (reason) =>
        options.log?.({
          level: 'ERROR',
          message: 'the DynamoDB emulator stopped and is started again (requests meanwhile answer 503)',
          error: reason,
        }),
    });
    const dynamodbPort = dynamo.port;
    const awsPort = await freeOrAny(options.awsPort ?? remembered.aws);
    fauxqs = await onLoopbackOnly(() =>
      startFauxqs({
        port: awsPort,
        logger: false,
        ...(dataDir ? { dataDir: path.join(dataDir, DATA_DIR_ENTRIES.sqsS3) } : {}),
      }),
    );
    storage = await startStorageFront({
      s3: new S3Client({
        region: 'us-east-1',
        endpoint: `http://127.0.0.1:${fauxqs.port}`,
        forcePathStyle: true,
        credentials,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
      secrets: { [credentials.accessKeyId]: credentials.secretAccessKey },
      port: await freeOrAny(remembered.storage ?? remembered.uploadForm),
      maxPutBytes: LIMITS.sourceFileBytes,
      log: options.log,
    });
    if (dataDir) {
      writeMeta(dataDir, {
        ...readMeta(dataDir),
        ports: { dynamodb: dynamodbPort, aws: fauxqs.port, storage: storage.port },
      });
    }
    return emulatorsOf(dynamo, dynamodbPort, fauxqs, storage, dataDir, lock);
  } catch (error) {
    await storage?.stop().catch(() => undefined);
    await fauxqs?.stop().catch(() => undefined);
    await dynamo?.stop().catch(() => undefined);
    lock?.release();
    throw error;
  }
};

const emulatorsOf = (
  dynamo: DynamoEmulator,
  dynamodbPort: number,
  fauxqs: FauxqsServer,
  storage: StorageFront,
  dataDir: string | undefined,
  lock: DataDirLock | undefined,
): Emulators => {
  const aws = `http://127.0.0.1:${fauxqs.port}`;
  return {
    dynamodb: `http://127.0.0.1:${dynamodbPort}`,
    aws,
    storage,
    dataDir,
    releaseInFlightMessages: async () => {
      const sqs = new SQSClient({ region: 'us-east-1', endpoint: aws, credentials });
      let released = 0;
      try {
        const { QueueUrls = [] } = await sqs.send(new ListQueuesCommand({}));
        for (const url of QueueUrls) {
          const name = url.split('/').pop() ?? '';
          const handles = (fauxqs.inspectQueue(name)?.messages.inflight ?? []).map((m) => m.receiptHandle);
          for (let i = 0; i < handles.length; i += 10) {
            // One second, not zero: fauxqs 2.4 fails to persist a change to 0 (a NOT NULL constraint) after
            // having applied it in memory. The message is visible again a second later.
            const entries = handles
              .slice(i, i + 10)
              .map((ReceiptHandle, n) => ({ Id: String(n), ReceiptHandle, VisibilityTimeout: 1 }));
            const { Failed = [] } = await sqs.send(
              new ChangeMessageVisibilityBatchCommand({ QueueUrl: url, Entries: entries }),
            );
            if (Failed.length > 0) {
              throw new Error(`could not release in-flight messages of ${name}: ${Failed[0]?.Message}`);
            }
            released += entries.length;
          }
        }
      } finally {
        sqs.destroy();
      }
      return released;
    },
    stop: async () => {
      try {
        await storage.stop();
        await fauxqs.stop();
        await dynamo.stop();
      } finally {
        lock?.release();
      }
    },
  };
};
