import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { JSON_MAX_DEPTH } from '../../lambdas/core/json-limits';
import { CLIENT_MAPPINGS_MAX_DEPTH, createJobRequestSchema } from '../../lambdas/core/schemas/job';
import { fieldErrors } from '../../lambdas/core/validation';
import { makeCancelJobHandler } from '../../lambdas/handlers/http/cancel-job';
import { makeCreateExportHandler } from '../../lambdas/handlers/http/create-export';
import { makeCreateFileHandler } from '../../lambdas/handlers/http/create-file';
import { makeCreateJobHandler } from '../../lambdas/handlers/http/create-job';
import { makeGetExportHandler } from '../../lambdas/handlers/http/get-export';
import { makeGetFileHandler } from '../../lambdas/handlers/http/get-file';
import { makeGetJobHandler } from '../../lambdas/handlers/http/get-job';
import { makeListJobsHandler } from '../../lambdas/handlers/http/list-jobs';
import { makeOpsGetJobHandler } from '../../lambdas/handlers/http/ops-get-job';
import type { ApiHandler } from '../../lambdas/shared/http';
import { aJob, apiEvent, lambdaContext, withJobData } from '../helpers/factories';
import { type FakeDeps, fakeDeps } from '../helpers/fakes';

const call = async (handler: ApiHandler, event: APIGatewayProxyEvent) => {
  const result = (await handler(event, lambdaContext())) as APIGatewayProxyResult & {
    headers: Record<string, string>;
  };
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are read as a client reads them
  return { ...result, json: JSON.parse(result.body) as any };
};

/** POST /v1/jobs with a raw body: limits are judged on the text, so it is written by hand here. */
const postJob = (deps: FakeDeps, rawBody: string) => call(makeCreateJobHandler(deps), apiEvent({ rawBody }));

/** A valid job request whose job_data carries `extra` (raw JSON members). */
const jobText = (jobData: string, jobExtra = '') =>
  `{"job":{"job_type":"new_menu","processing_type":"rush","job_data":{"catalog_sources":["https://merchant.example.com/m.csv"],"merchant_name":"Joe"${jobData}}${jobExtra}}}`;

/** `{"a":{"a":...}}`: `levels` levels of maps around `leaf`. */
const nested = (levels: number, leaf = '1') => `${'{"a":'.repeat(levels)}${leaf}${'}'.repeat(levels)}`;

const expectProblem = (res: Awaited<ReturnType<typeof call>>, status: number) => {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toBe('application/problem+json');
  expect(res.json.request_id).toBe(res.headers['x-request-id']);
  expect(res.json.request_id).toMatch(/^req-/);
};

