import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { makeCancelJobHandler } from '../../lambdas/handlers/http/cancel-job';
import { makeCreateExportHandler } from '../../lambdas/handlers/http/create-export';
import { makeCreateFileHandler } from '../../lambdas/handlers/http/create-file';
import { makeCreateJobHandler } from '../../lambdas/handlers/http/create-job';
import { makeGetExportHandler } from '../../lambdas/handlers/http/get-export';
import { makeGetFileHandler } from '../../lambdas/handlers/http/get-file';
import { makeGetJobHandler } from '../../lambdas/handlers/http/get-job';
import { makeListJobsHandler } from '../../lambdas/handlers/http/list-jobs';
import type { ApiHandler } from '../../lambdas/shared/http';
import { aJob, aJobRequest, apiEvent, lambdaContext, withJobData } from '../helpers/factories';
import { type FakeDeps, fakeDeps } from '../helpers/fakes';

const call = async (handler: ApiHandler, event: APIGatewayProxyEvent) => {
  const result = (await handler(event, lambdaContext())) as APIGatewayProxyResult & {
    headers: Record<string, string>;
  };
  return { ...result, json: JSON.parse(result.body) as Record<string, unknown> };
};

const createJob = (
  deps: FakeDeps,
  body: unknown,
  headers: Record<string, string> = {},
  clientId = 'client-a',
) => call(makeCreateJobHandler(deps), apiEvent({ body, headers, clientId }));

