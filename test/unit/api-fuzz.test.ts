import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { issueKey } from '../../lambdas/core/use-cases/credentials';
import { makeAuthorizerHandler } from '../../lambdas/handlers/authorizer';
import type { ApiHandler } from '../../lambdas/shared/http';
import { createApiGateway, type ProxyHandler } from '../../lib/local/api-gateway';
import { ROUTES } from '../../lib/resources';
import { aJob } from '../helpers/factories';
import { fakeDeps } from '../helpers/fakes';

/**
 * Issue 10's property, over every route of the local API emulation with the real handlers (on in-memory
 * fakes, so that it stays fast): whatever a client sends, the answer is never a 5xx, and every 4xx is a
 * problem+json body carrying the response's request id. Malformed escapes, huge, deep and odd JSON, odd
 * headers, methods and content types, unicode, prototype keys, very long ids.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);

const deps = fakeDeps();
let base: { port: number };
let stop: () => Promise<void>;
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
const known: string[] = [];
const keys = { client: '', operator: '' };

beforeAll(async () => {
  keys.client = (await issueKey(deps, { clientId: 'fuzz-client', scope: 'client' })).api_key;
  keys.operator = (await issueKey(deps, { clientId: 'fuzz-ops', scope: 'operator' })).api_key;
  for (const state of ['initiated', 'processing', 'in_review', 'completed', 'failed'] as const) {
    const job = aJob({ clientId: 'fuzz-client', state });
    await deps.jobs.create(job);
    known.push(job.id);
  }
  const handlers = new Map<string, ProxyHandler>();
  for (const route of ROUTES) {
    const module = (await import(`../../lambdas/handlers/http/${route.handler}`)) as Record<string, unknown>;
    const make = Object.entries(module).find(([name]) => /^make\w+Handler$/.test(name))?.[1] as
      | ((d: typeof deps) => ApiHandler)
      | undefined;
    if (!make) throw new Error(`no handler factory in ${route.handler}`);
    handlers.set(route.handler, make(deps) as ProxyHandler);
  }
  const server = createApiGateway({
    routes: ROUTES,
    handlers,
    authorizer: makeAuthorizerHandler(deps),
    // Throttling has its own tests; here every request should reach the handlers.
    throttle: { rateLimit: 1_000_000, burstLimit: 1_000_000 },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  base = { port: (server.address() as AddressInfo).port };
  stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
});

afterAll(async () => {
  agent.destroy();
  await stop?.();
});

// ---- What a client may send ---------------------------------------------------------------------------

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

// ---- One exchange -------------------------------------------------------------------------------------

interface Sent {
  readonly method: string;
  readonly target: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/**
 * One request and its answer. A body is sent with its length: Node's client sends the body of a HEAD, GET
 * or DELETE without one, and any HTTP/1.1 server then reads those bytes as the next request on the
 * connection (and answers it too, which the client takes for a second answer to its one request).
 */
const send = (sent: Sent): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const framing = sent.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(sent.body)) };
    const req = request(
      {
        host: '127.0.0.1',
        port: base.port,
        method: sent.method,
        path: sent.target,
        headers: { ...sent.headers, ...framing },
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(sent.body);
  });

