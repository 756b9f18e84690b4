import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { ConsumerWorkerData, FromConsumer, ToConsumer } from './consumer-worker';

export interface ConsumerPoolOptions extends ConsumerWorkerData {
  /** At most this many threads (Lambda's environments). */
  readonly threads: number;
  /**
   * Batches one thread runs at once: 1 where a batch may take a thread's whole CPU for a while (a job
   * parsing a large source), so that it holds no other; more where a batch only waits (callbacks).
   */
  readonly batchesPerThread: number;
  /**
   * V8's semi-space of each thread in MB (lib/resources.ts CONSUMER_SEMI_SPACE_MB): its young generation is
   * three of them, as with --max-semi-space-size in AWS. Unset: V8's default for a thread.
   */
  readonly semiSpaceMb?: number;
  /** A thread idle this long is ended (the first one is kept), as Lambda retires idle environments. */
  readonly idleMs?: number;
  readonly log?: (line: Record<string, unknown>) => void;
}

export interface ConsumerPool {
  /** Resolves once the first thread has loaded the handler (start-up fails with the cause otherwise). */
  readonly ready: Promise<void>;
  /** Batches the pool runs at once: the poller receives no more than this. */
  readonly capacity: number;
  /**
   * Runs a batch in a thread and resolves with the handler's response. Rejects when the handler threw, or
   * when the thread died meanwhile (then every batch it held rejects at once): the poller gives their
   * messages back to the queue straight away, and the next batch gets a new thread.
   */
  invoke(event: SQSEvent, timeoutMs: number): Promise<SQSBatchResponse | undefined>;
  /** Threads running now (tests). */
  readonly size: () => number;
  stop(): Promise<void>;
}

/** A thread died with batches in hand: they failed whole, and their messages are given back. */
export class ConsumerThreadDiedError extends Error {
  constructor(name: string, cause: string) {
    super(`the ${name} thread died: ${cause}`);
    this.name = 'ConsumerThreadDiedError';
  }
}

const WORKER = pathToFileURL(path.join(process.cwd(), 'lib', 'local', 'consumer-worker.ts')).href;
/**
 * A worker thread does not inherit the main thread's TypeScript loader (`tsx`, through `--import`) on
 * Node 20, so it registers tsx itself before it loads the TypeScript consumer.
 */