describe('SPEC 9 at the edge: nesting, numbers and keys of request bodies', () => {
  it('refuses client_mappings nested 1,000 deep with a 400 naming the field, and stores nothing', async () => {
    const deps = fakeDeps();
    const res = await postJob(deps, jobText(`,"client_mappings":${nested(1000)}`));
    expectProblem(res, 400);
    expect(res.json.errors).toEqual([
      {
        // The body's map at level 32 is the first that would hold a 33rd level.
        pointer: `/job/job_data/client_mappings${'/a'.repeat(JSON_MAX_DEPTH - 3)}`,
        code: 'too_deep',
        message: expect.stringContaining('32 levels'),
      },
    ]);
    expect(deps.jobs.items.size).toBe(0);
    expect(deps.queue.jobs).toEqual([]);
  });

  it('accepts client_mappings as deep as a 32-level body allows', async () => {
    const deps = fakeDeps();
    // Body levels: job 1, job_data 2, client_mappings 3; its innermost scalar at level 32.
    const res = await postJob(deps, jobText(`,"client_mappings":${nested(JSON_MAX_DEPTH - 3)}`));
    expect(res.statusCode).toBe(201);
  });

  it.each([
    ['9007199254740993', 'number_out_of_range'],
    ['12345678901234567890', 'number_out_of_range'],
    ['1e400', 'number_out_of_range'],
    ['-1e400', 'number_out_of_range'],
    ['9007199254740991.4', 'number_not_exact'],
    ['1e-400', 'number_not_exact'],
  ])('refuses %s in client_mappings with a 400 at the number (%s)', async (number, code) => {
    const deps = fakeDeps();
    const res = await postJob(deps, jobText(`,"client_mappings":{"items":{"Cola":[1,${number}]}}`));
    expectProblem(res, 400);
    expect(res.json.errors).toEqual([
      expect.objectContaining({ pointer: '/job/job_data/client_mappings/items/Cola/1', code }),
    ]);
  });

  it('keeps safe numbers exactly', async () => {
    const deps = fakeDeps();
    const res = await postJob(deps, jobText(',"client_mappings":{"n":[9007199254740991,-0.5,1e2]}'));
    expect(res.statusCode).toBe(201);
    expect(res.json.job_data.client_mappings).toEqual({ n: [9007199254740991, -0.5, 100] });
  });

  it('refuses __proto__ keys anywhere in the body rather than lose them', async () => {
    const deps = fakeDeps();
    for (const [text, pointer] of [
      [jobText(',"client_mappings":{"__proto__":{"x":1}}'), '/job/job_data/client_mappings/__proto__'],
      [
        jobText(',"client_mappings":{"a":{"__proto__":{"x":1}}}'),
        '/job/job_data/client_mappings/a/__proto__',
      ],
      [jobText('', ',"metadata":{"\\u005f_proto__":"x"}'), '/job/metadata/__proto__'],
    ] as const) {
      const res = await postJob(deps, text);
      expectProblem(res, 400);
      expect(res.json.errors).toEqual([expect.objectContaining({ pointer, code: 'reserved_key' })]);
    }
    expect(deps.jobs.items.size).toBe(0);
  });

  it('accepts "constructor" and other ordinary keys that name Object members', async () => {
    const deps = fakeDeps();
    const res = await postJob(
      deps,
      jobText(
        ',"client_mappings":{"constructor":{"name":"Set"},"items":{"toString":"x","hasOwnProperty":1}}',
        ',"metadata":{"constructor":"c","prototype":"p"}',
      ),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json.metadata).toEqual({ constructor: 'c', prototype: 'p' });
    expect(res.json.job_data.client_mappings).toEqual({
      constructor: { name: 'Set' },
      items: { toString: 'x', hasOwnProperty: 1 },
    });
  });

  it('judges a base64-encoded body by its decoded text', async () => {
    const deps = fakeDeps();
    const body = Buffer.from(jobText(',"client_mappings":{"n":1e400}')).toString('base64');
    const res = await call(makeCreateJobHandler(deps), {
      ...apiEvent({ rawBody: body }),
      isBase64Encoded: true,
    });
    expectProblem(res, 400);
    expect(res.json.errors[0].pointer).toBe('/job/job_data/client_mappings/n');
  });
});

describe('client_mappings schema (for callers that do not come through HTTP)', () => {
  const parse = (clientMappings: unknown) => {
    const request = withJobData('new_menu', { client_mappings: clientMappings });
    const result = createJobRequestSchema.safeParse(request);
    return result.success ? [] : fieldErrors(result.error);
  };

  it(`allows ${CLIENT_MAPPINGS_MAX_DEPTH} levels below client_mappings: jobData and client_mappings take 2 of DynamoDB's 32`, () => {
    const deep = (levels: number): unknown => (levels === 0 ? 1 : { a: deep(levels - 1) });
    expect(parse(deep(CLIENT_MAPPINGS_MAX_DEPTH))).toEqual([]);
    expect(parse(deep(CLIENT_MAPPINGS_MAX_DEPTH + 1))).toEqual([
      expect.objectContaining({
        pointer: `/job/job_data/client_mappings${'/a'.repeat(CLIENT_MAPPINGS_MAX_DEPTH)}`,
        code: 'too_deep',
      }),
    ]);
  });

  it('refuses non-finite and unsafe numbers and nested __proto__ keys', () => {
    expect(parse({ a: Number.POSITIVE_INFINITY, b: 2 ** 60, c: JSON.parse('{"__proto__":1}') })).toEqual([
      expect.objectContaining({ pointer: '/job/job_data/client_mappings/a', code: 'number_out_of_range' }),
      expect.objectContaining({ pointer: '/job/job_data/client_mappings/b', code: 'number_out_of_range' }),
      expect.objectContaining({ pointer: '/job/job_data/client_mappings/c/__proto__', code: 'reserved_key' }),
    ]);
  });
});

