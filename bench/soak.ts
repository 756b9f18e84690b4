/**
 * A soak of `npm start` under steady load from several clients (issue 25): does the service's memory stay
 * flat, and its latency with it?
 *
 *   npx tsx bench/soak.ts [minutes] [clients]        default 20 minutes, 4 clients
 *   BENCH_SERVICE_DIR=../before npx tsx bench/soak.ts 20 4    the same load against another checkout
 *
 * The service (bin/local.ts) runs as a child process on a fresh data directory; this process is the
 * merchants' file server, the callback receiver and the clients. Each client has a key of its own
 * (`npm run keys -- create`) and loops: create a job (with an Idempotency-Key) from a served CSV menu,
 * poll it to its end, export it with a callback, poll the export, download the file, list its jobs; paced
 * to stay under the per-client rate limit. Every minute it prints the service process's RSS (VmRSS of the
 * node process running bin/local.ts, worker threads included), the p50 and p99 of every API request made in
 * that minute, and how many jobs and exports finished; at the end, the RSS from minute 5 to the last minute.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const minutes = Number(process.argv[2] ?? 20);
const clientCount = Number(process.argv[3] ?? 4);
if (!(minutes > 0) || !(clientCount > 0)) {
  console.error('usage: npx tsx bench/soak.ts [minutes] [clients]');
  process.exit(2);
}
const serviceDir = process.env.BENCH_SERVICE_DIR ?? process.cwd();
const scratch = mkdtempSync(path.join(tmpdir(), 'catalog-soak-'));
const stateFile = path.join(scratch, 'runtime.json');
const devKey = `cjk_live_soak${randomBytes(16).toString('hex')}`.slice(0, 41);
/** Below the per-client 20 requests a second, with room for the polls of one loop. */
const PACE_MS = 150;

const serviceEnv = {
  ...process.env,
  PORT: '0',
  DEV_API_KEY: devKey,
  LOG_REQUESTS: 'false',
  POWERTOOLS_LOG_LEVEL: 'ERROR',
  LOCAL_STATE_FILE: stateFile,
  LOCAL_DATA_DIR: path.join(scratch, 'data'),
  CALLBACK_RETRY_DELAYS: '1,1,1',
};

const startService = async (): Promise<{ url: string; child: ChildProcess }> => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
    env: serviceEnv,
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: serviceDir,
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (m) resolve(m[1]!);
    });
  });
  return { url, child };
};

/** VmRSS of a process in MB (Linux), worker threads included: they share its address space. */
const rssMb = (pid: number): number => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
};

/** A menu of 300 dishes in 10 categories, with sizes on some: a few hundred rows of ordinary work. */
const MENU = [
  'category,name,description,price,size',
  ...Array.from({ length: 300 }, (_, i) => {
    const sized = i % 7 === 0;
    const price = `${(i % 40) + 4}.${String((i * 13) % 100).padStart(2, '0')}`;
    return `Section ${i % 10},Dish ${i},"House dish number ${i}, made fresh",${price},${sized ? 'Large' : ''}`;
  }),
].join('\n');

const startMerchant = async (): Promise<{ base: string; server: Server; callbacks: () => number }> => {
  let callbacks = 0;
  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url?.startsWith('/hooks/')) {
      req.resume();
      req.on('end', () => {
        callbacks++;
        res.writeHead(204).end();
      });
      return;
    }
    if (req.url?.startsWith('/menu.csv')) {
      res.writeHead(200, { 'content-type': 'text/csv' });
      return void res.end(MENU);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    callbacks: () => callbacks,
  };
};

interface Sample {
  readonly at: number;
  readonly ms: number;
  readonly status: number;
}

const samples: Sample[] = [];
const finished = { jobs: 0, exports: 0, errors: 0 };