describe('POST /v1/jobs', () => {
  it.each([
    ['new_menu', 'standard'],
    ['new_menu', 'rush'],
    ['new_retail_catalog', 'standard'],
    ['retail_image_mapping', 'rush'],
  ] as const)('creates a %s %s job with exactly the seed response fields', async (type, processing) => {
    const deps = fakeDeps();
    const res = await createJob(deps, aJobRequest(type, { processing_type: processing }));
    expect(res.statusCode).toBe(201);
    expect(res.json).toMatchObject({
      state: 'initiated',
      processing_type: processing,
      results: {},
      job_type: type,
    });
    expect(res.json.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.location).toBe(`/v1/jobs/${res.json.id}`);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['x-request-id']).toMatch(/^req-/);
    // Queued on the queue of its processing type, and out of the outbox.
    expect(deps.queue.jobs).toEqual([
      { message: { kind: 'job', clientId: 'client-a', jobId: res.json.id }, processingType: processing },
    ]);
    expect(deps.jobs.outbox.size).toBe(0);
  });

  it('keeps every answer out of caches and unsniffed: created, refused and replayed alike', async () => {
    const deps = fakeDeps();
    const created = await createJob(deps, aJobRequest(), { 'Idempotency-Key': 'cache-1' });
    const replayed = await createJob(deps, aJobRequest(), { 'Idempotency-Key': 'cache-1' });
    const refused = await createJob(deps, withJobData('new_menu', { merchant_name: undefined }));
    const unauthorized = await call(makeGetJobHandler(deps), apiEvent({ clientId: null }));
    expect([created, replayed, refused, unauthorized].map((r) => r.statusCode)).toEqual([201, 201, 400, 401]);
    for (const res of [created, replayed, refused, unauthorized]) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('sets due_at from the processing type (rush 24 h, standard 72 h)', async () => {
    const deps = fakeDeps();
    const rush = await createJob(deps, aJobRequest('new_menu', { processing_type: 'rush' }));
    const standard = await createJob(deps, aJobRequest('new_menu', { processing_type: 'standard' }));
    expect(rush.json.due_at).toBe('2026-11-23T10:00:00.000Z');
    expect(standard.json.due_at).toBe('2026-11-25T10:00:00.000Z');
  });

  it('answers 400 with pointers and stores nothing for an invalid body', async () => {
    const deps = fakeDeps();
    const res = await createJob(deps, withJobData('new_menu', { merchant_name: undefined, language: 'xx' }));
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.json.code).toBe('validation_failed');
    expect((res.json.errors as { pointer: string }[]).map((e) => e.pointer).sort()).toEqual([
      '/job/job_data/language',
      '/job/job_data/merchant_name',
    ]);
    expect(deps.jobs.items.size).toBe(0);
    expect(deps.queue.jobs).toHaveLength(0);
  });

  it('answers 400 for malformed JSON, 415 for another content type, 413 over 1 MB', async () => {
    const deps = fakeDeps();
    const handler = makeCreateJobHandler(deps);
    const malformed = await call(handler, apiEvent({ rawBody: '{"job":' }));
    expect([malformed.statusCode, malformed.json.code]).toEqual([400, 'validation_failed']);
    const empty = await call(handler, apiEvent({ rawBody: null }));
    expect(empty.statusCode).toBe(400);
    const xml = await call(
      handler,
      apiEvent({ rawBody: '<job/>', headers: { 'Content-Type': 'application/xml' } }),
    );
    expect([xml.statusCode, xml.json.code]).toEqual([415, 'unsupported_media_type']);
    const big = await call(handler, apiEvent({ rawBody: JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }) }));
    expect([big.statusCode, big.json.code]).toEqual([413, 'payload_too_large']);
    expect(deps.jobs.items.size).toBe(0);
  });

  it('answers 403 to an operator key and 401 without a principal', async () => {
    const deps = fakeDeps();
    const forbidden = await call(
      makeCreateJobHandler(deps),
      apiEvent({ body: aJobRequest(), scope: 'operator' }),
    );
    expect(forbidden.statusCode).toBe(403);
    const anonymous = await call(
      makeCreateJobHandler(deps),
      apiEvent({ body: aJobRequest(), clientId: null }),
    );
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Token');
  });

  it('answers 503 with Retry-After and leaves no job behind when the queue fails', async () => {
    const deps = fakeDeps();
    deps.queue.failNext = 1;
    const res = await createJob(deps, aJobRequest());
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json.code).toBe('service_unavailable');
    expect(deps.jobs.items.size).toBe(0);
  });

  describe('uploaded file sources', () => {
    const upload = async (deps: FakeDeps, clientId = 'client-a', bytes?: Buffer) => {
      const res = await call(
        makeCreateFileHandler(deps),
        apiEvent({
          resource: '/v1/files',
          body: { filename: 'menu.csv', content_type: 'text/csv' },
          clientId,
        }),
      );
      const id = res.json.id as string;
      if (bytes) deps.uploads.objects.set(`uploads/${clientId}/${id}`, bytes);
      return id;
    };

    it('accepts an uploaded file of the same client', async () => {
      const deps = fakeDeps();
      const id = await upload(deps, 'client-a', Buffer.from('category,name,price\n'));
      const res = await createJob(deps, withJobData('new_menu', { catalog_sources: [id] }));
      expect(res.statusCode).toBe(201);
    });

    it('refuses a file that was not uploaded yet, and another client’s file', async () => {
      const deps = fakeDeps();
      const pending = await upload(deps, 'client-a');
      const theirs = await upload(deps, 'client-b', Buffer.from('x'));
      const res = await createJob(deps, withJobData('new_menu', { catalog_sources: [pending, theirs] }));
      expect(res.statusCode).toBe(400);
      expect(res.json.errors).toEqual([
        expect.objectContaining({ pointer: '/job/job_data/catalog_sources/0', code: 'file_not_uploaded' }),
        expect.objectContaining({ pointer: '/job/job_data/catalog_sources/1', code: 'file_not_found' }),
      ]);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first response for the same body', async () => {
      const deps = fakeDeps();
      const first = await createJob(deps, aJobRequest(), { 'Idempotency-Key': 'k1' });
      const again = await createJob(deps, aJobRequest(), { 'idempotency-key': 'k1' });
      expect(again.statusCode).toBe(201);
      expect(again.json.id).toBe(first.json.id);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(deps.jobs.items.size).toBe(1);
    });

    it('treats key order and whitespace as the same body', async () => {
      const deps = fakeDeps();
      const first = await createJob(deps, aJobRequest(), { 'Idempotency-Key': 'k1' });
      const { job } = aJobRequest();
      const reordered = {
        job: { processing_type: job.processing_type, job_data: job.job_data, job_type: job.job_type },
      };
      const again = await createJob(deps, reordered, { 'Idempotency-Key': 'k1' });
      expect(again.json.id).toBe(first.json.id);
    });

    it('answers 422 for another body under the same key', async () => {
      const deps = fakeDeps();
      await createJob(deps, aJobRequest(), { 'Idempotency-Key': 'k1' });
      const other = await createJob(deps, aJobRequest('new_retail_catalog'), { 'Idempotency-Key': 'k1' });
      expect([other.statusCode, other.json.code]).toEqual([422, 'idempotency_key_mismatch']);
      expect(deps.jobs.items.size).toBe(1);
    });

    it('answers 409 while the first request is in flight', async () => {
      const deps = fakeDeps();
      let release!: () => void;
      const original = deps.jobs.create.bind(deps.jobs);
      deps.jobs.create = async (job) => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return original(job);
      };
      const first = createJob(deps, aJobRequest(), { 'Idempotency-Key': 'k1' });
      await new Promise((resolve) => setImmediate(resolve));
      const second = await createJob(deps, aJobRequest(), { 'Idempotency-Key': 'k1' });
      expect([second.statusCode, second.json.code]).toEqual([409, 'idempotency_key_in_use']);
      release();
      expect((await first).statusCode).toBe(201);
    });

    it('keys are per client', async () => {
      const deps = fakeDeps();
      const a = await createJob(deps, aJobRequest(), { 'Idempotency-Key': 'k1' }, 'client-a');
      const b = await createJob(deps, aJobRequest(), { 'Idempotency-Key': 'k1' }, 'client-b');
      expect(b.statusCode).toBe(201);
      expect(b.json.id).not.toBe(a.json.id);
    });

    it('stores nothing for a request that failed validation or a dependency', async () => {
      const deps = fakeDeps();
      const invalid = await createJob(deps, { job: {} }, { 'Idempotency-Key': 'k1' });
      expect(invalid.statusCode).toBe(400);
      deps.queue.failNext = 1;
      const unavailable = await createJob(deps, aJobRequest(), { 'Idempotency-Key': 'k1' });
      expect(unavailable.statusCode).toBe(503);
      expect(deps.idempotency.records.size).toBe(0);
      const retried = await createJob(deps, aJobRequest(), { 'Idempotency-Key': 'k1' });
      expect(retried.statusCode).toBe(201);
    });

    it('forgets a key after 24 hours', async () => {
      const deps = fakeDeps();
      const first = await createJob(deps, aJobRequest(), { 'Idempotency-Key': 'k1' });
      deps.clock.advance(24 * 3600 * 1000 + 1000);
      const later = await createJob(deps, aJobRequest(), { 'Idempotency-Key': 'k1' });
      expect(later.json.id).not.toBe(first.json.id);
    });

    it('refuses a key longer than 255 characters', async () => {
      const deps = fakeDeps();
      const res = await createJob(deps, aJobRequest(), { 'Idempotency-Key': 'k'.repeat(256) });
      expect(res.statusCode).toBe(400);
      expect(deps.jobs.items.size).toBe(0);
    });
  });
});

