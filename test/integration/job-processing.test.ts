import type { ServerResponse } from 'node:http';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { parseCatalogDocument } from '../../lambdas/core/catalog/document';
import { DependencyUnavailableError } from '../../lambdas/core/errors';
import type { JobRecord } from '../../lambdas/core/model';
import { objectKeys } from '../../lambdas/core/ports';
import type { JobSpec } from '../../lambdas/core/schemas/job';
import { failOverdueJobs, processJob } from '../../lambdas/core/use-cases/job-processing';
import { createJob } from '../../lambdas/core/use-cases/jobs';
import { makeOpsCompleteJobHandler } from '../../lambdas/handlers/http/ops-complete-job';
import { makeOpsGetJobHandler } from '../../lambdas/handlers/http/ops-get-job';
import { makeOpsListJobsHandler } from '../../lambdas/handlers/http/ops-list-jobs';
import { makeOpsPutCatalogHandler } from '../../lambdas/handlers/http/ops-put-catalog';
import type { AppDeps } from '../../lambdas/shared/deps';
import type { ApiHandler } from '../../lambdas/shared/http';
import { pngBytes } from '../fixtures/catalog/images';
import { aJob, apiEvent, eventually, lambdaContext } from '../helpers/factories';
import { uniqueClient } from '../helpers/integration';
import { type Pipeline, startPipeline, startTestServer, type TestServer } from '../helpers/pipeline';

const MENU = [
  'category,name,price,description,modifier_group,modifier,modifier_price',
  'Pizza,Margherita,$12.50,"Tomato, mozzarella",,,',
  'Pizza,Margherita,,,Size,Large,2.00',
  'Pizza,Margherita,,,Size,Small,',
  'Pizza,Diavola,13.00,,,,',
  'Drinks,Cola,2.5,,,,',
].join('\n');

const RETAIL = [
  'name;sku;upc;brand;category;price',
  'Whole Milk 1L;MLK-1;036000291452;Acme;Grocery > Dairy;1,99',
  'Chips;CH-1;;Crunch;Snacks;$3.50',
  'Bad Check;BC-1;036000291453;;Grocery;1',
  'Bad price;BP-1;;;Snacks;abc',
].join('\n');

let files: TestServer;
let pipeline: Pipeline;
let sourceHits: Record<string, number>;

beforeAll(async () => {
  sourceHits = {};
  files = await startTestServer((req, res: ServerResponse) => {
    sourceHits[req.url] = (sourceHits[req.url] ?? 0) + 1;
    const path = new URL(req.url, 'http://x').pathname;
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    if (path === '/menu.csv') return send(200, 'text/csv', MENU);
    if (path === '/retail.csv') return send(200, 'text/csv; charset=utf-8', RETAIL);
    if (path === '/menu.pdf') return send(200, 'application/pdf', '%PDF-1.4\n% a scanned menu\n');
    if (path === '/images/036000291452.png') return send(200, 'image/png', pngBytes(64, 48));
    if (path === '/images/CH-1.png') return send(200, 'image/png', pngBytes(10, 10));
    if (path === '/images/unknown-product.png') return send(200, 'image/png', pngBytes(5, 5));
    return send(404, 'text/plain', 'not found');
  });
  pipeline = await startPipeline();
});

afterAll(async () => {
  await pipeline?.stop();
  await files?.stop();
});

const submit = async (spec: Record<string, unknown>, clientId = uniqueClient()): Promise<JobRecord> =>
  createJob(pipeline.deps, clientId, {
    processing_type: 'rush',
    ...spec,
    job_data: { merchant_name: 'Test Merchant', ...(spec.job_data as object) },
  } as JobSpec);

const settled = (job: JobRecord, states: string[] = ['completed', 'failed', 'in_review', 'canceled']) =>
  eventually(
    async () => {
      const now = await pipeline.deps.jobs.get(job.clientId, job.id);
      return now && states.includes(now.state) ? now : undefined;
    },
    { what: `job ${job.id} to settle`, timeoutMs: 20_000 },
  );

const readCatalog = async (deps: AppDeps, job: JobRecord) => {
  const chunks: Buffer[] = [];
  for await (const chunk of await deps.catalogs.read(objectKeys.catalog(job.clientId, job.id)))
    chunks.push(Buffer.from(chunk));
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
};

