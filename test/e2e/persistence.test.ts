import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { LAMBDA_NODE_MAJOR } from '../../lib/local/node-version';
import { eventually } from '../helpers/factories';
import { type Json, type LocalService, startLocalService } from '../helpers/local-service';
import { postUploadForm } from '../helpers/upload-form';

/**
 * SPEC 10: `npm start` keeps its state in LOCAL_DATA_DIR. A crash (SIGKILL to npm, tsx and node at once)
 * while a job is being built loses nothing: after the restart the client's key still works, the job
 * finishes (well within the 16-minute lease and the 90-minute visibility timeout a crash would otherwise
 * cost), its export downloads, and its Idempotency-Key still replays it. `--reset` forgets everything.
 */

const run = promisify(execFile);

const UPLOADED_CSV = 'category,name,price\nPizza,Margherita,12.50\nPizza,Marinara,10.00\n';
const SLOW_HEAD = 'category,name,price\nDrinks,Cola,2.50\n';
const SLOW_TAIL = 'Drinks,Lemonade,3.00\nDesserts,Tiramisu,6.50\n';

/**
 * Serves /menu.csv: the first rows at once, the rest only once `open()` is called, so that the job reading it
 * is reliably `processing` when the service is killed. Counts the requests.
 */
const slowSource = () => {
  let held: ServerResponse[] = [];
  let opened = false;
  let requests = 0;
  const server: Server = createServer((_req, res) => {
    requests++;
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.write(SLOW_HEAD);
    if (opened) res.end(SLOW_TAIL);
    else held.push(res);
  });
  return {
    server,
    requests: () => requests,
    open: () => {
      opened = true;
      for (const res of held) if (!res.destroyed) res.end(SLOW_TAIL);
      held = [];
    },
  };
};

let source: ReturnType<typeof slowSource>;
let sourceUrl: string;
let dataDir: string;
const running: LocalService[] = [];
const DEV = {
  DEV_API_KEY: `cjk_live_persist${'0'.repeat(25)}`,
  DEV_WEBHOOK_SECRET: `whsec_${'A'.repeat(43)}=`,
};

const start = async (args: string[] = []): Promise<LocalService> => {
  const service = await startLocalService(DEV, { dataDir, args, viaNpm: true });
  running.push(service);
  return service;
};

beforeAll(async () => {
  source = slowSource();
  await new Promise<void>((resolve) => source.server.listen(0, '127.0.0.1', () => resolve()));
  sourceUrl = `http://127.0.0.1:${(source.server.address() as AddressInfo).port}/menu.csv`;
  dataDir = await mkdtemp(path.join(tmpdir(), 'catalog-data-'));
});

afterAll(async () => {
  source?.open();
  for (const service of running) await service.stop().catch(() => undefined);
  await new Promise<void>((resolve) => source?.server.close(() => resolve()));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const jobRequest = (fileId: string) => ({
  job: {
    job_type: 'new_menu',
    processing_type: 'rush',
    job_data: { catalog_sources: [fileId, sourceUrl], merchant_name: "Joe's Diner" },
  },
});

describe('npm start keeps its state across a crash', () => {
  it('finishes after a SIGKILL what was in progress, and --reset starts empty', async () => {
    // 1. A client key, a file, a job (stuck reading the slow source) and an export of it.
    const first = await start();
    expect(first.output).toContain(`> tsx bin/local.ts`);
    expect(first.output.find((l) => l.startsWith('node v'))).toMatch(
      new RegExp(`^node v${LAMBDA_NODE_MAJOR}\\.`),
    );
    const { stdout } = await run('npm', ['run', '-s', 'keys', '--', 'create', '--client', 'acme'], {
      env: first.keysEnv,
    });
    const acme = JSON.parse(stdout) as { api_key: string };
    const as = { key: acme.api_key };

    const file = await first.request('/v1/files', {
      ...as,
      method: 'POST',
      body: JSON.stringify({ filename: 'menu.csv', content_type: 'text/csv' }),
    });
    expect(file.status).toBe(201);
    const posted = await postUploadForm(
      file.json.upload_form.url,
      file.json.upload_form.fields,
      UPLOADED_CSV,
      'menu.csv',
    );
    expect(posted.status).toBe(204);
    const devFile = await first.request('/v1/files', {
      method: 'POST',
      body: JSON.stringify({ filename: 'dev.csv', content_type: 'text/csv' }),
    });
    expect(devFile.status).toBe(201);

    const body = JSON.stringify(jobRequest(file.json.id));
    const headers = { 'idempotency-key': 'persist-1' };
    const job = await first.request('/v1/jobs', { ...as, method: 'POST', body, headers });
    expect(job.status).toBe(201);
    await eventually(
      async () => {
        const read = await first.request(`/v1/jobs/${job.json.id}`, as);
        return read.json.state === 'processing' && source.requests() === 1 ? true : undefined;
      },
      { timeoutMs: 60_000, what: 'the job to be processing, reading the slow source' },
    );
    const exp = await first.request('/v1/data_exports', {
      ...as,
      method: 'POST',
      body: JSON.stringify({ id: job.json.id, type: 'catalog' }),
    });
    expect(exp.status).toBe(201);
    expect(exp.json.state).toBe('initiated');

    // 2. A crash: npm, tsx and node killed at once, nothing flushed, nothing stopped.
    await first.kill();
    source.open();

    // 3. After the restart the key works, the job finishes and the export downloads.
    const second = await start();
    expect(second.output.join('\n')).toMatch(
      /resumed the previous run's work: [1-9]\d* in-flight messages, 1 job leases/,
    );
    const finished = await eventually(
      async () => {
        const read = await second.request(`/v1/jobs/${job.json.id}`, as);
        expect(read.status).toBe(200);
        return read.json.state === 'completed' ? (read.json as Json) : undefined;
      },
      { timeoutMs: 60_000, what: 'the job to complete after the restart' },
    );
    expect(source.requests()).toBe(2);
    expect(finished.results.catalog).toMatchObject({ item_count: 5 });
    expect(finished.results.sources).toHaveLength(2);

    const exported = await eventually(
      async () => {
        const read = await second.request(`/v1/data_exports/${exp.json.id}`, as);
        return read.json.state === 'completed' ? (read.json as Json) : undefined;
      },
      { timeoutMs: 60_000, what: 'the export to complete' },
    );
    const download = await fetch(exported.delivery_url);
    expect(download.status).toBe(200);
    const catalog = (await download.json()) as Json;
    expect(JSON.stringify(catalog)).toContain('Tiramisu');
    expect(JSON.stringify(catalog)).toContain('Margherita');

    const replay = await second.request('/v1/jobs', { ...as, method: 'POST', body, headers });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.json.id).toBe(job.json.id);

    // 4. A normal stop keeps it all too.
    await second.stop();
    const third = await start();
    expect((await third.request(`/v1/jobs/${job.json.id}`, as)).json.state).toBe('completed');
    expect((await third.request(`/v1/files/${devFile.json.id}`)).status).toBe(200);
    expect(third.output.join('\n')).not.toMatch(/resumed/);
    await third.stop();

    // 5. --reset: an empty service; the client, its key and its records are gone.
    const reset = await start(['--reset']);
    expect((await reset.request(`/v1/jobs/${job.json.id}`, as)).status).toBe(401);
    expect((await reset.request(`/v1/files/${devFile.json.id}`)).status).toBe(404);
    const keys = await run('npm', ['run', '-s', 'keys', '--', 'list'], { env: reset.keysEnv });
    const clients = keys.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as Json).client_id);
    expect(clients).toEqual(['dev']);
    await reset.stop();
  }, 300_000);
});
