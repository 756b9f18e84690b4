import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventually } from '../helpers/factories';
import { type Json, type LocalService, startLocalService } from '../helpers/local-service';

/**
 * Issue 25, "done when": `npm start` killed with SIGKILL at random points while clients create jobs and
 * exports (with Idempotency-Keys) and while they are processed, N rounds; each client retries what got no
 * answer after the restart, as a client would. At the end: every key has exactly one record (0 lost, 0
 * duplicated) and every job and export reached its end (0 stuck).
 *
 * CHAOS_ROUNDS (default 2) and CHAOS_JOBS (jobs per round, default 4) make a longer run; CHAOS_SEED repeats
 * one (the seed is printed).
 */

jest.setTimeout(15 * 60_000);

const ROUNDS = Number(process.env.CHAOS_ROUNDS ?? 2);
const JOBS_PER_ROUND = Number(process.env.CHAOS_JOBS ?? 4);
const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** mulberry32: the kill points of a run, repeatable from its seed. */
const random = (() => {
  let state = SEED >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();

const DEV = {
  DEV_API_KEY: `cjk_live_chaos${'0'.repeat(27)}`.slice(0, 41),
  CALLBACK_RETRY_DELAYS: '1,1,1',
};

const MENU = [
  'category,name,price',
  ...Array.from({ length: 40 }, (_, i) => `Mains,Dish ${i},${i + 5}.50`),
].join('\n');

let files: Server;
let sourceUrl: string;
let dataDir: string;
const running: LocalService[] = [];

beforeAll(async () => {
  files = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.end(MENU);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', () => resolve()));
  sourceUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/menu.csv`;
  dataDir = await mkdtemp(path.join(tmpdir(), 'catalog-chaos-'));
});

afterAll(async () => {
  for (const service of running) await service.stop().catch(() => undefined);
  files?.closeAllConnections();
  await new Promise<void>((resolve) => files?.close(() => resolve()) ?? resolve());
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/**
 * The API answers before the queue consumers have loaded their handlers; the kill points are meant to fall
 * into processing too, so a round starts once they have.
 */
const start = async () => {
  const service = await startLocalService(DEV, { dataDir });
  running.push(service);
  await eventually(async () => (service.output.includes('queue consumers ready') ? true : undefined), {
    timeoutMs: 180_000,
    intervalMs: 250,
    what: 'the queue consumers to load',
  });
  return service;
};

const TERMINAL = new Set(['completed', 'failed', 'in_review', 'canceled']);

/** What a client knows of one create: its key, body, and the id once an answer said it. */
interface Create {
  readonly key: string;
  readonly route: '/v1/jobs' | '/v1/data_exports';
  readonly body: string;
  ids: Set<string>;
}

const jobBody = (key: string) =>
  JSON.stringify({
    job: {
      job_type: 'new_menu',
      processing_type: 'rush',
      job_data: { catalog_sources: [`${sourceUrl}?${key}`], merchant_name: key },
    },
  });

/** One POST; its id when the service answered one (201 created or replayed). */
const post = async (service: LocalService, create: Create): Promise<number> => {
  const res = await service.request(create.route, {
    method: 'POST',
    body: create.body,
    headers: { 'idempotency-key': create.key },
  });
  if (res.status === 201) create.ids.add(res.json.id);
  return res.status;
};

/** After a restart, a client retries until its create answers (409 while another request holds the key). */
const settle = (service: LocalService, create: Create) =>
  eventually(async () => ((await post(service, create)) === 201 ? true : undefined), {
    timeoutMs: 120_000,
    intervalMs: 500,
    what: `the create ${create.key} to answer after the restart`,
  });

/** An export's state, after the wait a 429 asks for (a client over the rate limit waits, then asks again). */
const exportState = async (service: LocalService, id: string): Promise<unknown> => {
  for (;;) {
    const res = await service.request(`/v1/data_exports/${id}`);
    if (res.status !== 429) return res.json.state;
    await new Promise((resolve) => setTimeout(resolve, 1000 * Number(res.headers.get('retry-after') ?? 1)));
  }
};

const allJobs = async (service: LocalService): Promise<Json[]> => {
  const jobs: Json[] = [];
  let cursor: string | null = null;
  do {
    const page = await service.request(
      `/v1/jobs?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    // A failed listing says why: the answer and what the service logged just before (a 500 was seen once at
    // load 17 and not reproduced since; its cause is in the service's log).
    if (page.status !== 200) {
      throw new Error(
        `GET /v1/jobs answered ${page.status}: ${JSON.stringify(page.json)}\n${service.output.slice(-40).join('\n')}`,
      );
    }
    jobs.push(...page.json.data);
    cursor = page.json.next_cursor;
  } while (cursor);
  return jobs;
};

describe(`chaos: SIGKILL at random points of create and processing (${ROUNDS} rounds, seed ${SEED})`, () => {
  it('loses nothing, duplicates nothing and leaves nothing stuck', async () => {
    const creates: Create[] = [];
    const exported = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      const service = await start();
      // What got no answer before the crash is retried first, as a client does.
      for (const create of creates) if (create.ids.size === 0) await settle(service, create);
      const inFlight: Promise<unknown>[] = [];
      for (let i = 0; i < JOBS_PER_ROUND; i++) {
        const key = `chaos-${round}-${i}`;
        const create: Create = { key, route: '/v1/jobs', body: jobBody(key), ids: new Set() };
        creates.push(create);
        inFlight.push(post(service, create).catch(() => undefined));
      }
      // Exports of the jobs that finished so far, created in the same storm.
      for (const job of await allJobs(service)) {
        if (job.state !== 'completed' || exported.has(job.id)) continue;
        exported.add(job.id);
        const create: Create = {
          key: `chaos-export-${job.id}`,
          route: '/v1/data_exports',
          body: JSON.stringify({ id: job.id, type: 'catalog' }),
          ids: new Set(),
        };
        creates.push(create);
        inFlight.push(post(service, create).catch(() => undefined));
      }
      // The kill point: anywhere from inside the creates to well into processing.
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 4000)));
      await service.kill();
      await Promise.allSettled(inFlight);
    }

    const service = await start();
    for (const create of creates) await settle(service, create);
    const jobs = await eventually(
      async () => {
        const all = await allJobs(service);
        return all.every((job) => TERMINAL.has(job.state)) ? all : undefined;
      },
      { timeoutMs: 300_000, intervalMs: 1000, what: 'every job to reach its end' },
    );
    const exports = creates.filter((c) => c.route === '/v1/data_exports');
    const exportStates = await eventually(
      async () => {
        // One at a time, as the client it plays: a longer run has dozens of exports, and asked all at once
        // every second they were over the API's rate limit (429s, which never showed a state).
        const states: unknown[] = [];
        for (const c of exports) states.push(await exportState(service, [...c.ids][0]!));
        return states.every((state) => TERMINAL.has(state as string)) ? states : undefined;
      },
      { timeoutMs: 300_000, intervalMs: 1000, what: 'every export to reach its end' },
    );

    const jobCreates = creates.filter((c) => c.route === '/v1/jobs');
    const lost = jobCreates.filter((c) => !jobs.some((job) => c.ids.has(job.id))).length;
    const duplicated =
      creates.filter((c) => c.ids.size !== 1).length +
      jobCreates.filter((c) => jobs.filter((job) => job.job_data?.merchant_name === c.key).length > 1).length;
    const stuck = [...jobs.map((job) => job.state), ...exportStates].filter(
      (state) => state !== 'completed',
    ).length;
    console.log(
      `chaos (seed ${SEED}): ${ROUNDS} rounds, ${jobCreates.length} jobs, ${exports.length} exports: ` +
        `${lost} lost, ${duplicated} duplicated, ${stuck} stuck`,
    );
    expect(jobs).toHaveLength(jobCreates.length);
    expect({ lost, duplicated, stuck }).toEqual({ lost: 0, duplicated: 0, stuck: 0 });
  });
});