describe('GET /v1/jobs/{id}', () => {
  const get = (deps: FakeDeps, id: string, clientId = 'client-a') =>
    call(
      makeGetJobHandler(deps),
      apiEvent({ method: 'GET', resource: '/v1/jobs/{id}', pathParameters: { id }, clientId }),
    );

  it('shows the job with Retry-After while it is not terminal', async () => {
    const deps = fakeDeps();
    const rush = aJob({ processingType: 'rush' });
    const standard = aJob({ state: 'processing' });
    const done = aJob({ state: 'completed' });
    for (const job of [rush, standard, done]) await deps.jobs.create(job);
    expect((await get(deps, rush.id)).headers['retry-after']).toBe('5');
    expect((await get(deps, standard.id)).headers['retry-after']).toBe('30');
    const completed = await get(deps, done.id);
    expect(completed.statusCode).toBe(200);
    expect(completed.headers['retry-after']).toBeUndefined();
    expect(Object.keys(completed.json)).toEqual([
      'id',
      'state',
      'processing_type',
      'results',
      'job_type',
      'job_data',
      'metadata',
      'created_at',
      'updated_at',
      'due_at',
      'completed_at',
      'error',
    ]);
  });

  it('answers 404 alike for an unknown id, a malformed id and another client’s job', async () => {
    const deps = fakeDeps();
    const theirs = aJob({ clientId: 'client-b' });
    await deps.jobs.create(theirs);
    const responses = await Promise.all([
      get(deps, theirs.id),
      get(deps, crypto.randomUUID()),
      get(deps, 'nope'),
    ]);
    for (const res of responses) {
      expect(res.statusCode).toBe(404);
      expect(res.json.code).toBe('not_found');
    }
  });
});

