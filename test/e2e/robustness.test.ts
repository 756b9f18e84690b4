import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { promisify } from 'node:util';
import { eventually } from '../helpers/factories';
import { type LocalService, startLocalService } from '../helpers/local-service';

/**
 * Issue 10 against `npm start`, as an attacker and a careless client would meet it: no request can crash,
 * stall or silently truncate the service.
 */

const run = promisify(execFile);

let service: LocalService;
let files: Server;
let filesBase: string;
const hanging = new Set<Socket>();

beforeAll(async () => {
  // A merchant's file server: /menu.csv answers; /hang/* accepts and never says a word.
  files = createServer((req, res) => {
    if (req.url?.startsWith('/hang/')) {
      hanging.add(req.socket);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.end('category,name,price\nPizza,Margherita,12.50\nDrinks,Cola,2.50\n');
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', () => resolve()));
  filesBase = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  service = await startLocalService();
}, 120_000);

afterAll(async () => {
  for (const socket of hanging) socket.destroy();
  await service?.stop();
  files?.closeAllConnections();
  await new Promise<void>((resolve) => files?.close(() => resolve()) ?? resolve());
}, 60_000);

const jobBody = (jobData: string, extra = '', processingType = 'rush') =>
  `{"job":{"job_type":"new_menu","processing_type":"${processingType}","job_data":{"catalog_sources":["${filesBase}/menu.csv"],"merchant_name":"Joe"${jobData}}${extra}}}`;

const expectProblem = (res: Awaited<ReturnType<LocalService['request']>>, status: number) => {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(res.json.request_id).toBe(res.headers.get('x-request-id'));
};

describe('npm start under hostile requests', () => {
  it('refuses client_mappings nested 1,000 deep with a 400, and keeps serving', async () => {
    const deep = `${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}`;
    const res = await service.request('/v1/jobs', {
      method: 'POST',
      body: jobBody(`,"client_mappings":${deep}`),
    });
    expectProblem(res, 400);
    expect(res.json.errors).toEqual([
      expect.objectContaining({
        pointer: expect.stringMatching(/^\/job\/job_data\/client_mappings(\/a)+$/),
        code: 'too_deep',
      }),
    ]);
    // Still alive, and still storing jobs.
    const created = await service.request('/v1/jobs', { method: 'POST', body: jobBody('') });
    expect(created.status).toBe(201);
    expect((await service.request(`/v1/jobs/${created.json.id}`)).status).toBe(200);
  });

  it('answers 4xx, never 5xx, for unsafe numbers, prototype keys and malformed paths', async () => {
    for (const number of ['12345678901234567890', '1e400']) {
      const res = await service.request('/v1/jobs', {
        method: 'POST',
        body: jobBody(`,"client_mappings":{"items":{"Cola":${number}}}`),
      });
      expectProblem(res, 400);
      expect(res.json.errors[0].pointer).toBe('/job/job_data/client_mappings/items/Cola');
    }
    const proto = await service.request('/v1/jobs', {
      method: 'POST',
      body: jobBody(',"client_mappings":{"a":{"__proto__":{"x":1}}}'),
    });
    expectProblem(proto, 400);

    const malformed = await service.request('/v1/jobs/%E0%A4%A');
    expectProblem(malformed, 400);
  });

  it('stores "constructor" keys and finds one’s own job by its id in upper case', async () => {
    const created = await service.request('/v1/jobs', {
      method: 'POST',
      body: jobBody(',"client_mappings":{"constructor":{"name":"Set"}}', ',"metadata":{"constructor":"c"}'),
    });
    expect(created.status).toBe(201);
    const read = await service.request(`/v1/jobs/${String(created.json.id).toUpperCase()}`);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({
      id: created.json.id,
      metadata: { constructor: 'c' },
      job_data: { client_mappings: { constructor: { name: 'Set' } } },
    });
  });
});

describe('npm start: a slow job holds nobody else', () => {
  it('works another client’s rush job while six jobs whose sources hang are in progress', async () => {
    const { stdout } = await run('npx', ['tsx', 'bin/keys.ts', 'create', '--client', 'e2e-fairness'], {
      env: service.keysEnv,
    });
    const other = JSON.parse(stdout.trim()) as { api_key: string };

    const stuck: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await service.request('/v1/jobs', {
        method: 'POST',
        body: jobBody('', '', 'rush').replace(`${filesBase}/menu.csv`, `${filesBase}/hang/${i}.csv`),
      });
      expect(res.status).toBe(201);
      stuck.push(res.json.id);
    }
    // All six are being fetched (their sources answer nothing) before the other client comes. Each job has a
    // thread of its own, and a thread started now loads the job worker first (a cold start, as in Lambda).
    await eventually(async () => (hanging.size >= 6 ? true : undefined), {
      timeoutMs: 60_000,
      what: 'six hanging fetches',
    });

    const rush = await service.request('/v1/jobs', { method: 'POST', body: jobBody(''), key: other.api_key });
    expect(rush.status).toBe(201);
    const done = await eventually(
      async () => {
        const res = await service.request(`/v1/jobs/${rush.json.id}`, { key: other.api_key });
        return res.json.state === 'completed' ? res.json : undefined;
      },
      { timeoutMs: 30_000, what: 'the other client’s rush job to complete' },
    );
    expect(done.results.catalog).toMatchObject({ item_count: 2 });
    // The six are still waiting on their sources: the rush job did not wait for them.
    for (const id of stuck) {
      expect((await service.request(`/v1/jobs/${id}`)).json.state).toBe('processing');
    }
  }, 120_000);
});
