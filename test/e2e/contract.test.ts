import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { pngBytes } from '../fixtures/catalog/images';
import { eventually } from '../helpers/factories';
import { type Json, type LocalService, startLocalService } from '../helpers/local-service';
import { OpenApiContract } from '../helpers/openapi-contract';
import { postUploadForm } from '../helpers/upload-form';

/**
 * Contract tests against `npm start`: the main client flows, every response checked against
 * docs/openapi.json (status, headers, body), the downloaded catalog and the signed callback too. Sources
 * are local: uploaded files, and a small HTTP server on loopback (which the local runtime allows).
 */

const run = promisify(execFile);
const WEBHOOK_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const contract = OpenApiContract.load();
const fixture = (name: string) => readFileSync(path.join(process.cwd(), 'test', 'fixtures', 'catalog', name));

interface Received {
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

let service: LocalService;
let sources: Server;
let sourcesUrl: string;
const callbacks: Received[] = [];

/** Merchant files and the callback receiver, on loopback. */
const startSources = async (): Promise<Server> => {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/hooks') {
        callbacks.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      } else if (req.method === 'GET' && req.url === '/images/036000291452.png') {
        res.writeHead(200, { 'content-type': 'image/png' }).end(pngBytes(640, 480));
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
};

/** One request to the service; its answer must match the document. */
const call = async (
  pathname: string,
  init: RequestInit & { key?: string | null } = {},
): Promise<{ status: number; headers: Headers; json: Json }> => {
  const res = await service.request(pathname, init);
  contract.assert({
    method: init.method ?? 'GET',
    path: pathname,
    status: res.status,
    headers: res.headers,
    body: res.json,
  });
  return res;
};

const post = (pathname: string, body: unknown, init: RequestInit & { key?: string | null } = {}) =>
  call(pathname, { ...init, method: 'POST', body: JSON.stringify(body) });

/** Polls (every response checked) until `done` holds; no fixed sleeps. */
const pollUntil = async (pathname: string, done: (body: Json) => boolean, init: { key?: string } = {}) => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await call(pathname, init);
    if (done(res.json)) return res;
    if (Date.now() > deadline) throw new Error(`${pathname} still ${res.json.state} after 30 s`);
    // While not terminal, the service says when to look again (SPEC 5.1).
    if (!['completed', 'failed', 'canceled'].includes(res.json.state)) {
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const terminalJob = (body: Json) => ['completed', 'failed', 'canceled'].includes(body.state);

/** SPEC 3.3: PUT the bytes to `upload_url` with `upload_headers`, or POST them as the form `upload_form`. */
const upload = async (
  filename: string,
  contentType: string,
  bytes: Buffer,
  how: 'put' | 'form' = 'form',
): Promise<string> => {
  const created = await post('/v1/files', { filename, content_type: contentType });
  expect(created.status).toBe(201);
  if (how === 'put') {
    const put = await fetch(created.json.upload_url, {
      method: 'PUT',
      body: new Uint8Array(bytes),
      headers: created.json.upload_headers,
    });
    expect(put.status).toBe(200);
  } else {
    const posted = await postUploadForm(
      created.json.upload_form.url,
      created.json.upload_form.fields,
      bytes,
      filename,
    );
    expect(posted.status).toBe(204);
  }
  const read = await call(`/v1/files/${created.json.id}`);
  expect(read.json).toMatchObject({ state: 'uploaded', size_bytes: bytes.length });
  return created.json.id;
};

const createJob = async (job: Json, headers: Record<string, string> = {}) => {
  const res = await post('/v1/jobs', { job }, { headers });
  expect(res.status).toBe(201);
  return res.json;
};

beforeAll(async () => {
  sources = await startSources();
  sourcesUrl = `http://127.0.0.1:${(sources.address() as AddressInfo).port}`;
  service = await startLocalService({ DEV_WEBHOOK_SECRET: WEBHOOK_SECRET, CALLBACK_RETRY_DELAYS: '1,1' });
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await new Promise<void>((resolve) => (sources ? sources.close(() => resolve()) : resolve()));
});

describe('the client flows against npm start match docs/openapi.json', () => {
  const jobs: Record<string, Json> = {};

  it('creates a job of each type from uploaded files and follows it to a terminal state', async () => {
    const menu = await upload('menu.csv', 'text/csv', fixture('menu.csv'), 'put');
    const retail = await upload('retail.csv', 'text/csv', fixture('retail.csv'));
    jobs.menu = await createJob(
      {
        job_type: 'new_menu',
        processing_type: 'rush',
        job_data: { catalog_sources: [menu], merchant_name: "Joe's Diner", language: 'en_us' },
        metadata: { store: '42' },
      },
      { 'Idempotency-Key': `contract-${menu}` },
    );
    jobs.retail = await createJob({
      job_type: 'new_retail_catalog',
      processing_type: 'standard',
      job_data: {
        catalog_sources: [retail],
        merchant_name: 'Corner Store',
        merchant_token: 'MT-123',
        client_mappings: { items: { 'MLK-1': 'ext-milk' } },
      },
    });
    jobs.images = await createJob({
      job_type: 'retail_image_mapping',
      processing_type: 'rush',
      job_data: {
        catalog_sources: [retail],
        merchant_name: 'Corner Store',
        image_sources: [`${sourcesUrl}/images/036000291452.png`, `${sourcesUrl}/images/missing.png`],
      },
    });
    jobs.unreadable = await createJob({
      job_type: 'new_menu',
      processing_type: 'rush',
      job_data: { catalog_sources: [`${sourcesUrl}/missing.csv`], merchant_name: 'Nobody' },
    });

    const menuDone = await pollUntil(`/v1/jobs/${jobs.menu.id}`, terminalJob);
    expect(menuDone.json).toMatchObject({ state: 'completed', results: { catalog: { item_count: 5 } } });
    const retailDone = await pollUntil(`/v1/jobs/${jobs.retail.id}`, terminalJob);
    expect(retailDone.json.state).toBe('completed');
    const imagesDone = await pollUntil(`/v1/jobs/${jobs.images.id}`, terminalJob);
    expect(imagesDone.json).toMatchObject({ state: 'completed', results: { mapped_count: 1 } });
    const failed = await pollUntil(`/v1/jobs/${jobs.unreadable.id}`, terminalJob);
    expect(failed.json).toMatchObject({ state: 'failed', error: { code: 'source_unreadable' } });
    expect(failed.headers.get('retry-after')).toBeNull();
  }, 90_000);

  it('replays an idempotent create, and refuses the key with another body (422)', async () => {
    const job = {
      job_type: 'new_menu',
      processing_type: 'standard',
      job_data: { catalog_sources: [`${sourcesUrl}/missing.csv`], merchant_name: 'Twice' },
    };
    const first = await post('/v1/jobs', { job }, { headers: { 'Idempotency-Key': 'contract-replay' } });
    const replay = await post('/v1/jobs', { job }, { headers: { 'Idempotency-Key': 'contract-replay' } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.json.id).toBe(first.json.id);
    const other = await post(
      '/v1/jobs',
      { job: { ...job, processing_type: 'rush' } },
      { headers: { 'Idempotency-Key': 'contract-replay' } },
    );
    expect([other.status, other.json.code]).toEqual([422, 'idempotency_key_mismatch']);
  });

  it('lists jobs, with filters and a cursor', async () => {
    const page = await call('/v1/jobs?limit=2');
    expect(page.json.data).toHaveLength(2);
    const next = await call(`/v1/jobs?limit=2&cursor=${encodeURIComponent(page.json.next_cursor)}`);
    expect(next.json.data[0].id).not.toBe(page.json.data[0].id);
    const failed = await call('/v1/jobs?state=failed&job_type=new_menu');
    expect(failed.json.data.map((j: Json) => j.id)).toContain(jobs.unreadable.id);
    const bad = await call('/v1/jobs?limit=1000&colour=red');
    expect([bad.status, bad.json.errors.map((e: Json) => e.pointer).sort()]).toEqual([
      400,
      ['/query/colour', '/query/limit'],
    ]);
  });

  it('exports a completed job: polls, downloads a valid catalog, and receives the signed callback', async () => {
    const created = await post('/v1/data_exports', {
      id: jobs.menu.id,
      type: 'catalog',
      callback_url: `${sourcesUrl}/hooks`,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/data_exports/${created.json.id}`);
    const done = await pollUntil(`/v1/data_exports/${created.json.id}`, (e) => e.state === 'completed');
    expect(done.json.file).toMatchObject({ content_type: 'application/json', item_count: 5 });

    const download = await fetch(done.json.delivery_url);
    const catalog = await download.json();
    expect(contract.schemaErrors('CatalogDocument', catalog)).toBeUndefined();
    expect(catalog).toMatchObject({ job_id: jobs.menu.id, merchant: { name: "Joe's Diner" } });

    await eventually(async () => (callbacks.length > 0 ? true : undefined), {
      timeoutMs: 20_000,
      what: 'the callback',
    });
    const [received] = callbacks;
    expect(received).toBeDefined();
    const event = JSON.parse(received!.body);
    expect(contract.schemaErrors('DataExportEvent', event)).toBeUndefined();
    expect(event).toMatchObject({ type: 'data_export.completed', data: { id: created.json.id } });
    const callback =
      contract.document.paths['/v1/data_exports'].post.callbacks.dataExportEvent[
        '{$request.body#/callback_url}'
      ].post;
    for (const parameter of callback.parameters) {
      expect(received!.headers[parameter.name]).toEqual(expect.any(String));
    }
    expect(
      new Webhook(WEBHOOK_SECRET).verify(received!.body, {
        'webhook-id': String(received!.headers['webhook-id']),
        'webhook-timestamp': String(received!.headers['webhook-timestamp']),
        'webhook-signature': String(received!.headers['webhook-signature']),
      }),
    ).toEqual(event);
    const delivered = await pollUntil(`/v1/data_exports/${created.json.id}`, (e) =>
      ['delivered', 'failed'].includes(e.callback?.state),
    );
    expect(delivered.json.callback).toMatchObject({ state: 'delivered', attempts: 1, last_status: 204 });
  }, 60_000);

  it('refuses exports it cannot make: 404, 409, 400', async () => {
    const unknown = await post('/v1/data_exports', {
      id: '00000000-0000-4000-8000-000000000000',
      type: 'catalog',
    });
    const failed = await post('/v1/data_exports', { id: jobs.unreadable.id, type: 'catalog' });
    const wrongType = await post('/v1/data_exports', { id: jobs.menu.id, type: 'menu' });
    expect([unknown, failed, wrongType].map((r) => [r.status, r.json.code])).toEqual([
      [404, 'not_found'],
      [409, 'job_not_exportable'],
      [400, 'validation_failed'],
    ]);
  });

  it('answers the errors of the document: 400, 401, 403, 404, 405, 413, 415', async () => {
    const invalid = await post('/v1/jobs', { job: { job_type: 'new_menu', processing_type: 'rush' } });
    expect(invalid.json.errors).toEqual([
      { pointer: '/job/job_data', code: 'required', message: 'is required' },
    ]);
    const answers = [
      invalid,
      await call('/v1/jobs', { method: 'POST', body: '{"job":' }),
      await call('/v1/jobs', { key: null }),
      await call('/v1/jobs/00000000-0000-4000-8000-000000000000', {
        key: 'cjk_live_not_a_key_of_anyone_0000000',
      }),
      await call('/v1/ops/jobs'),
      await call('/v1/jobs/00000000-0000-4000-8000-000000000000'),
      await call('/v1/jobs/not-a-uuid'),
      await call('/v1/nothing/here'),
      await call('/v1/jobs', { method: 'DELETE' }),
      await call('/v1/jobs/00000000-0000-4000-8000-000000000000/cancel', { method: 'GET' }),
      await call('/v1/files', { method: 'POST', body: JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }) }),
      await call('/v1/files', {
        method: 'POST',
        body: 'filename=menu.csv',
        headers: { 'content-type': 'text/plain' },
      }),
    ];
    expect(answers.map((r) => r.status)).toEqual([
      400, 400, 401, 401, 403, 404, 404, 404, 405, 405, 413, 415,
    ]);
  });

  it('cancels a job in review (200) and refuses to cancel it again (409)', async () => {
    const job = await createJob({
      job_type: 'new_menu',
      processing_type: 'rush',
      job_data: {
        catalog_sources: [await upload('menu.csv', 'text/csv', fixture('menu.csv'))],
        merchant_name: 'Review Me',
        instructions: 'Check the prices.',
      },
    });
    await pollUntil(`/v1/jobs/${job.id}`, (j) => j.state === 'in_review');
    const canceled = await post(`/v1/jobs/${job.id}/cancel`, undefined);
    expect(canceled.json.state).toBe('canceled');
    const again = await call(`/v1/jobs/${job.id}/cancel`, { method: 'POST' });
    expect([again.status, again.json.code]).toEqual([409, 'invalid_state']);
  }, 60_000);

  it('runs the operations API with an operator key: queue, draft, replace, complete, fail', async () => {
    const { stdout } = await run(
      'npx',
      ['tsx', 'bin/keys.ts', 'create', '--client', 'ops-team', '--scope', 'operator'],
      {
        env: service.keysEnv,
      },
    );
    const key = JSON.parse(stdout.trim()).api_key as string;
    const menu = await upload('menu.csv', 'text/csv', fixture('menu.csv'));
    const reviewed: Json[] = [];
    for (const name of ['Complete Me', 'Fail Me']) {
      reviewed.push(
        await createJob({
          job_type: 'new_menu',
          processing_type: 'standard',
          job_data: { catalog_sources: [menu], merchant_name: name, instructions: 'Look at it.' },
        }),
      );
    }
    for (const job of reviewed) await pollUntil(`/v1/jobs/${job.id}`, (j) => j.state === 'in_review');

    const queue = await call('/v1/ops/jobs?state=in_review', { key });
    expect(queue.json.data.map((j: Json) => j.id)).toEqual(expect.arrayContaining(reviewed.map((j) => j.id)));
    const detail = await call(`/v1/ops/jobs/${reviewed[0].id}`, { key });
    expect(detail.json).toMatchObject({ client_id: 'dev', state: 'in_review' });
    expect(detail.json.draft_catalog.items.length).toBeGreaterThan(0);
    const source = await call(`/v1/ops/jobs/${reviewed[0].id}/sources/0`, {
      key,
      headers: { accept: 'application/json' },
    });
    expect(source.json).toMatchObject({ index: 0, source: menu, content_type: 'text/csv' });
    const bytes = await fetch(source.json.url);
    expect(await bytes.text()).toBe(fixture('menu.csv').toString());
    const replaced = await call(`/v1/ops/jobs/${reviewed[0].id}/catalog`, {
      key,
      method: 'PUT',
      body: JSON.stringify(detail.json.draft_catalog),
    });
    expect(replaced.status).toBe(200);
    const completed = await call(`/v1/ops/jobs/${reviewed[0].id}/complete`, { key, method: 'POST' });
    expect(completed.json.state).toBe('completed');
    const failed = await call(`/v1/ops/jobs/${reviewed[1].id}/fail`, {
      key,
      method: 'POST',
      body: JSON.stringify({ code: 'unreadable_sources', message: 'Too blurry.' }),
    });
    expect(failed.json).toMatchObject({ state: 'failed', error: { code: 'unreadable_sources' } });
    const late = await call(`/v1/ops/jobs/${reviewed[1].id}/complete`, { key, method: 'POST' });
    expect(late.status).toBe(409);
  }, 90_000);

  it('has seen every operation answer successfully', () => {
    const succeeded = [...contract.seen].filter((s) => /^\w+ 2\d\d$/.test(s)).map((s) => s.split(' ')[0]);
    const all = Object.values<Json>(contract.document.paths).flatMap((item) =>
      Object.values<Json>(item).map((op) => op.operationId),
    );
    expect(new Set(succeeded)).toEqual(new Set(all));
  });
});
