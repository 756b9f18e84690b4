import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { ExportRecord, JobRecord } from '../../lambdas/core/model';
import { objectKeys } from '../../lambdas/core/ports';
import type { JobSpec } from '../../lambdas/core/schemas/job';
import { replayCallback } from '../../lambdas/core/use-cases/callbacks';
import { issueKey } from '../../lambdas/core/use-cases/credentials';
import { processExport } from '../../lambdas/core/use-cases/export-processing';
import { createExport } from '../../lambdas/core/use-cases/exports';
import { createJob } from '../../lambdas/core/use-cases/jobs';
import { completeReviewedJob } from '../../lambdas/core/use-cases/operations';
import { makeGetExportHandler } from '../../lambdas/handlers/http/get-export';
import { apiEvent, eventually, lambdaContext } from '../helpers/factories';
import { uniqueClient } from '../helpers/integration';
import {
  type Pipeline,
  type RecordedRequest,
  startPipeline,
  startTestServer,
  type TestServer,
} from '../helpers/pipeline';

const MENU = 'category,name,price\nPizza,Margherita,12.50\nPizza,Diavola,13.00\nDrinks,Cola,2.50\n';

let files: TestServer;
let receiver: TestServer;
let pipeline: Pipeline;
/** How each receiver path answers, in turn; the last answer repeats. */
const scripts: Record<string, number[]> = {};

beforeAll(async () => {
  files = await startTestServer((req, res: ServerResponse) => {
    const path = new URL(req.url, 'http://x').pathname;
    res.writeHead(path === '/menu.csv' ? 200 : 404, { 'content-type': 'text/csv' });
    res.end(path === '/menu.csv' ? MENU : '');
  });
  receiver = await startTestServer((req, res) => {
    const seen = receiver.requests.filter((r) => r.url === req.url).length;
    const script = scripts[req.url] ?? [204];
    res.writeHead(script[Math.min(seen - 1, script.length - 1)]!);
    res.end();
  });
  // Short retry delays (seconds): three attempts in all.
  pipeline = await startPipeline({ env: { CALLBACK_RETRY_DELAYS: '1,1' } });
});

afterAll(async () => {
  await pipeline?.stop();
  await receiver?.stop();
  await files?.stop();
});

const newClient = async () => {
  const clientId = uniqueClient();
  const issued = await issueKey(pipeline.deps, { clientId, scope: 'client' });
  return { clientId, secret: issued.webhook_secret };
};

const submit = (clientId: string, data: Record<string, unknown> = {}) =>
  createJob(pipeline.deps, clientId, {
    job_type: 'new_menu',
    processing_type: 'rush',
    job_data: {
      catalog_sources: [`${files.url}/menu.csv`],
      merchant_name: 'Joe',
      language: 'en_us',
      ...data,
    },
  } as JobSpec);

const jobIn = (job: JobRecord, state: string) =>
  eventually(
    async () => {
      const now = await pipeline.deps.jobs.get(job.clientId, job.id);
      return now?.state === state ? now : undefined;
    },
    { what: `job ${state}` },
  );

const exportWhere = (exp: ExportRecord, done: (e: ExportRecord) => boolean, what: string) =>
  eventually(
    async () => {
      const now = await pipeline.deps.exports.get(exp.clientId, exp.id);
      return now && done(now) ? now : undefined;
    },
    { what },
  );

const hookRequests = (path: string): RecordedRequest[] => receiver.requests.filter((r) => r.url === path);

const verified = (secret: string, request: RecordedRequest) =>
  new Webhook(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  }) as { type: string; data: Record<string, unknown> };

describe('data exports (SPEC 5.3)', () => {
  it('exports a finished job by polling: delivery_url serves the catalog, with the checksum shown', async () => {
    const { clientId } = await newClient();
    const job = await jobIn(
      await submit(clientId, { client_mappings: { items: { Cola: 'pos-7' } } }),
      'completed',
    );
    const created = await createExport(pipeline.deps, clientId, { id: job.id, type: 'catalog' });
    await exportWhere(created, (e) => e.state === 'completed', 'the export to complete');

    const res = await makeGetExportHandler(pipeline.deps)(
      apiEvent({ method: 'GET', pathParameters: { id: created.id }, clientId }),
      lambdaContext(),
    );
    const body = JSON.parse(res.body);
    expect(body).toMatchObject({
      state: 'completed',
      client_mappings: { items: { Cola: 'pos-7' } },
      file: { item_count: 3 },
    });
    const download = await fetch(body.delivery_url);
    expect(download.status).toBe(200);
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.length).toBe(body.file.size_bytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(body.file.checksum_sha256);
    const chunks: Buffer[] = [];
    for await (const c of await pipeline.deps.catalogs.read(objectKeys.catalog(clientId, job.id)))
      chunks.push(Buffer.from(c));
    expect(JSON.parse(bytes.toString())).toEqual(JSON.parse(Buffer.concat(chunks).toString()));
    expect(
      JSON.parse(bytes.toString()).items.find((i: { name: string }) => i.name === 'Cola').external_id,
    ).toBe('pos-7');
  });

  it('waits for a job still in review, completes when the job does, and calls back signed', async () => {
    const { clientId, secret } = await newClient();
    const job = await jobIn(await submit(clientId, { instructions: 'check prices' }), 'in_review');
    const exp = await createExport(pipeline.deps, clientId, {
      id: job.id,
      type: 'catalog',
      callback_url: `${receiver.url}/hooks/${clientId}`,
    });
    // Only the job's completion moves it on.
    expect((await pipeline.deps.exports.get(clientId, exp.id))?.state).toBe('initiated');
    await completeReviewedJob(pipeline.deps, job.id);
    const done = await exportWhere(
      exp,
      (e) => e.callback?.state === 'delivered',
      'the callback to be delivered',
    );
    expect(done.state).toBe('completed');
    const [request] = hookRequests(`/hooks/${clientId}`);
    expect(request?.headers['content-type']).toBe('application/json');
    const event = verified(secret, request!);
    expect(event.type).toBe('data_export.completed');
    expect(event.data).toMatchObject({ id: exp.id, state: 'completed', job_id: job.id });
    expect(event.data.delivery_url).toEqual(expect.stringContaining(exp.id));
    expect(request?.headers['webhook-id']).toBe(`msg_${exp.id}`);
  });

  it('fails the export of a failed job with job_failed, and calls back data_export.failed', async () => {
    const { clientId, secret } = await newClient();
    const job = await submit(clientId, { catalog_sources: [`${files.url}/missing.csv`] });
    const path = `/hooks/${clientId}`;
    const exp = await createExport(pipeline.deps, clientId, {
      id: job.id,
      type: 'catalog',
      callback_url: `${receiver.url}${path}`,
    });
    const done = await exportWhere(exp, (e) => e.callback?.state === 'delivered', 'the failure callback');
    expect(done).toMatchObject({ state: 'failed', error: { code: 'job_failed' } });
    expect(verified(secret, hookRequests(path)[0]!).type).toBe('data_export.failed');
  });
});