describe('job processing against the emulators (SPEC 5.2)', () => {
  it('builds a menu with modifiers from a CSV served over HTTP', async () => {
    const job = await submit({
      job_type: 'new_menu',
      job_data: {
        catalog_sources: [`${files.url}/menu.csv`],
        language: 'en_us',
        client_mappings: { items: { Cola: 'pos-cola' } },
      },
    });
    const done = await settled(job);
    expect(done.state).toBe('completed');
    expect(done.completedAt).not.toBeNull();
    expect(done.results).toMatchObject({
      catalog: { item_count: 3, variant_count: 3, category_count: 2, modifier_group_count: 1 },
      warning_count: 0,
      sources: [
        {
          source: `${files.url}/menu.csv`,
          format: 'csv',
          encoding: 'utf-8',
          profile: 'generic',
          ignored_columns: [],
          rows: 5,
          items: 3,
        },
      ],
    });
    const document = await readCatalog(pipeline.deps, done);
    expect(parseCatalogDocument(document)).toMatchObject({ ok: true, formatVersion: 2 });
    const margherita = document.items.find((i: { name: string }) => i.name === 'Margherita');
    expect(margherita.variants[0].price).toEqual({ amount: 1250, currency: 'USD' });
    const group = document.modifier_groups.find(
      (g: { id: string }) => g.id === margherita.modifier_group_ids[0],
    );
    expect(group.modifiers.map((m: { name: string; price: unknown }) => [m.name, m.price])).toEqual([
      ['Large', { amount: 200, currency: 'USD' }],
      ['Small', null],
    ]);
    expect(document.items.find((i: { name: string }) => i.name === 'Cola').external_id).toBe('pos-cola');
  });

  it('builds a retail catalog and turns bad rows into warnings', async () => {
    const job = await submit({
      job_type: 'new_retail_catalog',
      job_data: { catalog_sources: [`${files.url}/retail.csv`] },
    });
    const done = await settled(job);
    expect(done.state).toBe('completed');
    const results = done.results as {
      catalog: { item_count: number };
      warning_count: number;
      warnings: { row: number; column: string }[];
    };
    // A bad value is dropped with a warning; the row's item is kept when it still has what it needs.
    expect(results.catalog.item_count).toBe(4);
    expect(results.warning_count).toBeGreaterThanOrEqual(2);
    expect(results.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ row: 4, column: 'upc' }),
        expect.objectContaining({ row: 5, column: 'price' }),
      ]),
    );
  });

  it('maps images by identifier, and reports the unreachable and the unmatched', async () => {
    const job = await submit({
      job_type: 'retail_image_mapping',
      job_data: {
        catalog_sources: [`${files.url}/retail.csv`],
        image_sources: [
          `${files.url}/images/036000291452.png`,
          `${files.url}/images/CH-1.png`,
          `${files.url}/images/00000000000017.png`,
          `${files.url}/images/unknown-product.png`,
        ],
      },
    });
    const done = await settled(job);
    expect(done.state).toBe('completed');
    expect(done.results).toMatchObject({
      mapped_count: 2,
      unmatched_images: [`${files.url}/images/unknown-product.png`],
      unreachable_images: [
        expect.objectContaining({ url: `${files.url}/images/00000000000017.png`, status: 404 }),
      ],
      products_without_image_count: 2,
    });
    const document = await readCatalog(pipeline.deps, done);
    const milk = document.items.find((i: { variants: { sku: string }[] }) => i.variants[0]?.sku === 'MLK-1');
    expect(milk.variants[0].images).toEqual([
      { url: `${files.url}/images/036000291452.png`, width: 64, height: 48 },
    ]);
    expect(document.image_mappings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          item_id: milk.id,
          variant_id: milk.variants[0].id,
          matched_by: 'gtin',
          width: 64,
          height: 48,
        }),
      ]),
    );
  });

  it('fails a job none of whose sources can be read, with a clear error', async () => {
    const job = await submit({
      job_type: 'new_menu',
      job_data: { catalog_sources: [`${files.url}/missing.csv`] },
    });
    const done = await settled(job);
    expect(done.state).toBe('failed');
    expect(done.error).toMatchObject({ code: 'source_unreadable' });
    expect(done.error?.detail).toContain('HTTP 404');
  });

  it('refuses a source on a private address even though loopback is allowed, before storing the job', async () => {
    // The worker's guarded client refuses it too (test/unit/guarded-http.test.ts): this is the early answer.
    await expect(
      submit({
        job_type: 'new_menu',
        job_data: { catalog_sources: ['http://169.254.169.254/latest/meta-data'] },
      }),
    ).rejects.toMatchObject({
      errors: [
        expect.objectContaining({ pointer: '/job/job_data/catalog_sources/0', code: 'internal_address' }),
      ],
    });
  });

  it('sends an unreadable PDF to review; an operator replaces the catalog and completes it', async () => {
    const job = await submit({
      job_type: 'new_menu',
      job_data: { catalog_sources: [`${files.url}/menu.pdf`], instructions: 'Prices on page 2 include tax' },
    });
    const review = await settled(job);
    expect(review.state).toBe('in_review');
    const ops = (handler: ApiHandler, event: APIGatewayProxyEvent) =>
      handler(event, lambdaContext()).then((r) => ({ ...r, json: JSON.parse(r.body) }));
    const operator = { scope: 'operator' as const, clientId: 'ops-team' };

    const queue = await eventually(
      async () => {
        const res = await ops(
          makeOpsListJobsHandler(pipeline.deps),
          apiEvent({ method: 'GET', ...operator, query: { limit: '100' } }),
        );
        return res.json.data.some((j: { id: string }) => j.id === job.id) ? res : undefined;
      },
      { what: 'the job in the review queue' },
    );
    expect(queue.statusCode).toBe(200);

    const shown = await ops(
      makeOpsGetJobHandler(pipeline.deps),
      apiEvent({ method: 'GET', pathParameters: { id: job.id }, ...operator }),
    );
    expect(shown.json).toMatchObject({ id: job.id, client_id: job.clientId, state: 'in_review' });
    expect(shown.json.job_data.instructions).toBe('Prices on page 2 include tax');
    expect(shown.json.draft_catalog).toMatchObject({ job_id: job.id, items: [] });

    const asClient = await ops(
      makeOpsGetJobHandler(pipeline.deps),
      apiEvent({ method: 'GET', pathParameters: { id: job.id } }),
    );
    expect(asClient.statusCode).toBe(403);

    const catalog = {
      ...shown.json.draft_catalog,
      categories: [
        {
          id: '5d3d2a52-3c1a-5b8e-9a55-1d7b5d0f4b1a',
          name: 'Pizza',
          parent_id: null,
          sort: 0,
          external_id: null,
        },
      ],
      items: [
        {
          id: '8e0f8c4e-2c3f-5c8a-8f5e-6d0c1b2a3f4e',
          name: 'Margherita',
          description: null,
          category_id: '5d3d2a52-3c1a-5b8e-9a55-1d7b5d0f4b1a',
          brand: null,
          tags: [],
          calories: null,
          modifier_group_ids: [],
          images: [],
          external_id: null,
          option_names: ['Size'],
          variants: [
            {
              id: '9f1a9d5f-3d4a-5d9b-9a6f-7e1d2c3b4a5f',
              name: 'Small',
              options: { Size: 'Small' },
              price: { amount: 1250, currency: 'USD' },
            },
            {
              id: 'a02b0e6a-4e5b-5eac-8b7a-8f2e3d4c5b6a',
              name: 'Large',
              options: { Size: 'Large' },
              price: null,
              pricing: 'variable',
            },
          ],
        },
      ],
    };
    const invalid = await ops(
      makeOpsPutCatalogHandler(pipeline.deps),
      apiEvent({
        method: 'PUT',
        pathParameters: { id: job.id },
        ...operator,
        body: { ...catalog, items: [{ name: 'x' }] },
      }),
    );
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json.errors[0].pointer).toMatch(/^\/items\/0/);
    const put = await ops(
      makeOpsPutCatalogHandler(pipeline.deps),
      apiEvent({ method: 'PUT', pathParameters: { id: job.id }, ...operator, body: catalog }),
    );
    expect(put.statusCode).toBe(200);
    expect(put.json.results.catalog).toMatchObject({ item_count: 1, variant_count: 2 });

    // Format 1 is still accepted, without job_id or generated_at, and stored as format 2.
    const { job_id: _id, generated_at: _at, ...draft } = shown.json.draft_catalog;
    const v1 = await ops(
      makeOpsPutCatalogHandler(pipeline.deps),
      apiEvent({
        method: 'PUT',
        pathParameters: { id: job.id },
        ...operator,
        body: {
          ...draft,
          format_version: 1,
          categories: catalog.categories,
          items: [
            {
              id: '8e0f8c4e-2c3f-5c8a-8f5e-6d0c1b2a3f4e',
              name: 'Margherita',
              category_id: '5d3d2a52-3c1a-5b8e-9a55-1d7b5d0f4b1a',
              price: { amount: 1100, currency: 'USD' },
            },
          ],
        },
      }),
    );
    expect(v1.statusCode).toBe(200);
    const stored = await readCatalog(pipeline.deps, review);
    expect(stored).toMatchObject({ format_version: 2, job_id: job.id });
    expect(stored.items[0].variants).toEqual([
      expect.objectContaining({ name: null, price: { amount: 1100, currency: 'USD' }, pricing: 'fixed' }),
    ]);
    const back = await ops(
      makeOpsPutCatalogHandler(pipeline.deps),
      apiEvent({ method: 'PUT', pathParameters: { id: job.id }, ...operator, body: catalog }),
    );
    expect(back.statusCode).toBe(200);

    const completed = await ops(
      makeOpsCompleteJobHandler(pipeline.deps),
      apiEvent({ pathParameters: { id: job.id }, ...operator, rawBody: null }),
    );
    expect(completed.statusCode).toBe(200);
    expect(completed.json.state).toBe('completed');
    expect((await readCatalog(pipeline.deps, review)).items[0].name).toBe('Margherita');
  });
});

