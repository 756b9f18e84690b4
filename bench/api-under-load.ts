/**
 * API latency while a job reads (and refuses) a source over 100 MB (issue 10, SPEC 9: "no request can stop
 * or slow the service for others").
 *
 *   npx tsx bench/api-under-load.ts [megabytes]      default 150: the source streams that much, chunked
 *   BENCH_SERVICE_DIR=../before npx tsx bench/api-under-load.ts    the same client, another checkout's service
 *
 * `npm start` (bin/local.ts) runs as a child process, as a developer runs it; this process is the client
 * and the merchant's file server. It measures GET /v1/jobs/{id} (p50, p95) twice in the same run:
 *   1. baseline: the service idle;
 *   2. under load: while the job worker reads a CSV source with no Content-Length that grows past the
 *      100 MB limit, until the job is terminal (it must fail with `source_too_large`, never complete).
 * Requests are paced below the per-client rate limit (20/s), so every one reaches the handler.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

const megabytes = Number(process.argv[2] ?? 150);
const apiKey = `cjk_live_bench${randomBytes(16).toString('hex')}`.slice(0, 41);
const PACE_MS = 60;

const startService = async (): Promise<{ url: string; child: ChildProcess }> => {
  const stateFile = path.join(mkdtempSync(path.join(tmpdir(), 'catalog-bench-')), 'runtime.json');
  // BENCH_SERVICE_DIR runs another checkout's service (e.g. the code before a change) with this client;
  // BENCH_NODE_ARGS adds Node options (e.g. --cpu-prof).
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_NODE_ARGS?.split(' ') ?? []), '--import', 'tsx', 'bin/local.ts'],
    {
      env: {
        ...process.env,
        PORT: '0',
        DEV_API_KEY: apiKey,
        LOG_REQUESTS: 'false',
        POWERTOOLS_LOG_LEVEL: 'ERROR',
        LOCAL_STATE_FILE: stateFile,
        LOCAL_DATA_DIR: path.dirname(stateFile),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: process.env.BENCH_SERVICE_DIR ?? process.cwd(),
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (m) resolve(m[1]!);
    });
  });
  return { url, child };
};

/** A merchant's server whose CSV never states its length and grows past the limit. */
const startSource = async (bytes: number): Promise<{ url: string; server: Server; sent: () => number }> => {
  let sent = 0;
  const block = Buffer.from(
    Array.from({ length: 2000 }, (_, i) => `Pizzas,Pizza number ${i},${(i % 50) + 5}.50\n`).join(''),
  );
  const server = createServer((req, res) => {
    if (req.url !== '/menu.csv') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.write('category,name,price\n');
    let thisRequest = 0;
    const pump = () => {
      while (thisRequest < bytes) {
        thisRequest += block.length;
        sent += block.length;
        if (!res.write(block)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/menu.csv`,
    server,
    sent: () => sent,
  };
};

const api = async (base: string, route: string, init: RequestInit = {}) => {
  const started = performance.now();
  const res = await fetch(`${base}${route}`, {
    ...init,
    headers: { authorization: `Token api_key=${apiKey}`, 'content-type': 'application/json' },
  });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, body, ms: performance.now() - started };
};

const createJob = async (base: string, source: string) => {
  const res = await api(base, '/v1/jobs', {
    method: 'POST',
    body: JSON.stringify({
      job: {
        job_type: 'new_menu',
        processing_type: 'rush',
        job_data: { catalog_sources: [source], merchant_name: 'Bench Diner' },
      },
    }),
  });
  if (res.status !== 201) throw new Error(`create job: ${res.status} ${JSON.stringify(res.body)}`);
  return String(res.body.id);
};

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** GETs the job every PACE_MS until `until` says stop; returns the latencies and the last body. */
const sample = async (
  base: string,
  id: string,
  until: (body: Record<string, unknown>, n: number) => boolean,
) => {
  const latencies: number[] = [];
  let body: Record<string, unknown> = {};
  for (let n = 0; ; n++) {
    const res = await api(base, `/v1/jobs/${id}`);
    if (res.status !== 200) throw new Error(`GET job: ${res.status} ${JSON.stringify(res.body)}`);
    latencies.push(res.ms);
    body = res.body;
    if (until(body, n)) break;
    await sleep(Math.max(0, PACE_MS - res.ms));
  }
  return { latencies, body };
};

const report = (label: string, latencies: number[]) =>
  `${label.padEnd(34)} n=${String(latencies.length).padStart(4)}  p50 ${percentile(latencies, 50).toFixed(1).padStart(7)} ms  p95 ${percentile(latencies, 95).toFixed(1).padStart(7)} ms  max ${Math.max(
    ...latencies,
  )
    .toFixed(1)
    .padStart(7)} ms`;

const main = async () => {
  const service = await startService();
  const source = await startSource(megabytes * 1024 * 1024);
  try {
    // Baseline: a job whose source answers 404 (it fails at once), read while nothing runs.
    const idleJob = await createJob(service.url, source.url.replace('menu.csv', 'missing.csv'));
    // Warm-up (JIT, connections), then the idle baseline.
    await sample(service.url, idleJob, (_b, n) => n >= 50);
    const idle = await sample(service.url, idleJob, (_b, n) => n >= 150);

    const started = performance.now();
    const loadedJob = await createJob(service.url, source.url);
    const loaded = await sample(service.url, loadedJob, (body) =>
      ['completed', 'failed', 'in_review', 'canceled'].includes(String(body.state)),
    );
    const seconds = (performance.now() - started) / 1000;
    const error = loaded.body.error as { code?: string } | null;
    console.log(
      `source: ${megabytes} MB per request, ${(source.sent() / 1048576).toFixed(1)} MB sent in all before the job ended`,
    );
    console.log(`job: ${loaded.body.state}${error ? ` (${error.code})` : ''} after ${seconds.toFixed(1)} s`);
    if (loaded.body.state === 'completed')
      console.log(
        `  results: ${JSON.stringify({ ...(loaded.body.results as object), warnings: undefined })}`,
      );
    console.log(report('GET /v1/jobs/{id}, idle', idle.latencies));
    console.log(report('GET /v1/jobs/{id}, while refusing', loaded.latencies));
    console.log(
      `ratio p50 loaded / idle: ${(percentile(loaded.latencies, 50) / percentile(idle.latencies, 50)).toFixed(2)}`,
    );
  } finally {
    source.server.closeAllConnections();
    source.server.close();
    service.child.kill('SIGTERM');
  }
};

await main();
