import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
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
  readonly output: string[];
  /** Environment under which `npm run keys` reaches this instance (and not a developer's own). */
  readonly keysEnv: Record<string, string>;
  request(
    path: string,
    init?: RequestInit & { key?: string | null },
  ): Promise<{ status: number; headers: Headers; json: Json }>;
  stop(): Promise<void>;
}

/**
 * Starts `npm start` (bin/local.ts) as a child process on a free port, as a developer would, and waits for
 * its "listening on" line.
 */
export const startLocalService = async (env: Record<string, string> = {}): Promise<LocalService> => {
  const webhookSecret = `whsec_${Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 37 + 11) % 256)).toString('base64')}`;
  const apiKey = `cjk_live_e2e${Math.random().toString(36).slice(2).padEnd(29, '0')}`.slice(0, 41);
  const stateFile = path.join(mkdtempSync(path.join(tmpdir(), 'catalog-e2e-')), 'runtime.json');
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
    cwd: process.cwd(),
    env: {
      ...cleanEnv(),
      PORT: '0',
      DEV_API_KEY: apiKey,
      DEV_WEBHOOK_SECRET: webhookSecret,
      LOG_REQUESTS: 'false',
      POWERTOOLS_LOG_LEVEL: 'WARN',
      LOCAL_STATE_FILE: stateFile,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
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
  });
  // A service that dies mid-test would otherwise show only as "fetch failed": say why it died.
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping)
      console.error(`npm start exited (${code ?? signal}) during the test:\n${output.slice(-40).join('\n')}`);
  });
  return {
    url,
    apiKey,
    webhookSecret,
    output,
    keysEnv: { ...cleanEnv(), LOCAL_STATE_FILE: stateFile },
    request: async (path, init = {}) => {
      const { key = apiKey, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key !== null) headers.set('authorization', `Token api_key=${key}`);
      if (rest.body !== undefined && !headers.has('content-type'))
        headers.set('content-type', 'application/json');
      const res = await fetch(`${url}${path}`, { ...rest, headers });
      const text = await res.text();
      return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
    },
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
};