/** `arbitrary` once in `1 + odds` draws; undefined the other times. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, odds: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: odds, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

/** Built once the seeded records exist (the generators pick their ids). */
const exchanges = () => {
  /** Characters Node's client lets through in a request target (0x21-0xff). */
  const targetChar = fc.integer({ min: 0x21, max: 0xff }).map((c) => String.fromCharCode(c));
  /** A header value Node sends as it is: latin-1 without control characters. */
  const headerText = fc.string({
    unit: fc
      .integer({ min: 0x20, max: 0xff })
      .filter((c) => c !== 0x7f)
      .map((c) => String.fromCharCode(c)),
    maxLength: 60,
  });

  const id = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...known) },
    fc.constantFrom(...known).map((k) => k.toUpperCase()),
    fc.uuid().map(String),
    fc.constantFrom(
      '%E0%A4%A',
      '%',
      '%zz',
      '%C0%80',
      '%FF%FE',
      '%00',
      '%2F',
      '..',
      '.',
      'null',
      '%25',
      '%E2%80%AE',
    ),
    fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent),
    fc.string({ unit: targetChar, maxLength: 30 }).map((t) => t.replace(/[/?#]/g, '')),
    fc.integer({ min: 1_000, max: 12_000 }).map((n) => 'a'.repeat(n)),
    fc.integer({ min: 17_000, max: 40_000 }).map((n) => '9'.repeat(n)),
  );

  const oddPath = fc.oneof(
    fc.constantFrom(
      '/',
      '/v1',
      '/v1/',
      '/v1/jobs/',
      '//v1/jobs',
      '/v1/jobs/x/y/z',
      '/V1/JOBS',
      '/v1/ops',
      '/v1/jobs/%2e%2e',
    ),
    fc
      .array(fc.string({ unit: targetChar, maxLength: 12 }), { maxLength: 5 })
      .map((parts) => `/${parts.join('/')}`),
  );

  const queryValue = fc.oneof(
    fc.constantFrom(
      'initiated',
      'completed',
      'in_review',
      'new_menu',
      '0',
      '-1',
      '100',
      '101',
      '1e3',
      'NaN',
      '%E0%A4%A',
      '',
      '%',
    ),
    fc.string({ maxLength: 20 }).map(encodeURIComponent),
    fc.integer({ min: 2_000, max: 3_000 }).map((n) => 'c'.repeat(n)),
  );
  const query = fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    fc
      .array(
        fc.tuple(
          fc.constantFrom('state', 'job_type', 'limit', 'cursor', 'x', '__proto__', 'constructor'),
          queryValue,
        ),
        {
          maxLength: 4,
        },
      )
      .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
  );

  const method = fc.constantFrom(
    'GET',
    'POST',
    'PUT',
    'DELETE',
    'PATCH',
    'HEAD',
    'OPTIONS',
    'FOO',
    'M-SEARCH',
  );

  const authorization = fc.oneof(
    fc.constantFrom('client', 'operator', 'none'),
    headerText,
    headerText.map((k) => `Token api_key=${k}`),
    fc.constant('Token api_key=cjk_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'),
  );

  const contentType = fc.oneof(
    fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/problem+json',
      'application/merge-patch+json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json;;;',
      'none',
    ),
    headerText,
  );

  // ---- Bodies: each route's own, valid or nearly, and anything at all ----

  const nested = (levels: number, leaf: string, open = '{"a":', close = '}') =>
    `${open.repeat(levels)}${leaf}${close.repeat(levels)}`;
  const oddNumber = fc.constantFrom(
    '1e400',
    '-1e400',
    '9007199254740993',
    '12345678901234567890',
    '1e-400',
    '0.10000000000000000001',
    '-0',
    '1E2',
    '9007199254740991',
  );
  const oddKey = fc.oneof(
    fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty',
      '',
      '\u0000',
      '\ud800',
      '~/',
    ),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
  );
  /** Raw JSON text for a job's client_mappings or metadata. */
  const oddObject = fc.oneof(
    fc.integer({ min: 1, max: 1500 }).map((n) => nested(n, '1')),
    fc.integer({ min: 1, max: 200 }).map((n) => nested(n, '[]', '[', ']')),
    fc.tuple(oddKey, oddNumber).map(([k, v]) => `{${JSON.stringify(k)}:${v}}`),
    fc.tuple(oddKey, oddKey).map(([k, k2]) => `{${JSON.stringify(k)}:{${JSON.stringify(k2)}:"v"}}`),
    fc.dictionary(oddKey, fc.string({ maxLength: 600 }), { maxKeys: 60 }).map((d) => JSON.stringify(d)),
    fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)),
  );

  const jobBody = fc
    .record({
      jobType: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom('new_menu', 'new_retail_catalog') },
        fc.constantFrom('retail_image_mapping', 'other', ''),
      ),
      processing: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom('rush', 'standard') },
        fc.constant('RUSH'),
      ),
      sources: fc.oneof(
        { weight: 6, arbitrary: fc.constant('["https://merchant.example.com/menu.csv"]') },
        fc.array(fc.webUrl(), { minLength: 1, maxLength: 60 }).map((a) => JSON.stringify(a)),
        fc.constantFrom(...known).map((k) => `["${k}"]`),
        fc.constantFrom(
          '[]',
          '"x"',
          '["http://169.254.169.254/"]',
          '["http://[::a9fe:a9fe]/"]',
          '["ftp://x/y"]',
          `["https://x.example/${'h'.repeat(3000)}"]`,
        ),
      ),
      name: fc.oneof(
        { weight: 6, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }) },
        fc.constantFrom('', ' ', 'x'.repeat(300)),
      ),
      mappings: sometimes(oddObject, 1),
      metadata: sometimes(oddObject, 1),
      extra: sometimes(
        fc.constantFrom(
          ',"language":"xx_yy"',
          ',"language":"fr_ca"',
          ',"image_sources":["https://cdn.example.com/a.png"]',
          ',"unknown":1',
        ),
        3,
      ),
    })
    .map(
      (b) =>
        `{"job":{"job_type":${JSON.stringify(b.jobType)},"processing_type":${JSON.stringify(b.processing)},` +
        `"job_data":{"catalog_sources":${b.sources},"merchant_name":${JSON.stringify(b.name)}` +
        `${b.mappings ? `,"client_mappings":${b.mappings}` : ''}${b.extra ?? ''}}` +
        `${b.metadata ? `,"metadata":${b.metadata}` : ''}}}`,
    );
  const exportBody = fc
    .tuple(
      id,
      fc.constantFrom('catalog', 'catalog', 'other'),
      sometimes(fc.oneof(fc.webUrl(), fc.constantFrom('https://[::127.0.0.1]/h', 'https://localhost./h')), 1),
    )
    .map(([i, type, cb]) =>
      JSON.stringify({ id: decodeURIComponentSafe(i), type, ...(cb ? { callback_url: cb } : {}) }),
    );
  const fileBody = fc
    .record({
      filename: fc.oneof(fc.constant('menu.csv'), fc.string({ unit: 'grapheme', maxLength: 40 })),
      content_type: fc.oneof(fc.constant('text/csv'), headerText),
    })
    .map((r) => JSON.stringify(r));
  const failBody = fc
    .record({
      code: fc.oneof(fc.constant('bad_menu'), fc.string({ maxLength: 20 })),
      message: fc.string({ unit: 'grapheme', maxLength: 50 }),
    })
    .map((r) => JSON.stringify(r));
  const catalogBody = fc.oneof(
    fc.constant('{"format_version":2,"categories":[],"items":[],"modifier_groups":[]}'),
    fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify({ format_version: 2, items: v })),
  );
  const anyBody = fc.oneof(
    fc.jsonValue({ maxDepth: 8 }).map((v) => JSON.stringify(v)),
    oddObject,
    fc.string({ unit: 'grapheme', maxLength: 100 }),
    fc.constantFrom(
      '',
      ' ',
      '{',
      '{"job":',
      'null',
      '[]',
      '"x"',
      '1e400',
      '{"job":null}',
      '\ufeff{}',
      '{"a":1,"a":2}',
    ),
    fc.integer({ min: 1_000, max: 100_000 }).map((n) => nested(n, '0', '[', ']')),
  );
  const ownBody: Record<string, fc.Arbitrary<string | undefined>> = {
    'create-job': jobBody,
    'create-export': exportBody,
    'create-file': fileBody,
    'ops-fail-job': failBody,
    'ops-put-catalog': catalogBody,
  };
  const tooLarge = fc.constant(`{"job":"${'x'.repeat(1024 * 1024 + 10)}"}`);

  const extraHeaders = fc.dictionary(
    fc.constantFrom(
      'idempotency-key',
      'x-forwarded-for',
      'accept',
      'accept-encoding',
      'x-request-id',
      'cookie',
      '__proto__',
    ),
    headerText,
    { maxKeys: 3 },
  );

  // ---- One request: mostly a route as a client would call it, with one thing or more odd about it ----

  return fc
    .record({
      route: fc.constantFrom(...ROUTES),
      id,
      oddPath: sometimes(oddPath, 8),
      query,
      method: sometimes(method, 6),
      authorization: sometimes(authorization, 4),
      contentType: sometimes(contentType, 6),
      bodyKind: fc.constantFrom('own', 'own', 'own', 'any', 'none', 'tooLarge'),
      extra: extraHeaders,
    })
    .chain((r) => {
      const own = ownBody[r.route.handler] ?? fc.constant(undefined);
      const body = {
        own,
        any: anyBody,
        none: fc.constant(undefined),
        tooLarge: r.bodyKind === 'tooLarge' ? fc.oneof({ weight: 30, arbitrary: own }, tooLarge) : own,
      }[r.bodyKind]!;
      return body.map((text): Sent => {
        const headers: Record<string, string> = { ...(r.extra as Record<string, string>) };
        const auth = r.authorization ?? r.route.scope;
        if (auth === 'client' || auth === 'operator') headers.authorization = `Token api_key=${keys[auth]}`;
        else if (auth !== 'none') headers.authorization = auth;
        const type = r.contentType ?? 'application/json';
        if (type !== 'none') headers['content-type'] = type;
        const target = `${r.oddPath ?? r.route.path.replace('{id}', r.id)}${r.query}`;
        return {
          method: r.method ?? r.route.method,
          target,
          headers,
          ...(text === undefined ? {} : { body: text }),
        };
      });
    });
};