const BOOT = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(WORKER)}); })`;
const DEFAULT_IDLE_MS = 5 * 60_000;

interface Pending {
  readonly resolve: (response: SQSBatchResponse | undefined) => void;
  readonly reject: (error: unknown) => void;
}

interface PoolThread {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  readonly pending: Map<number, Pending>;
  idleTimer?: NodeJS.Timeout;
  dead: boolean;
}

/**
 * Runs one queue consumer's handler in worker threads, off the event loop that serves the API and the
 * emulators, as Lambda runs each invocation of a function in an environment of its own: a batch goes to a
 * thread with room for it, a new thread is started when none has room (up to `threads`), and a thread
 * idle for `idleMs` is ended. A job that takes a thread's CPU for minutes (a workbook that is costly to
 * read) therefore holds only its own thread; run in the API's process, one job reading a source past 100 MB
 * took GET /v1/jobs/{id} from 7 ms to 195-251 ms at p50, in a thread 11-12 ms (bench/api-under-load.ts).
 *
 * A thread that dies (an uncaught error in a library, a crash of native code) fails every batch it held at
 * once, so that the poller gives their messages back without waiting for the visibility timeout (90
 * minutes for jobs), and later batches go to a new thread.
 */
export const startConsumerPool = (options: ConsumerPoolOptions): ConsumerPool => {
  const { log, threads: maxThreads, batchesPerThread, semiSpaceMb, name, module } = options;
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const resourceLimits =
    semiSpaceMb === undefined ? undefined : { maxYoungGenerationSizeMb: 3 * semiSpaceMb };
  const threads = new Set<PoolThread>();
  const waiting: (() => void)[] = [];
  let nextId = 0;
  let stopping = false;

  const wakeWaiting = () => waiting.shift()?.();

  /** Ends `thread` once it has been idle for `idleMs`, unless it is the last idle one (the spare). */
  const idleOthers = (thread: PoolThread) =>
    [...threads].filter((t) => t !== thread && !t.dead && t.pending.size === 0).length;
  const retire = (thread: PoolThread) => {
    clearTimeout(thread.idleTimer);
    if (stopping || thread.pending.size > 0) return;
    thread.idleTimer = setTimeout(() => {
      if (thread.pending.size > 0 || idleOthers(thread) === 0) return;
      threads.delete(thread);
      thread.dead = true;
      void thread.worker.terminate();
    }, idleMs);
    thread.idleTimer.unref();
  };

  const spawn = (): PoolThread => {
    const worker = new Worker(BOOT, {
      eval: true,
      workerData: { name, module } satisfies ConsumerWorkerData,
      ...(resourceLimits ? { resourceLimits } : {}),
    });
    const pending = new Map<number, Pending>();
    let markReady: () => void = () => undefined;
    let failStart: (error: Error) => void = () => undefined;
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failStart = reject;
    });
    // Awaited by whoever hands the thread a batch (or by the runtime's start-up, for the first thread).
    ready.catch(() => undefined);
    const thread: PoolThread = { worker, ready, pending, dead: false };
    let failure = 'it exited';
    worker.on('message', (message: FromConsumer) => {
      if (message.type === 'ready') markReady();
      else if (message.type === 'log') log?.(message.line);
      else {
        const call = pending.get(message.id);
        pending.delete(message.id);
        if (message.type === 'result') call?.resolve(message.response);
        else call?.reject(new Error(message.error));
        if (pending.size === 0) retire(thread);
        wakeWaiting();
      }
    });
    worker.on('error', (error) => {
      failure = String(error);
      log?.({ level: 'ERROR', message: `${name} thread failed`, error: failure });
    });
    worker.once('exit', (code) => {
      const held = pending.size;
      thread.dead = true;
      threads.delete(thread);
      clearTimeout(thread.idleTimer);
      failStart(new Error(`the ${name} consumer did not start: ${failure} (exit ${code})`));
      for (const call of pending.values()) call.reject(new ConsumerThreadDiedError(name, failure));
      pending.clear();
      if (held > 0 && !stopping) {
        log?.({
          level: 'WARN',
          message: `${name} thread exited (${code}) holding ${held} batches: their messages are given back now, and a new thread takes the next batch`,
        });
      }
      wakeWaiting();
    });
    threads.add(thread);
    return thread;
  };

  /**
   * A thread takes a couple of seconds of CPU to load a handler (the job worker's modules): one idle thread
   * is kept loaded, so that the next batch does not wait for that (a thread started while the others are
   * busy, as Lambda's provisioned concurrency keeps an environment warm).
   */
  const keepSpare = () => {
    if (stopping || threads.size >= maxThreads) return;
    if ([...threads].some((t) => !t.dead && t.pending.size === 0)) return;
    spawn();
  };

  /**
   * Takes room for batch `id` in a thread: a running one with room, else a new one, else it waits for room.
   * The room is taken (`call` in its pending batches) before anything is awaited, so that no two batches
   * are given the same room.
   */
  const place = async (id: number, call: Pending): Promise<PoolThread> => {
    for (;;) {
      if (stopping) throw new Error(`the ${name} consumer is stopping`);
      const open = [...threads].filter((t) => !t.dead && t.pending.size < batchesPerThread);
      // The busiest thread with room: idle threads stay idle, and retire.
      open.sort((a, b) => b.pending.size - a.pending.size);
      const thread = open[0] ?? (threads.size < maxThreads ? spawn() : undefined);
      if (thread) {
        clearTimeout(thread.idleTimer);
        thread.pending.set(id, call);
        keepSpare();
        return thread;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };

  const first = spawn();

  return {
    ready: first.ready,
    capacity: maxThreads * batchesPerThread,
    size: () => threads.size,
    invoke: async (event, timeoutMs) => {
      const id = nextId++;
      let call: Pending = { resolve: () => undefined, reject: () => undefined };
      const result = new Promise<SQSBatchResponse | undefined>((resolve, reject) => {
        call = { resolve, reject };
      });
      // Awaited below, unless the thread fails first: then that failure is the answer.
      result.catch(() => undefined);
      const thread = await place(id, call);
      try {
        await thread.ready;
      } catch (error) {
        thread.pending.delete(id);
        throw error;
      }
      if (thread.dead) throw new ConsumerThreadDiedError(name, 'it exited before the batch reached it');
      thread.worker.postMessage({
        type: 'invoke',
        id,
        event,
        requestId: randomUUID(),
        timeoutMs,
      } satisfies ToConsumer);
      return result;
    },
    stop: async () => {
      // The poller has stopped and waited for its batches; what still runs is ended with its thread.
      stopping = true;
      for (const resolve of waiting.splice(0)) resolve();
      await Promise.all([...threads].map((t) => t.worker.terminate()));
    },
  };
};
