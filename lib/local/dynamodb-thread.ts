/**
 * The body of the DynamoDB emulator's thread (see dynamodb-emulator.ts): dynalite on 127.0.0.1, its LevelDB
 * store at `path` (in memory without one). dynalite throws, outside any callback it could answer from, the
 * error of a store write that failed (a full disk: LEVEL_IO_ERROR), and LevelDB refuses every write after
 * one such failure until it is opened again: in its own thread, that ends this thread only, and the emulator
 * starts a new one, which opens the store afresh.
 */
import { parentPort, workerData } from 'node:worker_threads';
import dynalite from 'dynalite';
import { closeDynaliteIterators } from './dynalite-iterators';

export interface DynamoThreadData {
  /** LevelDB directory; in memory when absent. */
  readonly path?: string;
  /** Port to listen on (0: any free one). */
  readonly port: number;
  /** Take any free port when `port` is taken (the first start; a restart must keep its port). */
  readonly anyPortIfTaken: boolean;
}

export type FromDynamoThread =
  | { readonly type: 'listening'; readonly port: number }
  | { readonly type: 'failed'; readonly error: string };
export type ToDynamoThread = { readonly type: 'stop' };

const port = parentPort;
if (port) {
  const data = workerData as DynamoThreadData;
  closeDynaliteIterators();
  const server = dynalite({
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
    ...(data.path ? { path: data.path } : {}),
  });
  const listen = (at: number) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' && at !== 0 && data.anyPortIfTaken) return listen(0);
      port.postMessage({ type: 'failed', error: String(error) } satisfies FromDynamoThread);
      process.exit(1);
    });
    server.listen(at, '127.0.0.1', () => {
      server.removeAllListeners('error');
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : at;
      port.postMessage({ type: 'listening', port: bound } satisfies FromDynamoThread);
    });
  };
  listen(data.port);
  port.on('message', (message: ToDynamoThread) => {
    if (message.type === 'stop') server.close(() => process.exit(0));
  });
}
