import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { objectKeys } from '../../lambdas/core/ports';
import { makeCancelJobHandler } from '../../lambdas/handlers/http/cancel-job';
import { makeCreateExportHandler } from '../../lambdas/handlers/http/create-export';
import { makeCreateFileHandler } from '../../lambdas/handlers/http/create-file';
import { makeCreateJobHandler } from '../../lambdas/handlers/http/create-job';
import { makeGetExportHandler } from '../../lambdas/handlers/http/get-export';
import { makeGetFileHandler } from '../../lambdas/handlers/http/get-file';
import { makeGetJobHandler } from '../../lambdas/handlers/http/get-job';
import { makeListJobsHandler } from '../../lambdas/handlers/http/list-jobs';
import { makeOpsCompleteJobHandler } from '../../lambdas/handlers/http/ops-complete-job';
import { makeOpsFailJobHandler } from '../../lambdas/handlers/http/ops-fail-job';
import { makeOpsGetJobHandler } from '../../lambdas/handlers/http/ops-get-job';
import { makeOpsListJobsHandler } from '../../lambdas/handlers/http/ops-list-jobs';
import { makeOpsPutCatalogHandler } from '../../lambdas/handlers/http/ops-put-catalog';
import type { ApiHandler } from '../../lambdas/shared/http';
import { buildOpenApiDocument } from '../../lib/openapi/document';
import { catalogDocumentExample } from '../../lib/openapi/examples';
import { type ApiEventOptions, aJob, aJobRequest, apiEvent, lambdaContext } from '../helpers/factories';
import { type FakeDeps, fakeDeps } from '../helpers/fakes';
import { OpenApiContract } from '../helpers/openapi-contract';

/**
 * Every handler, driven through its factory with in-memory fakes, answers what the OpenAPI document says:
 * status, headers and body of each response are checked by the contract helper (the e2e contract test does
 * the same against `npm start`).
 */

const contract = new OpenApiContract(buildOpenApiDocument());

type Factory = (deps: FakeDeps) => ApiHandler;

const ROUTE_FACTORIES: Record<string, [string, string, Factory]> = {
  createJob: ['POST', '/v1/jobs', makeCreateJobHandler],
  listJobs: ['GET', '/v1/jobs', makeListJobsHandler],
  getJob: ['GET', '/v1/jobs/{id}', makeGetJobHandler],
  cancelJob: ['POST', '/v1/jobs/{id}/cancel', makeCancelJobHandler],
  createExport: ['POST', '/v1/data_exports', makeCreateExportHandler],
  getExport: ['GET', '/v1/data_exports/{id}', makeGetExportHandler],
  createFile: ['POST', '/v1/files', makeCreateFileHandler],
  getFile: ['GET', '/v1/files/{id}', makeGetFileHandler],
  opsList: ['GET', '/v1/ops/jobs', makeOpsListJobsHandler],
  opsGet: ['GET', '/v1/ops/jobs/{id}', makeOpsGetJobHandler],
  opsPut: ['PUT', '/v1/ops/jobs/{id}/catalog', makeOpsPutCatalogHandler],
  opsComplete: ['POST', '/v1/ops/jobs/{id}/complete', makeOpsCompleteJobHandler],
  opsFail: ['POST', '/v1/ops/jobs/{id}/fail', makeOpsFailJobHandler],
};

/** Calls one route's handler and checks the answer against the document; returns status, headers, JSON. */
const callRoute = async (
  deps: FakeDeps,
  route: keyof typeof ROUTE_FACTORIES,
  options: Omit<ApiEventOptions, 'method' | 'resource' | 'path'> & { id?: string } = {},
) => {
  const [method, resource, factory] = ROUTE_FACTORIES[route]!;
  const { id, ...rest } = options;
  const path = id === undefined ? resource : resource.replace('{id}', id);
  const event: APIGatewayProxyEvent = apiEvent({
    method,
    resource,
    path,
    ...(id === undefined ? {} : { pathParameters: { id } }),
    ...rest,
  });
  const result = (await factory(deps)(event, lambdaContext())) as APIGatewayProxyResult;
  const headers = Object.fromEntries(
    Object.entries(result.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]),
  );
  const body = result.body ? JSON.parse(result.body) : null;
  const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
  contract.assert({ method, path: `${path}${query}`, status: result.statusCode, headers, body });
  return { status: result.statusCode, headers, body };
};

