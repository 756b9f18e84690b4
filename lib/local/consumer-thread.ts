import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ConsumerWorkerData, FromConsumer, ToConsumer } from './consumer-worker';
import type { Poller } from './sqs-poller';

export interface ConsumerThreadOptions extends ConsumerWorkerData {
  readonly log?: (line: Record<string, unknown>) => void;
  /** How long stop() waits for the thread to finish its batches before it is ended. */
  readonly stopTimeoutMs?: number;
  /**
   * V8's semi-space of the thread in MB (lib/resources.ts CONSUMER_SEMI_SPACE_MB): its young generation is
   * three of them, as with --max-semi-space-size in AWS. Unset: V8's default for a thread (192 MB on Node 24).
   */
  readonly semiSpaceMb?: number;
}

const WORKER = pathToFileURL(path.join(process.cwd(), 'lib', 'local', 'consumer-worker.ts')).href;
/**
 * A worker thread does not inherit the main thread's TypeScript loader (`tsx`, through `--import`) on
 * Node 20, so it registers tsx itself before it loads the TypeScript consumer.
 */
const BOOT = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(WORKER)}); })`;
const RESTART_DELAY_MS = 1_000;

export interface ConsumerThread extends Poller {
  /** Resolves once the thread has loaded its handler and polls (the first time it starts). */
  readonly ready: Promise<void>;
}

/**
 * Runs one queue consumer (handler and poller) in a worker thread of its own, off the event loop that
 * serves the API and the emulators. In AWS every Lambda function has its own process; run in the API's
 * process, one job reading a source past 100 MB took GET /v1/jobs/{id} from 7 ms to 195-251 ms at p50,
 * in a thread it stays at 11-12 ms (bench/api-under-load.ts). A thread that dies is started again, as
 * Lambda replaces a failed environment; the messages it held come back when their visibility timeout ends.
 */
export const startConsumerThread = (options: ConsumerThreadOptions): ConsumerThread => {
  const { log, stopTimeoutMs = 10_000, semiSpaceMb, ...data } = options;
  const resourceLimits =
    semiSpaceMb === undefined ? undefined : { maxYoungGenerationSizeMb: 3 * semiSpaceMb };
  let stopping = false;
  let nextId = 0;
  const idleWaiters = new Map<number, () => void>();
  let worker: Worker;
  let started = false;
  let markReady: () => void = () => undefined;
  let failStart: (error: unknown) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = () => {
      started = true;
      resolve();
    };
    failStart = reject;
  });

  const start = () => {
    worker = new Worker(BOOT, {
      eval: true,
      workerData: data satisfies ConsumerWorkerData,
      ...(resourceLimits ? { resourceLimits } : {}),
    });
    worker.on('message', (message: FromConsumer) => {
      if (message.type === 'ready') markReady();
      if (message.type === 'log') log?.(message.line);
      if (message.type === 'idle') {
        idleWaiters.get(message.id)?.();
        idleWaiters.delete(message.id);
      }
    });
    worker.on('error', (error) => {
      log?.({ level: 'ERROR', message: `${data.name} thread failed`, error: String(error) });
      // A consumer that cannot even start (its module does not load) stops the start-up with the cause.
      if (!started) failStart(new Error(`the ${data.name} consumer did not start: ${String(error)}`));
    });
    worker.on('exit', (code) => {
      if (!started)
        return failStart(new Error(`the ${data.name} consumer exited (${code}) before it started`));
      if (stopping) return;
      log?.({ level: 'WARN', message: `${data.name} thread exited (${code}); starting it again` });
      setTimeout(() => {
        if (stopping) return;
        start();
        // Whoever waited for quiet asks the new thread.
        for (const id of idleWaiters.keys()) worker.postMessage({ type: 'idle', id } satisfies ToConsumer);
      }, RESTART_DELAY_MS).unref();
    });
  };
  start();

  return {
    ready,
    idle: () =>
      new Promise<void>((resolve) => {
        const id = nextId++;
        idleWaiters.set(id, resolve);
        worker.postMessage({ type: 'idle', id } satisfies ToConsumer);
      }),
    stop: async () => {
      stopping = true;
      const current = worker;
      const stopped = new Promise<void>((resolve) => {
        current.on('message', (message: FromConsumer) => {
          if (message.type === 'stopped') resolve();
        });
        current.once('exit', () => resolve());
      });
      current.postMessage({ type: 'stop' } satisfies ToConsumer);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([stopped, new Promise((resolve) => (timer = setTimeout(resolve, stopTimeoutMs)))]);
      clearTimeout(timer);
      await current.terminate();
    },
  };
};
