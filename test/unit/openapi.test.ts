import { readFileSync } from 'node:fs';
import path from 'node:path';
import type * as z from 'zod';
import {
  type ExportRecord,
  type ExportResource,
  exportResource,
  type FileResource,
  fileResource,
  type JobResource,
  jobResource,
  type Problem,
  problem,
} from '../../lambdas/core/model';
import { createJobRequestSchema } from '../../lambdas/core/schemas/job';
import {
  exportEventSchema,
  exportResourceSchema,
  type fileResourceSchema,
  jobResourceSchema,
  type opsJobSchema,
  problemBodySchema,
  type storedProblemSchema,
} from '../../lambdas/core/schemas/responses';
import { opsJobResource } from '../../lambdas/core/use-cases/operations';
import { exportEvent } from '../../lambdas/core/webhooks';
import { toProblem } from '../../lambdas/shared/problem';
import { buildOpenApiDocument, serializeOpenApiDocument } from '../../lib/openapi/document';
import { ROUTES } from '../../lib/resources';
import { aJob, aJobRequest, withJobData } from '../helpers/factories';
import { OpenApiContract } from '../helpers/openapi-contract';

// biome-ignore lint/suspicious/noExplicitAny: the document is plain JSON
type Json = any;

const committedPath = path.join(process.cwd(), 'docs', 'openapi.json');
const document: Json = buildOpenApiDocument();
const contract = new OpenApiContract(document);