describe('GET /v1/jobs', () => {
  const list = (deps: FakeDeps, query: Record<string, string> = {}) =>
    call(makeListJobsHandler(deps), apiEvent({ method: 'GET', query }));

  it('lists the client’s own jobs newest first, filtered and paginated', async () => {
    const deps = fakeDeps();
    for (let i = 0; i < 5; i++) {
      await deps.jobs.create(
        aJob({ createdAt: `2026-11-22T10:0${i}:00.000Z`, state: i % 2 ? 'completed' : 'initiated' }),
      );
    }
    await deps.jobs.create(aJob({ clientId: 'client-b' }));
    const page1 = await list(deps, { limit: '2' });
    expect((page1.json.data as { created_at: string }[]).map((j) => j.created_at)).toEqual([
      '2026-11-22T10:04:00.000Z',
      '2026-11-22T10:03:00.000Z',
    ]);
    const page2 = await list(deps, { limit: '2', cursor: page1.json.next_cursor as string });
    expect(page2.json.data).toHaveLength(2);
    const completed = await list(deps, { state: 'completed' });
    expect((completed.json.data as unknown[]).length).toBe(2);
  });

  it('answers 400 for bad query parameters', async () => {
    const res = await list(fakeDeps(), { limit: '500' });
    expect(res.statusCode).toBe(400);
    expect(res.json.errors).toEqual([expect.objectContaining({ pointer: '/query/limit' })]);
  });
});

describe('POST /v1/jobs/{id}/cancel', () => {
  const cancel = (deps: FakeDeps, id: string) =>
    call(
      makeCancelJobHandler(deps),
      apiEvent({ resource: '/v1/jobs/{id}/cancel', pathParameters: { id }, rawBody: null }),
    );

  it.each(['initiated', 'in_review'] as const)('cancels a job that is %s', async (state) => {
    const deps = fakeDeps();
    const job = aJob({ state });
    await deps.jobs.create(job);
    const res = await cancel(deps, job.id);
    expect(res.statusCode).toBe(200);
    expect(res.json).toMatchObject({ state: 'canceled', completed_at: '2026-11-22T10:00:00.000Z' });
  });

  it.each(['processing', 'completed', 'failed', 'canceled'] as const)(
    'answers 409 for a job that is %s',
    async (state) => {
      const deps = fakeDeps();
      const job = aJob({ state });
      await deps.jobs.create(job);
      const res = await cancel(deps, job.id);
      expect([res.statusCode, res.json.code]).toEqual([409, 'invalid_state']);
      expect((await deps.jobs.get('client-a', job.id))?.state).toBe(state);
    },
  );
});

