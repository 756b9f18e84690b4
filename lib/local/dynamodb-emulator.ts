import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DynamoThreadData, FromDynamoThread, ToDynamoThread } from './dynamodb-thread';

export interface DynamoEmulatorOptions {
  /** LevelDB directory; in memory when absent. */
  readonly path?: string;
  /** Preferred port: taken when free, otherwise any free port. */
  readonly port: number;
  /** Told of every restart of the emulator's thread, with what ended the last one. */
  readonly onRestart?: (reason: string) => void;
}

export interface DynamoEmulator {
  readonly port: number;
  /** Threads started after the first (tests). */
  readonly restarts: () => number;
  stop(): Promise<void>;
}

const THREAD = pathToFileURL(path.join(process.cwd(), 'lib', 'local', 'dynamodb-thread.ts')).href;
const BOOT = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(THREAD)}); })`;
/** Waits before a restart: doubled after each thread that died within a minute, up to 5 s. */
const RESTART_DELAYS_MS = [100, 200, 400, 800, 1_600, 3_200, 5_000];

/**
 * The DynamoDB emulator (dynalite) in a worker thread of its own, started again on the same port whenever
 * it ends. dynalite throws the error of a store write that failed (a full disk) where nothing can catch it:
 * in the service's own thread that ended the whole process, and every request after it was refused. Here a
 * failed write ends the emulator's thread; the requests it held fail (the adapters answer 503 with
 * Retry-After, and nothing they were writing is taken as done), and a new thread opens the store again,
 * until the disk has room and it stays up.
 */
export const startDynamoEmulator = async (options: DynamoEmulatorOptions): Promise<DynamoEmulator> => {
  let stopping = false;
  let restarts = 0;
  let quickDeaths = 0;
  let current: Worker | undefined;
  let bound: number | undefined;

  const start = (port: number, first: boolean): Promise<number> =>
    new Promise((resolve, reject) => {
      const startedAt = Date.now();
      const worker = new Worker(BOOT, {
        eval: true,
        workerData: { path: options.path, port, anyPortIfTaken: first } satisfies DynamoThreadData,
      });
      current = worker;
      let failure = 'it exited';
      let listening = false;
      worker.on('message', (message: FromDynamoThread) => {
        if (message.type === 'listening') {
          listening = true;
          bound = message.port;
          resolve(message.port);
        } else failure = message.error;
      });
      worker.on('error', (error) => {
        failure = String(error);
      });
      worker.once('exit', () => {
        if (!listening && first) return reject(new Error(`the DynamoDB emulator did not start: ${failure}`));
        if (stopping) return;
        quickDeaths = Date.now() - startedAt < 60_000 ? quickDeaths + 1 : 0;
        const delay = RESTART_DELAYS_MS[Math.min(quickDeaths, RESTART_DELAYS_MS.length) - 1] ?? 0;
        options.onRestart?.(failure);
        setTimeout(() => {
          if (stopping) return;
          restarts++;
          // On the port the clients know (the first thread's, whatever it was asked for).
          start(bound ?? port, false).catch(() => undefined);
        }, delay).unref();
        if (!listening) resolve(port);
      });
    });

  const port = await start(options.port, true);
  return {
    port,
    restarts: () => restarts,
    stop: async () => {
      stopping = true;
      const worker = current;
      if (!worker) return;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage({ type: 'stop' } satisfies ToDynamoThread);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 5_000)))]);
      clearTimeout(timer);
      await worker.terminate();
    },
  };
};
