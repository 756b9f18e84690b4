import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The test process's environment without any service configuration (the integration set-up exports the
 * emulators' TABLE_NAME, queue URLs and endpoints), so that the child service and `npm run keys` use only
 * their own.
 */
const cleanEnv = (): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (/(_QUEUE_URL|_DLQ_URL|_BUCKET)$/.test(k) || k === 'TABLE_NAME' || k.startsWith('AWS_ENDPOINT_URL'))
      continue;
    if (k.startsWith('LOCAL_') || k.startsWith('DEV_') || k === 'PORT') continue;
    env[k] = v;
  }
  return env;
};

/** A response body as a client reads it: untyped JSON. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies, as a client does
export type Json = any;

export interface LocalService {
  readonly url: string;
  readonly apiKey: string;
  /** The seeded dev client's webhook signing secret. */
  readonly webhookSecret: string;
  /** Everything the service printed (stdout and stderr), line by line. */
  readonly output: string[];
  /** Where it keeps its state (LOCAL_DATA_DIR). */
  readonly dataDir: string;
  /** The process id of the child (node running bin/local.ts, or npm when started through npm). */
  readonly pid: number;
  /** Environment under which `npm run keys` reaches this instance (and not a developer's own). */
  readonly keysEnv: Record<string, string>;
  request(
    path: string,
    init?: RequestInit & { key?: string | null },
  ): Promise<{ status: number; headers: Headers; json: Json }>;
  /** SIGTERM, as Ctrl-C would; resolves once the process has exited. Removes a data directory it made. */
  stop(): Promise<void>;
  /** SIGKILL to the whole process group (npm, tsx, node), as a crash would; resolves once all have exited. */
  kill(): Promise<void>;
}

export interface StartOptions {
  /** A data directory to use (and keep); by default a fresh temporary one, removed by stop(). */
  readonly dataDir?: string;
  /** Arguments for bin/local.ts (e.g. `--reset`). */
  readonly args?: readonly string[];
  /** Start it as `npm start` does (npm, then tsx, on the PATH npm gives scripts) rather than node directly. */
  readonly viaNpm?: boolean;
}

/**
 * One request on a connection of its own, closed after the answer. fetch's shared pool keeps sockets alive and
 * hands one out again after the test process stalled (Jest compiling a module, a loaded machine) past the
 * gateway's keep-alive idle time: the server has closed it, and the request fails with "other side closed"
 * although nothing is wrong with the service. A fresh connection per request has no such race.
 */
const requestOnce = (
  target: string,
  method: string,
  headers: Headers,
  body: RequestInit['body'],
  signal: AbortSignal | null | undefined,
): Promise<{ status: number; headers: Headers; text: string }> => {
  let payload: Buffer | undefined;
  if (body === undefined || body === null) payload = undefined;
  else if (typeof body === 'string') payload = Buffer.from(body);
  else if (body instanceof Uint8Array) payload = Buffer.from(body);
  else if (body instanceof ArrayBuffer) payload = Buffer.from(new Uint8Array(body));
  else throw new TypeError('local-service request: body must be a string or bytes');
  const outgoing: Record<string, string> = { connection: 'close' };
  headers.forEach((value, name) => {
    outgoing[name] = value;
  });
  if (payload) outgoing['content-length'] = String(payload.length);
  return new Promise((resolve, reject) => {
    const req = http.request(
      target,
      { method, headers: outgoing, agent: false, signal: signal ?? undefined },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined) continue;
            for (const one of Array.isArray(value) ? value : [value]) answer.append(name, one);
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: answer,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
};

const randomKey = () => `cjk_live_e2e${Math.random().toString(36).slice(2).padEnd(29, '0')}`.slice(0, 41);

/** Resolves when no process of the group is left (kill(-pgid, 0) fails once the last one is reaped). */
const groupGone = async (pgid: number): Promise<void> => {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`process group ${pgid} did not exit`);
};

/**
 * Starts `npm start` (bin/local.ts) as a child process on a free port, in its own process group and on its
 * own data directory, as a developer would, and waits for its "listening on" line.
 */
export const startLocalService = async (
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<LocalService> => {
  const webhookSecret =
    env.DEV_WEBHOOK_SECRET ??
    `whsec_${Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 37 + 11) % 256)).toString('base64')}`;
  const apiKey = env.DEV_API_KEY ?? randomKey();
  const scratch = mkdtempSync(path.join(tmpdir(), 'catalog-e2e-'));
  const stateFile = path.join(scratch, 'runtime.json');
  const dataDir = options.dataDir ?? path.join(scratch, 'data');
  const [command, args] = options.viaNpm
    ? ['npm', ['start', '--', ...(options.args ?? [])]]
    : [process.execPath, ['--import', 'tsx', 'bin/local.ts', ...(options.args ?? [])]];
  const child: ChildProcess = spawn(command, args, {
    cwd: process.cwd(),
    env: {
      ...cleanEnv(),
      PORT: '0',
      DEV_API_KEY: apiKey,
      DEV_WEBHOOK_SECRET: webhookSecret,
      LOG_REQUESTS: 'false',
      POWERTOOLS_LOG_LEVEL: 'WARN',
      LOCAL_STATE_FILE: stateFile,
      LOCAL_DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const pgid = child.pid!;
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const removeScratch = () => rmSync(scratch, { recursive: true, force: true });
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start did not get ready:\n${output.join('\n')}`)),
      90_000,
    );
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output.join('\n')}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  }).catch(async (error: unknown) => {
    if (child.exitCode === null) process.kill(-pgid, 'SIGKILL');
    await groupGone(pgid);
    removeScratch();
    throw error;
  });
  // A service that dies mid-test would otherwise show only as "fetch failed": say why it died.
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping)
      console.error(`npm start exited (${code ?? signal}) during the test:\n${output.slice(-40).join('\n')}`);
  });
  const cleanUp = () => {
    if (options.dataDir) rmSync(stateFile, { force: true });
    removeScratch();
  };
  return {
    url,
    apiKey,
    webhookSecret,
    output,
    dataDir,
    pid: pgid,
    keysEnv: { ...cleanEnv(), LOCAL_STATE_FILE: stateFile },
    request: async (path, init = {}) => {
      const { key = apiKey, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key !== null) headers.set('authorization', `Token api_key=${key}`);
      if (rest.body !== undefined && !headers.has('content-type'))
        headers.set('content-type', 'application/json');
      const res = await requestOnce(`${url}${path}`, rest.method ?? 'GET', headers, rest.body, rest.signal);
      return { status: res.status, headers: res.headers, json: res.text ? JSON.parse(res.text) : null };
    },
    stop: async () => {
      stopping = true;
      // npm start: npm passes the signal on to its script; directly: the service itself.
      if (child.exitCode === null && child.signalCode === null) process.kill(-pgid, 'SIGTERM');
      await exited;
      await groupGone(pgid);
      cleanUp();
    },
    kill: async () => {
      stopping = true;
      process.kill(-pgid, 'SIGKILL');
      await exited;
      await groupGone(pgid);
      cleanUp();
    },
  };
};