describe('POST /v1/data_exports and GET /v1/data_exports/{id}', () => {
  const create = (deps: FakeDeps, body: unknown, clientId = 'client-a') =>
    call(makeCreateExportHandler(deps), apiEvent({ resource: '/v1/data_exports', body, clientId }));

  it.each([undefined, 'https://hooks.example.com/catalog'])(
    'creates an export (callback_url %s) with exactly the seed response values',
    async (callbackUrl) => {
      const deps = fakeDeps();
      const job = aJob({ jobType: 'new_retail_catalog' });
      await deps.jobs.create(job);
      const res = await create(deps, {
        id: job.id,
        type: 'catalog',
        ...(callbackUrl ? { callback_url: callbackUrl } : {}),
      });
      expect(res.statusCode).toBe(201);
      expect(res.headers.location).toBe(`/v1/data_exports/${res.json.id}`);
      expect(res.json).toMatchObject({
        state: 'initiated',
        callback_url: callbackUrl ?? null,
        delivery_url: null,
        job_id: job.id,
        job_type: 'new_retail_catalog',
        client_mappings: {},
      });
      expect(res.json.id).not.toBe(job.id);
      expect(deps.queue.exports).toEqual([{ kind: 'export', clientId: 'client-a', exportId: res.json.id }]);
    },
  );

  it('answers 404 for another client’s job and 409 for a failed or canceled job', async () => {
    const deps = fakeDeps();
    const theirs = aJob({ clientId: 'client-b' });
    const failed = aJob({ state: 'failed' });
    const canceled = aJob({ state: 'canceled' });
    for (const job of [theirs, failed, canceled]) await deps.jobs.create(job);
    expect((await create(deps, { id: theirs.id, type: 'catalog' })).statusCode).toBe(404);
    for (const job of [failed, canceled]) {
      const res = await create(deps, { id: job.id, type: 'catalog' });
      expect([res.statusCode, res.json.code]).toEqual([409, 'job_not_exportable']);
    }
    expect(deps.exports.items.size).toBe(0);
  });

  it('refuses a plain http callback outside the local runtime', async () => {
    const deps = fakeDeps();
    const job = aJob();
    await deps.jobs.create(job);
    const res = await create(deps, {
      id: job.id,
      type: 'catalog',
      callback_url: 'http://hooks.example.com/x',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json.errors).toEqual([expect.objectContaining({ pointer: '/callback_url' })]);
  });

  it('polls an export: Retry-After while running, a fresh delivery_url once completed', async () => {
    const deps = fakeDeps();
    const job = aJob();
    await deps.jobs.create(job);
    const created = await create(deps, { id: job.id, type: 'catalog' });
    const id = created.json.id as string;
    const get = () =>
      call(
        makeGetExportHandler(deps),
        apiEvent({ method: 'GET', resource: '/v1/data_exports/{id}', pathParameters: { id } }),
      );
    const waiting = await get();
    expect(waiting.headers['retry-after']).toBe('5');
    expect(waiting.json.delivery_url).toBeNull();
    const exp = (await deps.exports.get('client-a', id))!;
    deps.exports.items.set(`client-a/${id}`, {
      ...exp,
      state: 'completed',
      objectKey: `exports/client-a/${id}.json`,
    });
    const first = await get();
    const second = await get();
    expect(first.headers['retry-after']).toBeUndefined();
    expect(first.json.delivery_url).toEqual(expect.stringContaining(`exports/client-a/${id}.json`));
    expect(first.json.delivery_url).not.toBe(second.json.delivery_url);
    expect(first.json.delivery_url_expires_at).toBe('2026-11-22T11:00:00.000Z');
  });
});

describe('files', () => {
  it('returns a presigned upload URL, then uploaded with its size once the bytes exist', async () => {
    const deps = fakeDeps();
    const created = await call(
      makeCreateFileHandler(deps),
      apiEvent({ resource: '/v1/files', body: { filename: 'menu.csv', content_type: 'text/csv' } }),
    );
    expect(created.statusCode).toBe(201);
    expect(created.json).toMatchObject({
      state: 'pending',
      filename: 'menu.csv',
      content_type: 'text/csv',
      size_bytes: null,
      upload_expires_at: '2026-11-22T10:15:00.000Z',
    });
    const id = created.json.id as string;
    const get = () =>
      call(
        makeGetFileHandler(deps),
        apiEvent({ method: 'GET', resource: '/v1/files/{id}', pathParameters: { id } }),
      );
    expect((await get()).json.state).toBe('pending');
    deps.uploads.objects.set(`uploads/client-a/${id}`, Buffer.from('abc'));
    const uploaded = await get();
    expect(uploaded.json).toMatchObject({ state: 'uploaded', size_bytes: 3, upload_url: null });
    const other = await call(
      makeGetFileHandler(deps),
      apiEvent({ method: 'GET', resource: '/v1/files/{id}', pathParameters: { id }, clientId: 'client-b' }),
    );
    expect(other.statusCode).toBe(404);
  });
});