describe('path parameters and ids', () => {
  const routes: [string, string, (deps: FakeDeps) => ApiHandler, 'client' | 'operator'][] = [
    ['GET', '/v1/jobs/{id}', makeGetJobHandler, 'client'],
    ['POST', '/v1/jobs/{id}/cancel', makeCancelJobHandler, 'client'],
    ['GET', '/v1/data_exports/{id}', makeGetExportHandler, 'client'],
    ['GET', '/v1/files/{id}', makeGetFileHandler, 'client'],
    ['GET', '/v1/ops/jobs/{id}', makeOpsGetJobHandler, 'operator'],
  ];

  it.each(routes)(
    '%s %s: a malformed percent-escape is a 400 problem with a request id',
    async (method, resource, make, scope) => {
      for (const id of ['%E0%A4%A', '%', '%zz', '%C0%80', `${'%FF'.repeat(2000)}`]) {
        const res = await call(
          make(fakeDeps()),
          apiEvent({ method, resource, pathParameters: { id }, scope }),
        );
        expectProblem(res, 400);
        expect(res.json.errors).toEqual([
          expect.objectContaining({ pointer: '/path/id', code: 'malformed_path' }),
        ]);
      }
    },
  );

  it('finds one’s own job by its id in upper case or percent-encoded, and never another client’s', async () => {
    const deps = fakeDeps();
    const mine = aJob();
    const theirs = aJob({ clientId: 'client-b' });
    await deps.jobs.create(mine);
    await deps.jobs.create(theirs);
    const get = (id: string) =>
      call(
        makeGetJobHandler(deps),
        apiEvent({ method: 'GET', resource: '/v1/jobs/{id}', pathParameters: { id } }),
      );
    expect((await get(mine.id.toUpperCase())).json.id).toBe(mine.id);
    expect((await get(mine.id.replaceAll('-', '%2D'))).json.id).toBe(mine.id);
    expect((await get(theirs.id.toUpperCase())).statusCode).toBe(404);
  });

  it('takes upper-case UUIDs in bodies too: an export’s job id, an uploaded file in catalog_sources', async () => {
    const deps = fakeDeps();
    const job = aJob();
    await deps.jobs.create(job);
    const exportRes = await call(
      makeCreateExportHandler(deps),
      apiEvent({ resource: '/v1/data_exports', body: { id: job.id.toUpperCase(), type: 'catalog' } }),
    );
    expect(exportRes.statusCode).toBe(201);
    expect(exportRes.json.job_id).toBe(job.id);

    const file = await call(
      makeCreateFileHandler(deps),
      apiEvent({ resource: '/v1/files', body: { filename: 'menu.csv', content_type: 'text/csv' } }),
    );
    deps.uploads.objects.set(`uploads/client-a/${file.json.id}`, Buffer.from('category,name,price\n'));
    const created = await call(
      makeCreateJobHandler(deps),
      apiEvent({ body: withJobData('new_menu', { catalog_sources: [String(file.json.id).toUpperCase()] }) }),
    );
    expect(created.statusCode).toBe(201);
    expect(created.json.job_data.catalog_sources).toEqual([file.json.id]);
  });
});

describe('Content-Type and encoding of request bodies', () => {
  const withType = (deps: FakeDeps, contentType: string, rawBody = jobText('')) =>
    call(makeCreateJobHandler(deps), apiEvent({ rawBody, headers: { 'Content-Type': contentType } }));

  it.each([
    'application/json',
    'APPLICATION/JSON',
    'Application/Json; Charset=UTF-8',
    'application/json ; charset=utf-8',
    'application/json;charset="utf-8"',
    'application/json;',
    'application/merge-patch+json',
  ])('reads JSON sent as %j', async (contentType) => {
    const deps = fakeDeps();
    const res = await withType(deps, contentType);
    expect(res.statusCode).toBe(201);
    expect(deps.jobs.items.size).toBe(1);
  });

  it.each([
    'text/plain',
    'application/json, text/plain',
    'application/jsonx',
    'multipart/form-data; boundary=x',
    '',
  ])('answers 415 to %j and stores nothing', async (contentType) => {
    const deps = fakeDeps();
    const res = await withType(deps, contentType);
    expectProblem(res, 415);
    expect(res.json.code).toBe('unsupported_media_type');
    expect(deps.jobs.items.size).toBe(0);
  });

  it('answers 415 to JSON declared in a charset other than UTF-8, saying why', async () => {
    const deps = fakeDeps();
    const res = await withType(deps, 'application/json; charset=ISO-8859-1');
    expectProblem(res, 415);
    expect(res.json.detail).toContain('UTF-8');
    expect(res.json.detail).toContain('iso-8859-1');
    expect(deps.jobs.items.size).toBe(0);
  });

  it.each(['gzip', 'br, gzip'])('answers 415 to a body sent with Content-Encoding: %s', async (encoding) => {
    const deps = fakeDeps();
    const res = await call(
      makeCreateJobHandler(deps),
      apiEvent({ rawBody: jobText(''), headers: { 'Content-Encoding': encoding } }),
    );
    expectProblem(res, 415);
    expect(res.json.detail).toContain('uncompressed');
    expect(deps.jobs.items.size).toBe(0);
  });

  it('ignores a UTF-8 byte order mark before the JSON', async () => {
    const deps = fakeDeps();
    const res = await withType(deps, 'application/json', `\uFEFF${jobText('')}`);
    expect(res.statusCode).toBe(201);
  });

  it('refuses a base64-encoded body that is not UTF-8 instead of replacing its bytes', async () => {
    const deps = fakeDeps();
    const latin1 = Buffer.from(jobText('').replace('"Joe"', '"Caf\u00e9"'), 'latin1');
    const event = { ...apiEvent({ rawBody: latin1.toString('base64') }), isBase64Encoded: true };
    const res = await call(makeCreateJobHandler(deps), event);
    expectProblem(res, 400);
    expect(res.json.errors).toEqual([expect.objectContaining({ pointer: '', code: 'malformed_json' })]);
    expect(deps.jobs.items.size).toBe(0);
  });
});