const call = async (base: string, key: string, route: string, init: RequestInit = {}) => {
  const started = performance.now();
  const res = await fetch(`${base}${route}`, {
    ...init,
    headers: {
      authorization: `Token api_key=${key}`,
      'content-type': 'application/json',
      ...(init.headers as Record<string, string> | undefined),
    },
  });
  const text = await res.text();
  const ms = performance.now() - started;
  samples.push({ at: Date.now(), ms, status: res.status });
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const TERMINAL = new Set(['completed', 'failed', 'in_review', 'canceled']);

/** One client's loop: job, export with a callback, download, listing; until `deadline`. */
const client = async (base: string, key: string, merchant: string, index: number, deadline: number) => {
  while (Date.now() < deadline) {
    try {
      const created = await call(base, key, '/v1/jobs', {
        method: 'POST',
        headers: { 'idempotency-key': randomUUID() },
        body: JSON.stringify({
          job: {
            job_type: 'new_menu',
            processing_type: index % 2 === 0 ? 'rush' : 'standard',
            job_data: {
              catalog_sources: [`${merchant}/menu.csv?c=${index}`],
              merchant_name: `Soak ${index}`,
            },
          },
        }),
      });
      if (created.status !== 201) throw new Error(`create job: ${created.status}`);
      const jobId = String(created.body.id);
      let state = 'initiated';
      while (!TERMINAL.has(state) && Date.now() < deadline + 60_000) {
        await sleep(PACE_MS);
        state = String((await call(base, key, `/v1/jobs/${jobId}`)).body.state);
      }
      if (state !== 'completed') throw new Error(`job ended ${state}`);
      finished.jobs++;
      const exp = await call(base, key, '/v1/data_exports', {
        method: 'POST',
        body: JSON.stringify({ id: jobId, type: 'catalog', callback_url: `${merchant}/hooks/${index}` }),
      });
      if (exp.status !== 201) throw new Error(`create export: ${exp.status}`);
      let body: Record<string, unknown> = exp.body;
      while (!TERMINAL.has(String(body.state)) && Date.now() < deadline + 60_000) {
        await sleep(PACE_MS);
        body = (await call(base, key, `/v1/data_exports/${String(exp.body.id)}`)).body;
      }
      if (body.state !== 'completed') throw new Error(`export ended ${String(body.state)}`);
      const file = await fetch(String(body.delivery_url));
      await file.arrayBuffer();
      if (!file.ok) throw new Error(`download: ${file.status}`);
      finished.exports++;
      await call(base, key, '/v1/jobs?limit=20');
    } catch (error) {
      finished.errors++;
      console.error(`client ${index}: ${error instanceof Error ? error.message : String(error)}`);
      await sleep(1000);
    }
  }
};

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

const createKeys = async (count: number): Promise<string[]> => {
  const run = promisify(execFile);
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'bin/keys.ts', 'create', '--client', `soak-${i}`],
      { cwd: serviceDir, env: serviceEnv },
    );
    keys.push(String((JSON.parse(stdout) as { api_key: string }).api_key));
  }
  return keys;
};

const main = async () => {
  const service = await startService();
  const merchant = await startMerchant();
  const pid = service.child.pid!;
  try {
    const keys = await createKeys(clientCount);
    const started = Date.now();
    const deadline = started + minutes * 60_000;
    console.log(
      `soak: ${minutes} min, ${clientCount} clients, service in ${serviceDir} (pid ${pid}), node ${process.version}`,
    );
    console.log('minute  rss MB  requests   p50 ms   p99 ms  jobs  exports  errors');
    const rows: { minute: number; rss: number }[] = [];
    const loops = keys.map((key, i) => client(service.url, key, merchant.base, i, deadline));
    let last = { jobs: 0, exports: 0, errors: 0 };
    for (let minute = 1; minute <= minutes; minute++) {
      await sleep(started + minute * 60_000 - Date.now());
      const since = started + (minute - 1) * 60_000;
      const window = samples.filter((s) => s.at >= since).map((s) => s.ms);
      samples.splice(0, samples.length);
      const rss = rssMb(pid);
      rows.push({ minute, rss });
      const now = { ...finished };
      console.log(
        [
          String(minute).padStart(6),
          rss.toFixed(0).padStart(7),
          String(window.length).padStart(9),
          percentile(window, 50).toFixed(1).padStart(8),
          percentile(window, 99).toFixed(1).padStart(8),
          String(now.jobs - last.jobs).padStart(5),
          String(now.exports - last.exports).padStart(8),
          String(now.errors - last.errors).padStart(7),
        ].join(' '),
      );
      last = now;
    }
    await Promise.all(loops);
    const from = rows.find((r) => r.minute === Math.min(5, minutes))!;
    const to = rows.at(-1)!;
    const steady = rows.filter((r) => r.minute >= from.minute).map((r) => r.rss);
    console.log(
      `RSS minute ${from.minute} → ${to.minute}: ${from.rss.toFixed(0)} → ${to.rss.toFixed(0)} MB ` +
        `(${(((to.rss - from.rss) / from.rss) * 100).toFixed(1)} %); range ${Math.min(...steady).toFixed(0)}–` +
        `${Math.max(...steady).toFixed(0)} MB; ${finished.jobs} jobs, ${finished.exports} exports, ` +
        `${merchant.callbacks()} callbacks, ${finished.errors} errors`,
    );
    // After the load: does the memory come back when the service is idle?
    await sleep(60_000);
    console.log(`idle a minute later: ${rssMb(pid).toFixed(0)} MB`);
  } finally {
    merchant.server.closeAllConnections();
    merchant.server.close();
    service.child.kill('SIGTERM');
    await new Promise((resolve) => service.child.once('exit', resolve));
    rmSync(scratch, { recursive: true, force: true });
  }
};

await main();