describe('callbacks (SPEC 6)', () => {
  const exportWithHook = async (script: number[]) => {
    const { clientId, secret } = await newClient();
    const path = `/hooks/${clientId}`;
    scripts[path] = script;
    const job = await jobIn(await submit(clientId), 'completed');
    const exp = await createExport(pipeline.deps, clientId, {
      id: job.id,
      type: 'catalog',
      callback_url: `${receiver.url}${path}`,
    });
    return { exp, path, secret };
  };

  it('retries 500, 500, then 200: three attempts, one webhook-id, delivered', async () => {
    const { exp, path, secret } = await exportWithHook([500, 500, 200]);
    const done = await exportWhere(exp, (e) => e.callback?.state === 'delivered', 'delivery');
    expect(done.callback).toMatchObject({ state: 'delivered', attempts: 3, last_status: 200 });
    const requests = hookRequests(path);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([`msg_${exp.id}`]));
    for (const r of requests) expect(verified(secret, r).type).toBe('data_export.completed');
    expect(done.state).toBe('completed');
  });

  it('gives up after the schedule when the receiver always fails, and dead-letters the event', async () => {
    const { exp, path } = await exportWithHook([500]);
    const done = await exportWhere(exp, (e) => e.callback?.state === 'failed', 'the callback to fail');
    expect(done.callback).toMatchObject({ state: 'failed', attempts: 3, last_status: 500 });
    // A callback that fails never changes the export's own state.
    expect(done.state).toBe('completed');
    expect(hookRequests(path)).toHaveLength(3);
    const letter = await eventually(
      async () => (await pipeline.deadLetters('callbacks')).find((l) => l.exportId === exp.id),
      { what: 'the dead letter' },
    );
    expect(letter).toMatchObject({ eventId: `msg_${exp.id}`, reason: 'exhausted', attempts: 3 });
    expect((letter.event as { type: string }).type).toBe('data_export.completed');
  });

  it('replays a failed callback with the same webhook-id once the receiver is back', async () => {
    const { exp, path, secret } = await exportWithHook([410]);
    await exportWhere(exp, (e) => e.callback?.state === 'failed', 'the callback to stop');
    scripts[path] = [410, 200];
    const replay = await replayCallback(
      { exports: pipeline.deps.exports, queue: pipeline.deps.queue, clock: pipeline.deps.clock },
      exp.id,
    );
    expect(replay.previous.state).toBe('failed');
    const done = await exportWhere(exp, (e) => e.callback?.state === 'delivered', 'the replayed delivery');
    expect(done.callback).toMatchObject({ attempts: 1, last_status: 200 });
    const requests = hookRequests(path);
    expect(requests).toHaveLength(2);
    expect(requests[1]?.headers['webhook-id']).toBe(requests[0]?.headers['webhook-id']);
    expect(verified(secret, requests[1]!).type).toBe('data_export.completed');
  });

  it('stops at once on 410 Gone', async () => {
    const { exp, path } = await exportWithHook([410]);
    const done = await exportWhere(exp, (e) => e.callback?.state === 'failed', 'the callback to stop');
    expect(done.callback).toMatchObject({ attempts: 1, last_status: 410 });
    expect(hookRequests(path)).toHaveLength(1);
  });

  it('handles a duplicate export message once: one file, one callback event', async () => {
    const { exp, path } = await exportWithHook([200]);
    const done = await exportWhere(exp, (e) => e.callback?.state === 'delivered', 'delivery');
    const again = await processExport(pipeline.deps, exp.clientId, exp.id);
    expect(again).toEqual({ kind: 'skipped', reason: 'terminal' });
    const after = await pipeline.deps.exports.get(exp.clientId, exp.id);
    expect(after?.version).toBe(done.version);
    expect(after?.file).toEqual(done.file);
    expect(hookRequests(path)).toHaveLength(1);
  });
});