describe('delivery semantics', () => {
  const delivery = { attempt: 1, maxAttempts: 5, leaseSeconds: 360 };

  /** A job stored but not enqueued: only the test's own calls process it. */
  const storedJob = async (deps: AppDeps, source: string): Promise<JobRecord> => {
    const job = aJob({
      clientId: uniqueClient(),
      // The worker runs on the real clock: the record's dates are real-clock dates too.
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      dueAt: new Date(Date.now() + 72 * 3_600_000).toISOString(),
      jobData: { catalog_sources: [source], merchant_name: 'Joe', language: 'en_us' },
    });
    await deps.jobs.create(job);
    await deps.jobs.markEnqueued(job.clientId, job.id);
    return job;
  };

  it('processes a job once when its message is delivered twice at the same time', async () => {
    const deps = pipeline.deps;
    const path = `/menu.csv?dup=${crypto.randomUUID()}`;
    const job = await storedJob(deps, `${files.url}${path}`);
    const outcomes = await Promise.all([
      processJob(deps, job.clientId, job.id, delivery),
      processJob(deps, job.clientId, job.id, delivery),
    ]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['completed', 'skipped']);
    expect(sourceHits[path]).toBe(1);
    const again = await processJob(deps, job.clientId, job.id, { ...delivery, attempt: 2 });
    expect(again).toEqual({ kind: 'skipped', reason: 'finished' });
    expect(sourceHits[path]).toBe(1);
  });

  it('retries a worker that failed mid-job, and the job ends completed', async () => {
    let failures = 1;
    const catalogs = pipeline.deps.catalogs;
    const flaky: AppDeps['catalogs'] = {
      size: (key) => catalogs.size(key),
      read: (key) => catalogs.read(key),
      presignUpload: (...args) => catalogs.presignUpload(...args),
      presignDownload: (...args) => catalogs.presignDownload(...args),
      write: (...args) =>
        failures-- > 0
          ? Promise.reject(new DependencyUnavailableError('S3 is down'))
          : catalogs.write(...args),
    };
    const deps = { ...pipeline.deps, catalogs: flaky };
    const job = await storedJob(deps, `${files.url}/menu.csv`);
    await expect(processJob(deps, job.clientId, job.id, delivery)).rejects.toBeInstanceOf(
      DependencyUnavailableError,
    );
    expect((await deps.jobs.get(job.clientId, job.id))?.state).toBe('processing');
    const retried = await processJob(deps, job.clientId, job.id, { ...delivery, attempt: 2 });
    expect(retried.kind).toBe('completed');
  });

  it('fails the job on the last delivery instead of leaving it processing', async () => {
    const catalogs = pipeline.deps.catalogs;
    const broken: AppDeps['catalogs'] = {
      size: (key) => catalogs.size(key),
      read: (key) => catalogs.read(key),
      presignUpload: (...args) => catalogs.presignUpload(...args),
      presignDownload: (...args) => catalogs.presignDownload(...args),
      write: () => Promise.reject(new DependencyUnavailableError('S3 is down')),
    };
    const deps = { ...pipeline.deps, catalogs: broken };
    const job = await storedJob(deps, `${files.url}/menu.csv`);
    await expect(processJob(deps, job.clientId, job.id, { ...delivery, attempt: 5 })).rejects.toBeInstanceOf(
      DependencyUnavailableError,
    );
    expect(await deps.jobs.get(job.clientId, job.id)).toMatchObject({
      state: 'failed',
      error: { code: 'processing_failed' },
    });
  });

  it('fails jobs long past their due date with timed_out', async () => {
    const deps = pipeline.deps;
    const job = aJob({ clientId: uniqueClient(), dueAt: '2020-01-01T00:00:00.000Z', state: 'initiated' });
    await deps.jobs.create(job);
    await deps.jobs.markEnqueued(job.clientId, job.id);
    expect(await failOverdueJobs(deps, { limit: 1000 })).toBeGreaterThanOrEqual(1);
    expect(await deps.jobs.get(job.clientId, job.id)).toMatchObject({
      state: 'failed',
      error: { code: 'timed_out' },
    });
  });
});