/** Compile-time: the response schemas describe exactly the types model.ts produces (both directions). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <T extends true>(value: T): T => value;
agree<Same<z.infer<typeof jobResourceSchema>, JobResource>>(true);
agree<Same<z.infer<typeof exportResourceSchema>, ExportResource>>(true);
agree<Same<z.infer<typeof fileResourceSchema>, FileResource>>(true);
agree<Same<z.infer<typeof storedProblemSchema>, Problem>>(true);
agree<Same<z.infer<typeof opsJobSchema>, ReturnType<typeof opsJobResource>>>(true);

const operations = (): [string, string, Json][] =>
  Object.entries<Json>(document.paths).flatMap(([p, item]) =>
    Object.entries<Json>(item).map(([method, op]): [string, string, Json] => [method, p, op]),
  );

describe('docs/openapi.json', () => {
  it('is what `npm run openapi` generates from the code (run it after changing routes or schemas)', () => {
    const committed = readFileSync(committedPath, 'utf8');
    const stale = committed !== serializeOpenApiDocument(buildOpenApiDocument());
    expect(stale ? 'docs/openapi.json is stale: run `npm run openapi` and commit it' : 'up to date').toBe(
      'up to date',
    );
  });

  it('is generated deterministically', () => {
    expect(serializeOpenApiDocument(buildOpenApiDocument())).toBe(serializeOpenApiDocument(document));
  });
});

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with the Token api_key security scheme', () => {
    expect(document.openapi).toBe('3.1.0');
    for (const scheme of Object.values<Json>(document.components.securitySchemes)) {
      expect(scheme).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
      expect(scheme.description).toContain('Token api_key=');
    }
  });

  it('has one operation per route of ROUTES, and nothing else', () => {
    const documented = operations()
      .map(([method, p]) => `${method.toUpperCase()} ${p}`)
      .sort();
    expect(documented).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    const ids = operations().map(([, , op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('secures each route with the key scope the route needs', () => {
    for (const route of ROUTES) {
      const op = document.paths[route.path][route.method.toLowerCase()];
      expect(op.security).toEqual([{ [route.scope === 'operator' ? 'OperatorKey' : 'ClientKey']: [] }]);
    }
  });

  it('documents the errors every route can answer, as problem+json', () => {
    for (const [method, p, op] of operations()) {
      const statuses = Object.keys(op.responses);
      expect(statuses).toEqual(expect.arrayContaining(['401', '403', '429', '500', '503']));
      if (op.requestBody) expect(statuses).toEqual(expect.arrayContaining(['400', '413', '415']));
      if (p.includes('{id}')) expect(statuses).toContain('404');
      for (const status of statuses.filter((s) => s >= '400')) {
        const response = op.responses[status].$ref
          ? document.components.responses[op.responses[status].$ref.split('/').pop()]
          : op.responses[status];
        expect(Object.keys(response.content)).toEqual(['application/problem+json']);
        const problemJson = response.content['application/problem+json'];
        expect(problemJson.schema).toEqual({ $ref: '#/components/schemas/Problem' });
        // Every example of the response is a problem of that very status.
        const shown = Object.values<Json>(problemJson.examples).map(
          (e) => `${method} ${p} ${e.value.status}`,
        );
        expect(shown.length).toBeGreaterThan(0);
        expect(shown).toEqual(shown.map(() => `${method} ${p} ${status}`));
      }
    }
    expect(Object.keys(document.paths['/v1/jobs/{id}/cancel'].post.responses)).toContain('409');
    expect(Object.keys(document.paths['/v1/data_exports'].post.responses)).toEqual(
      expect.arrayContaining(['404', '409', '422']),
    );
  });

  it('answers 201 with Location on the creates, and Retry-After while polling', () => {
    for (const p of ['/v1/jobs', '/v1/data_exports', '/v1/files']) {
      expect(document.paths[p].post.responses['201'].headers.Location).toEqual({
        $ref: '#/components/headers/Location',
      });
    }
    for (const p of ['/v1/jobs/{id}', '/v1/data_exports/{id}']) {
      expect(document.paths[p].get.responses['200'].headers['Retry-After']).toMatchObject({
        schema: { type: 'integer' },
      });
    }
  });

  it('takes an Idempotency-Key on the two creates, and only there', () => {
    const withKey = operations()
      .filter(([, , op]) => (op.parameters ?? []).some((p: Json) => p.$ref?.endsWith('/IdempotencyKey')))
      .map(([method, p]) => `${method} ${p}`);
    expect(withKey.sort()).toEqual(['post /v1/data_exports', 'post /v1/jobs']);
    expect(document.components.parameters.IdempotencyKey).toMatchObject({
      name: 'Idempotency-Key',
      in: 'header',
      schema: { maxLength: 255 },
    });
  });

  it('describes the export callback with the Standard Webhooks headers and the event body', () => {
    const callback =
      document.paths['/v1/data_exports'].post.callbacks.dataExportEvent['{$request.body#/callback_url}'].post;
    expect(callback.parameters.map((p: Json) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    expect(callback.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/DataExportEvent',
    });
  });

  it('has query parameters generated from the list schemas', () => {
    const names = document.paths['/v1/jobs'].get.parameters.map((p: Json) => p.name);
    expect(names).toEqual(['state', 'job_type', 'limit', 'cursor']);
    const limit = document.paths['/v1/jobs'].get.parameters.find((p: Json) => p.name === 'limit');
    expect(limit).toMatchObject({ required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } });
  });

  it('has examples of all three job types from the seed', () => {
    const examples = document.paths['/v1/jobs'].post.requestBody.content['application/json'].examples;
    expect(Object.keys(examples)).toEqual(['new_menu', 'new_retail_catalog', 'retail_image_mapping']);
    for (const example of Object.values<Json>(examples)) {
      expect(createJobRequestSchema.safeParse(example.value).success).toBe(true);
    }
    const created = document.paths['/v1/jobs'].post.responses['201'].content['application/json'].examples;
    for (const example of Object.values<Json>(created)) {
      expect(example.value).toMatchObject({ state: 'initiated', results: {} });
    }
  });

  it('has every example valid against its schema', () => {
    const checked: string[] = [];
    const walk = (node: Json, pointer: string) => {
      if (!node || typeof node !== 'object') return;
      if (
        node.schema &&
        node.examples &&
        typeof node.examples === 'object' &&
        !Array.isArray(node.examples)
      ) {
        for (const [name, example] of Object.entries<Json>(node.examples)) {
          const error = contract.validateSchema(`${pointer}/schema`, example.value);
          if (error) throw new Error(`example ${pointer}/examples/${name}: ${error}`);
          checked.push(name);
        }
      }
      for (const [key, value] of Object.entries<Json>(node)) {
        walk(value, `${pointer}/${encodeURIComponent(key.replaceAll('~', '~0').replaceAll('/', '~1'))}`);
      }
    };
    walk(document.paths, '/paths');
    expect(checked.length).toBeGreaterThan(40);
  });

  it('describes request bodies as the handlers parse them', () => {
    const cases: [unknown, boolean][] = [
      [aJobRequest('new_menu'), true],
      [aJobRequest('retail_image_mapping'), true],
      [withJobData('new_menu', { image_sources: ['https://cdn.example.com/a.jpg'] }), false],
      [withJobData('retail_image_mapping', { language: 'en_us' }), false],
      [withJobData('new_menu', { language: 'xx_yy' }), false],
      [withJobData('new_menu', { merchant_name: undefined }), false],
      [withJobData('new_menu', { catalog_sources: [] }), false],
      [{ ...aJobRequest(), extra: 1 }, false],
      [aJobRequest('new_menu', { processing_type: 'slow' }), false],
    ];
    for (const [body, valid] of cases) {
      expect([body, contract.schemaErrors('CreateJobRequest', body) === undefined]).toEqual([body, valid]);
      expect([body, createJobRequestSchema.safeParse(body).success]).toEqual([body, valid]);
    }
  });
});

describe('the response schemas', () => {
  const completedExport: ExportRecord = {
    id: '5e8a7c30-2b1f-4d6e-a9c4-7f0d1e3b6a25',
    clientId: 'client-a',
    jobId: '3f1c9a52-7d4e-4b8a-9c61-2e5f8a0b7d13',
    jobType: 'new_menu',
    state: 'completed',
    version: 3,
    callbackUrl: 'https://hooks.example.com/catalog',
    clientMappings: { items: { 'PZ-1': 'x' } },
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:05.000Z',
    completedAt: '2026-11-22T10:00:05.000Z',
    objectKey: 'exports/client-a/x.json',
    file: {
      content_type: 'application/json',
      size_bytes: 10,
      checksum_sha256: 'a'.repeat(64),
      item_count: 1,
    },
    callback: {
      state: 'delivered',
      attempts: 1,
      last_status: 200,
      last_attempt_at: '2026-11-22T10:00:06.000Z',
    },
    error: null,
  };
  const delivery = {
    url: 'https://exports.example.test/x.json?sig=1',
    expiresAt: '2026-11-22T11:00:05.000Z',
  };

  it.each([
    ['a new job', aJob()],
    [
      'a failed image-mapping job',
      aJob({
        jobType: 'retail_image_mapping',
        jobData: {
          catalog_sources: ['https://merchant.example.com/p.csv'],
          merchant_name: 'Corner',
          image_sources: ['https://cdn.example.com/0123.jpg'],
        } as never,
        state: 'failed',
        completedAt: '2026-11-22T10:01:00.000Z',
        error: problem('source_unreadable', 'No source could be read', 'HTTP 404'),
        results: { review_reasons: ['x'], mapped_count: 0 },
      }),
    ],
  ])('accept what jobResource produces for %s (Zod and the document)', (_what, job) => {
    const body = jobResource(job);
    expect(jobResourceSchema.parse(body)).toEqual(body);
    expect(contract.schemaErrors('Job', body)).toBeUndefined();
    expect(contract.schemaErrors('OpsJob', opsJobResource(job))).toBeUndefined();
  });

  it('accept exports before and after completion, and the callback event', () => {
    const initiated = exportResource(
      {
        ...completedExport,
        state: 'initiated',
        completedAt: null,
        file: null,
        callback: null,
        objectKey: null,
      },
      null,
    );
    const completed = exportResource(completedExport, delivery);
    for (const body of [initiated, completed]) {
      expect(exportResourceSchema.parse(body)).toEqual(body);
      expect(contract.schemaErrors('DataExport', body)).toBeUndefined();
    }
    const event = exportEvent(completed);
    expect(exportEventSchema.parse(event)).toEqual(event);
    expect(contract.schemaErrors('DataExportEvent', event)).toBeUndefined();
  });

  it('reject a field the model does not produce', () => {
    const body = { ...jobResource(aJob()), surprise: true };
    expect(jobResourceSchema.safeParse(body).success).toBe(false);
    expect(contract.schemaErrors('Job', body)).toContain('additional');
  });

  it('accept files and problem bodies as the service renders them', () => {
    const file = fileResource(
      {
        id: '9d4b2f17-6e8a-4c05-b3d1-0a7e5c2f8b96',
        clientId: 'client-a',
        state: 'pending',
        filename: 'menu.csv',
        contentType: 'text/csv',
        objectKey: 'uploads/client-a/x',
        sizeBytes: null,
        createdAt: '2026-11-22T10:00:00.000Z',
        updatedAt: '2026-11-22T10:00:00.000Z',
        uploadExpiresAt: '2026-11-22T10:15:00.000Z',
      },
      {
        putUrl: 'https://catalog-uploads.s3.us-east-1.amazonaws.com/uploads/client-a/x?X-Amz-Signature=ab',
        putHeaders: { 'content-type': 'text/csv', 'if-none-match': '*' },
        url: 'https://catalog-uploads.s3.us-east-1.amazonaws.com/',
        fields: { key: 'uploads/client-a/x', 'Content-Type': 'text/csv', Policy: 'e30=' },
        maxBytes: 100 * 1024 * 1024,
        expiresAt: '2026-11-22T10:15:00.000Z',
      },
    );
    expect(contract.schemaErrors('File', file)).toBeUndefined();
    for (const error of [new Error('boom'), Object.assign(new Error('x'), { name: 'Other' })]) {
      const body = toProblem(error, 'req-1').body;
      expect(problemBodySchema.parse(body)).toEqual(body);
      expect(contract.schemaErrors('Problem', body)).toBeUndefined();
    }
  });
});