describe(`the API never answers 5xx, and every 4xx is problem+json with its request id (${RUNS} requests)`, () => {
  it('holds for every route, whatever is sent', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(exchanges(), async (sent) => {
        const answer = await send(sent);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const requestId = answer.headers['x-request-id'];
        expect(answer.status).toBeLessThan(500);
        expect(typeof requestId).toBe('string');
        if (answer.status >= 400 && sent.method !== 'HEAD') {
          expect(answer.headers['content-type']).toBe('application/problem+json');
          const problem = JSON.parse(answer.text) as Record<string, unknown>;
          expect(problem).toMatchObject({ request_id: requestId, code: expect.any(String) });
          if ('status' in problem) expect(problem.status).toBe(answer.status);
        }
      }),
      { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) },
    );
    // Every kind of answer was met: success, refusal of the body, of the key, of the path, of the method.
    const met = Object.fromEntries(statuses);
    for (const status of [200, 201, 400, 401, 403, 404, 405, 413, 415]) {
      expect({ status, met: met[status] ?? 0, all: met }).not.toMatchObject({ met: 0 });
    }
    if (process.env.FUZZ_DEBUG) console.log('statuses met', met);
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    expect(total).toBe(RUNS);
  }, 600_000);
});

// Keeps the generated ids honest: the seeded jobs exist, under the client that owns them.
test('the seeded jobs belong to the fuzzing client', async () => {
  expect(await deps.jobs.get('fuzz-client', known[0] ?? randomUUID())).toBeDefined();
});