describe('the handlers answer as docs/openapi.json says', () => {
  let deps: FakeDeps;
  beforeEach(() => {
    deps = fakeDeps();
  });

  it('for jobs: create (each type), replay, get, list, cancel', async () => {
    for (const type of ['new_menu', 'new_retail_catalog', 'retail_image_mapping'] as const) {
      const created = await callRoute(deps, 'createJob', { body: aJobRequest(type) });
      expect(created.status).toBe(201);
    }
    const first = await callRoute(deps, 'createJob', {
      body: aJobRequest('new_menu', { processing_type: 'rush' }),
      headers: { 'Idempotency-Key': 'k-1' },
    });
    const replay = await callRoute(deps, 'createJob', {
      body: aJobRequest('new_menu', { processing_type: 'rush' }),
      headers: { 'Idempotency-Key': 'k-1' },
    });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    const read = await callRoute(deps, 'getJob', { id: first.body.id });
    expect(read.headers['retry-after']).toBe('5');
    const page = await callRoute(deps, 'listJobs', { query: { limit: '2' } });
    expect(page.body.data).toHaveLength(2);
    expect((await callRoute(deps, 'cancelJob', { id: first.body.id })).body.state).toBe('canceled');
    expect((await callRoute(deps, 'cancelJob', { id: first.body.id })).status).toBe(409);
  });

  it('for job errors: 400, 403, 404, 413, 415, 422', async () => {
    const statuses = [
      await callRoute(deps, 'createJob', { body: { job: { job_type: 'new_menu' } } }),
      await callRoute(deps, 'createJob', { rawBody: '{"job":' }),
      await callRoute(deps, 'createJob', { body: aJobRequest(), scope: 'operator' }),
      await callRoute(deps, 'getJob', { id: '00000000-0000-4000-8000-000000000000' }),
      await callRoute(deps, 'createJob', { rawBody: JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }) }),
      await callRoute(deps, 'createJob', {
        rawBody: '<job/>',
        headers: { 'Content-Type': 'application/xml' },
      }),
      await callRoute(deps, 'listJobs', { query: { limit: '500' } }),
    ].map((r) => r.status);
    expect(statuses).toEqual([400, 400, 403, 404, 413, 415, 400]);
    await callRoute(deps, 'createJob', { body: aJobRequest(), headers: { 'Idempotency-Key': 'k-2' } });
    const mismatch = await callRoute(deps, 'createJob', {
      body: aJobRequest('new_retail_catalog'),
      headers: { 'Idempotency-Key': 'k-2' },
    });
    expect(mismatch.status).toBe(422);
  });

  it('for files and exports: upload, create, poll, refuse', async () => {
    const file = await callRoute(deps, 'createFile', {
      body: { filename: 'menu.csv', content_type: 'text/csv' },
    });
    expect(file.status).toBe(201);
    expect((await callRoute(deps, 'getFile', { id: file.body.id })).body.state).toBe('pending');
    deps.uploads.objects.set(
      objectKeys.upload('client-a', file.body.id),
      Buffer.from('category,name,price\n'),
    );
    expect((await callRoute(deps, 'getFile', { id: file.body.id })).body.state).toBe('uploaded');

    const job = await callRoute(deps, 'createJob', {
      body: aJobRequest('new_menu', {
        job_data: { catalog_sources: [file.body.id], merchant_name: 'Joe' },
      }),
    });
    const exp = await callRoute(deps, 'createExport', {
      body: { id: job.body.id, type: 'catalog', callback_url: 'https://hooks.example.com/catalog' },
    });
    expect(exp.status).toBe(201);
    expect((await callRoute(deps, 'getExport', { id: exp.body.id })).headers['retry-after']).toBe('5');

    await callRoute(deps, 'cancelJob', { id: job.body.id });
    const refused = [
      await callRoute(deps, 'createExport', { body: { id: job.body.id, type: 'catalog' } }),
      await callRoute(deps, 'createExport', {
        body: { id: '00000000-0000-4000-8000-000000000000', type: 'catalog' },
      }),
      await callRoute(deps, 'createExport', { body: { id: job.body.id, type: 'menu' } }),
      await callRoute(deps, 'createFile', { body: { filename: '../etc/passwd', content_type: 'text/csv' } }),
    ];
    expect(refused.map((r) => [r.status, r.body.code])).toEqual([
      [409, 'job_not_exportable'],
      [404, 'not_found'],
      [400, 'validation_failed'],
      [400, 'validation_failed'],
    ]);
  });

  it('for the operations API: queue, draft, replace, complete, fail', async () => {
    const review = aJob({ state: 'in_review', clientId: 'client-b', results: { review_reasons: ['x'] } });
    const other = aJob({ state: 'in_review', clientId: 'client-b', processingType: 'rush' });
    await deps.jobs.create(review);
    await deps.jobs.create(other);
    const ops = { scope: 'operator' as const, clientId: 'ops' };

    const queue = await callRoute(deps, 'opsList', ops);
    expect(queue.body.data.map((j: { id: string }) => j.id)).toEqual([other.id, review.id]);
    expect((await callRoute(deps, 'opsGet', { ...ops, id: review.id })).body.draft_catalog).toBeNull();
    const document = { ...(catalogDocumentExample.value as object), job_id: review.id, job_type: 'new_menu' };
    const invalid = await callRoute(deps, 'opsPut', { ...ops, id: review.id, body: { format_version: 2 } });
    expect(invalid.status).toBe(400);
    expect((await callRoute(deps, 'opsPut', { ...ops, id: review.id, body: document })).status).toBe(200);
    const detail = await callRoute(deps, 'opsGet', { ...ops, id: review.id });
    expect(detail.body.draft_catalog.items).toHaveLength(1);
    expect((await callRoute(deps, 'opsComplete', { ...ops, id: review.id })).body.state).toBe('completed');
    const fail = { code: 'unreadable_sources', message: 'The scan is too blurry.' };
    expect((await callRoute(deps, 'opsFail', { ...ops, id: other.id, body: fail })).body.state).toBe(
      'failed',
    );

    const refused = [
      await callRoute(deps, 'opsFail', { ...ops, id: other.id, body: fail }),
      await callRoute(deps, 'opsPut', { ...ops, id: review.id, body: document }),
      await callRoute(deps, 'opsGet', { ...ops, id: '00000000-0000-4000-8000-000000000000' }),
      await callRoute(deps, 'opsList', {}),
      await callRoute(deps, 'opsFail', { ...ops, id: other.id, body: { code: 'Bad Code', message: ' ' } }),
    ];
    expect(refused.map((r) => r.status)).toEqual([409, 409, 404, 403, 400]);
  });
});