describe('repeated query parameters and headers', () => {
  const listWith = (deps: FakeDeps, multi: Record<string, string[]>) =>
    call(makeListJobsHandler(deps), {
      ...apiEvent({
        method: 'GET',
        query: Object.fromEntries(Object.entries(multi).map(([k, v]) => [k, v.at(-1)!])),
      }),
      multiValueQueryStringParameters: multi,
    });

  it('answers 400 to a filter given twice with different values, rather than keep only the last', async () => {
    const deps = fakeDeps();
    await deps.jobs.create(aJob({ clientId: 'client-a', state: 'failed' }));
    const res = await listWith(deps, { state: ['completed', 'failed'], limit: ['1', '2'] });
    expectProblem(res, 400);
    expect(res.json.errors).toEqual([
      { pointer: '/query/state', code: 'repeated', message: 'give this parameter once' },
      { pointer: '/query/limit', code: 'repeated', message: 'give this parameter once' },
    ]);
  });

  it('takes a parameter repeated with the same value', async () => {
    const deps = fakeDeps();
    await deps.jobs.create(aJob({ clientId: 'client-a', state: 'failed' }));
    const res = await listWith(deps, { state: ['failed', 'failed'] });
    expect(res.statusCode).toBe(200);
    expect(res.json.data).toHaveLength(1);
  });

  it('answers 400 to two different Idempotency-Key headers and creates nothing', async () => {
    const deps = fakeDeps();
    const event = apiEvent({ rawBody: jobText(''), headers: { 'Idempotency-Key': 'second' } });
    const res = await call(makeCreateJobHandler(deps), {
      ...event,
      multiValueHeaders: { ...event.multiValueHeaders, 'Idempotency-Key': ['first', 'second'] },
    });
    expectProblem(res, 400);
    expect(res.json.errors).toEqual([
      expect.objectContaining({ pointer: '/headers/idempotency-key', code: 'repeated' }),
    ]);
    expect(deps.jobs.items.size).toBe(0);
  });
});

describe('ambiguous and ill-formed text in request bodies', () => {
  it('answers 400 to a key given twice, rather than let the last one silently win', async () => {
    const deps = fakeDeps();
    const res = await postJob(
      deps,
      jobText('').replace('"job_type":"new_menu"', '"job_type":"new_menu","job_type":"new_retail_catalog"'),
    );
    expectProblem(res, 400);
    expect(res.json.errors).toEqual([
      expect.objectContaining({ pointer: '/job/job_type', code: 'duplicate_key' }),
    ]);
    expect(deps.jobs.items.size).toBe(0);
  });

  it.each([
    [
      'merchant_name',
      ',"merchant_address":"1 Main St"',
      '"Joe"',
      '"Jo\\ud800e"',
      '/job/job_data/merchant_name',
    ],
    ['instructions', ',"instructions":"\\udfff"', '', '', '/job/job_data/instructions'],
    ['a metadata key', '', '', '', '/job/metadata/\udbff'],
  ])('answers 400 to an unpaired surrogate in %s, naming it', async (_field, extra, from, to, pointer) => {
    const deps = fakeDeps();
    const metadata = pointer.startsWith('/job/metadata') ? ',"metadata":{"\\udbff":"x"}' : '';
    const res = await postJob(deps, jobText(extra, metadata).replace(from, to));
    expectProblem(res, 400);
    expect(res.json.errors).toEqual([expect.objectContaining({ pointer, code: 'invalid_unicode' })]);
    expect(deps.jobs.items.size).toBe(0);
  });

  it('keeps NUL, right-to-left marks and astral characters as sent', async () => {
    const deps = fakeDeps();
    const res = await postJob(deps, jobText('').replace('"Joe"', '"Jo\\u0000e \\u202e \\ud83c\\udf55"'));
    expect(res.statusCode).toBe(201);
    expect(res.json.job_data.merchant_name).toBe('Jo\u0000e \u202e 🍕');
  });
});
