import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type CliEnvironment, runCli } from '../../lib/cli/main';
import { FakeClock } from '../helpers/fakes';

/**
 * The command-line client, run in-process against a scripted API (a fake `fetch`) with a fake clock, so
 * that what it sends, how long it waits and what it prints are all visible.
 */

const KEY = 'cjk_live_unit0test0key0000000000000000000';
const BASE = 'http://api.test';
const JOB_ID = '3f1c9a52-7d4e-4b8a-9c61-2e5f8a0b7d13';
const FILE_ID = '9d4b2f17-6e8a-4c05-b3d1-0a7e5c2f8b96';
const EXPORT_ID = '5e8a7c30-2b1f-4d6e-a9c4-7f0d1e3b6a25';

interface Call {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body: string | null;
}

type Answer = { status?: number; body?: unknown; headers?: Record<string, string>; raw?: string };
type Route = { method: string; path: RegExp; answers: Answer[] };

/** A scripted service: each route answers its list of answers in turn, repeating the last one. */
/** A form as `name=value` lines, the file field as `name=<filename> (type) <contents>`. */
const formText = async (form: FormData): Promise<string> => {
  const lines: string[] = [];
  for (const [name, value] of form.entries()) {
    lines.push(
      typeof value === 'string'
        ? `${name}=${value}`
        : `${name}=<${value.name}> (${value.type}) ${await value.text()}`,
    );
  }
  return lines.join('\n');
};

class ScriptedApi {
  readonly calls: Call[] = [];
  private readonly routes: Route[] = [];

  on(method: string, path: RegExp, ...answers: Answer[]): this {
    this.routes.push({ method, path, answers });
    return this;
  }

  readonly fetch = async (input: string, init: RequestInit = {}): Promise<Response> => {
    const method = (init.method ?? 'GET').toUpperCase();
    const body =
      init.body === undefined || init.body === null
        ? null
        : Buffer.isBuffer(init.body)
          ? init.body.toString('utf8')
          : init.body instanceof FormData
            ? await formText(init.body)
            : init.body instanceof ReadableStream
              ? await new Response(init.body).text()
              : String(init.body);
    this.calls.push({ method, url: input, headers: new Headers(init.headers), body });
    const route = this.routes.find((r) => r.method === method && r.path.test(input));
    if (!route) return new Response('no route', { status: 599 });
    const answer = route.answers.length > 1 ? route.answers.shift()! : route.answers[0]!;
    const status = answer.status ?? 200;
    const isProblem = status >= 400;
    const text = answer.raw ?? JSON.stringify(answer.body ?? null);
    return new Response(status === 204 ? null : text, {
      status,
      headers: {
        'content-type':
          answer.raw !== undefined
            ? 'application/octet-stream'
            : isProblem
              ? 'application/problem+json'
              : 'application/json',
        ...answer.headers,
      },
    });
  };

  api(method: string, pathname: string): Call[] {
    return this.calls.filter((c) => c.method === method && c.url.startsWith(`${BASE}${pathname}`));
  }
}

const job = (state: string, extra: Record<string, unknown> = {}) => ({
  id: JOB_ID,
  state,
  processing_type: 'rush',
  results: {},
  job_type: 'new_menu',
  error: null,
  ...extra,
});

const problem = (status: number, code: string, title: string, detail: string, errors?: unknown[]) => ({
  type: `urn:catalog-jobs:problem:${code}`,
  title,
  status,
  detail,
  code,
  request_id: 'req-123',
  ...(errors ? { errors } : {}),
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'catalog-cli-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = async (
  api: ScriptedApi,
  argv: string[],
  options: { env?: Record<string, string>; interactive?: boolean } = {},
) => {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const sleeps: number[] = [];
  const clock = new FakeClock(new Date(1_000_000));
  const environment: CliEnvironment = {
    env: { CATALOG_API_URL: BASE, CATALOG_API_KEY: KEY, ...options.env },
    cwd: dir,
    out: {
      stdout: (t) => stdout.push(t),
      stderr: (t) => stderr.push(t),
      interactive: options.interactive ?? false,
    },
    fetch: api.fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.advance(ms);
    },
    now: () => clock.now().getTime(),
  };
  const code = await runCli(argv, environment);
  const out = stdout.join('');
  const err = stderr.join('');
  return { code, out, err, sleeps, json: () => JSON.parse(out) };
};

describe('catalog (usage)', () => {
  it('prints help, and refuses unknown commands and options with exit code 2', async () => {
    const api = new ScriptedApi();
    const help = await run(api, ['--help']);
    expect([help.code, help.out]).toEqual([0, expect.stringContaining('jobs create')]);
    expect(help.out).toContain('exports create --job <job id> --out catalog.json');
    const commandHelp = await run(api, ['exports', 'create', '--help']);
    expect(commandHelp.out).toContain('Usage: catalog exports create --job <id>');
    expect((await run(api, [])).code).toBe(2);
    const unknown = await run(api, ['jobs', 'explode']);
    expect([unknown.code, unknown.err]).toEqual([
      2,
      expect.stringContaining('unknown command "jobs explode"'),
    ]);
    const badOption = await run(api, ['jobs', 'list', '--colour']);
    expect([badOption.code, badOption.err]).toEqual([
      2,
      expect.stringContaining("Unknown option '--colour'"),
    ]);
    expect(api.calls).toEqual([]);
  });

  it('needs a key, from --key or CATALOG_API_KEY, and never prints it', async () => {
    const api = new ScriptedApi().on('GET', /\/v1\/jobs\//, { body: job('completed') });
    const missing = await run(api, ['jobs', 'get', JOB_ID], { env: { CATALOG_API_KEY: '' } });
    expect([missing.code, missing.err]).toEqual([2, expect.stringContaining('no API key')]);
    expect(api.calls).toEqual([]);
    const flagged = await run(api, ['jobs', 'get', JOB_ID, '--key', 'cjk_live_from_flag_000000000'], {
      env: { CATALOG_API_KEY: '' },
    });
    expect(flagged.code).toBe(0);
    expect(api.calls[0]!.headers.get('authorization')).toBe('Token api_key=cjk_live_from_flag_000000000');
    expect(`${flagged.out}${flagged.err}`).not.toContain('cjk_live_from_flag');
  });

  it('redacts the key even when an answer echoes it', async () => {
    const api = new ScriptedApi().on('GET', /\/v1\/jobs\//, {
      status: 404,
      body: problem(404, 'not_found', 'Not found', `No job for Token api_key=${KEY}`),
    });
    const result = await run(api, ['jobs', 'get', JOB_ID]);
    expect(result.code).toBe(1);
    expect(`${result.out}${result.err}`).not.toContain(KEY);
    expect(result.err).toContain('[redacted]');
  });

  it('appends paths to a base URL with a stage path', async () => {
    const api = new ScriptedApi().on('GET', /./, { body: { data: [], next_cursor: null } });
    await run(api, ['jobs', 'list', '--url', 'https://api.example.test/prod/']);
    expect(api.calls[0]!.url).toBe('https://api.example.test/prod/v1/jobs');
  });
});

describe('catalog jobs', () => {
  it('uploads a local file, passes URLs as they are, and creates the job with an Idempotency-Key', async () => {
    await writeFile(path.join(dir, 'menu.csv'), 'category,name,price\nPizza,Margherita,12.50\n');
    const api = new ScriptedApi()
      .on('POST', /\/v1\/files$/, {
        status: 201,
        body: {
          id: FILE_ID,
          state: 'pending',
          upload_url: 'http://s3.test/uploads/dev/x?X-Amz-Signature=ab',
          upload_headers: { 'content-type': 'text/csv', 'if-none-match': '*' },
          upload_form: {
            url: 'http://s3.test/uploads',
            fields: { key: 'uploads/dev/x', 'Content-Type': 'text/csv', Policy: 'cG9saWN5' },
          },
          size_bytes: null,
        },
      })
      .on('PUT', /^http:\/\/s3\.test\//, { status: 200, raw: '' })
      .on('GET', /\/v1\/files\//, { body: { id: FILE_ID, state: 'uploaded', size_bytes: 42 } })
      .on('POST', /\/v1\/jobs$/, { status: 201, body: job('initiated') });
    const result = await run(api, [
      'jobs',
      'create',
      '--type',
      'new_menu',
      '--source',
      './menu.csv',
      '--source',
      'https://merchant.example.com/menu.csv',
      '--merchant',
      "Joe's Diner",
      '--rush',
      '--metadata',
      'store=42',
    ]);
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ id: JOB_ID, state: 'initiated' });

    expect(api.calls.map((c) => `${c.method} ${c.url.replace(BASE, '')}`)).toEqual([
      'POST /v1/files',
      'PUT http://s3.test/uploads/dev/x?X-Amz-Signature=ab',
      `GET /v1/files/${FILE_ID}`,
      'POST /v1/jobs',
    ]);
    const [fileCall, upload, , create] = api.calls;
    expect(JSON.parse(fileCall!.body!)).toEqual({ filename: 'menu.csv', content_type: 'text/csv' });
    expect(upload!.headers.get('authorization')).toBeNull();
    // The signed headers as the service gave them, the file streamed with its length.
    expect(upload!.headers.get('if-none-match')).toBe('*');
    expect(upload!.headers.get('content-type')).toBe('text/csv');
    expect(upload!.headers.get('content-length')).toBe('43');
    expect(upload!.body).toBe('category,name,price\nPizza,Margherita,12.50\n');
    expect(result.err).toContain('uploading ./menu.csv: 43 B of 43 B (100%)');
    expect(create!.headers.get('idempotency-key')).toMatch(/^catalog-cli-[0-9a-f-]{36}$/);
    expect(JSON.parse(create!.body!)).toEqual({
      job: {
        job_type: 'new_menu',
        processing_type: 'rush',
        job_data: {
          catalog_sources: [FILE_ID, 'https://merchant.example.com/menu.csv'],
          merchant_name: "Joe's Diner",
        },
        metadata: { store: '42' },
      },
    });
  });

  it('refuses a source that is neither a file, a URL nor a file id, before calling the service', async () => {
    const api = new ScriptedApi();
    const result = await run(api, [
      'jobs',
      'create',
      '--type',
      'new_menu',
      '--source',
      'nope.csv',
      '--merchant',
      'x',
    ]);
    expect([result.code, result.err]).toEqual([
      2,
      expect.stringContaining('--source nope.csv: no such file'),
    ]);
    expect(api.calls).toEqual([]);
  });

  it('--wait polls from 200 ms, backing off, Retry-After an upper bound, until the job is terminal', async () => {
    const api = new ScriptedApi()
      .on('POST', /\/v1\/jobs$/, { status: 201, body: job('initiated') })
      .on(
        'GET',
        /\/v1\/jobs\//,
        { body: job('processing'), headers: { 'retry-after': '7' } },
        { body: job('processing'), headers: { 'retry-after': '3' } },
        { body: job('completed', { results: { catalog: { item_count: 4 } } }) },
      );
    const result = await run(api, [
      'jobs',
      'create',
      '--type',
      'new_menu',
      '--source',
      'https://merchant.example.com/menu.csv',
      '--merchant',
      'Joe',
      '--wait',
    ]);
    expect(result.code).toBe(0);
    expect(result.sleeps).toEqual([200, 300]);
    expect(result.json()).toMatchObject({ state: 'completed', results: { catalog: { item_count: 4 } } });
    expect(result.err).toContain(`created job ${JOB_ID}`);
    expect(result.err).toContain('job 3f1c9a52: processing');
    expect(result.err).toContain('job 3f1c9a52: completed');
  });

  it('redraws one progress line on a terminal', async () => {
    const api = new ScriptedApi().on(
      'GET',
      /\/v1\/jobs\//,
      { body: job('processing'), headers: { 'retry-after': '3' } },
      { body: job('completed') },
    );
    const result = await run(api, ['jobs', 'get', JOB_ID, '--wait'], { interactive: true });
    expect(result.code).toBe(0);
    expect(result.sleeps).toEqual([200]);
    expect(result.err).toContain('\r\x1b[2K');
  });

  it('exits 3 when the job it waited for failed, with the job on stdout and why on stderr', async () => {
    const error = {
      type: 'urn:catalog-jobs:problem:source_unreadable',
      title: 'No source could be read',
      code: 'source_unreadable',
      detail: 'https://merchant.example.com/menu.csv: HTTP 404',
    };
    const api = new ScriptedApi().on('GET', /\/v1\/jobs\//, { body: job('failed', { error }) });
    const result = await run(api, ['jobs', 'get', JOB_ID, '--wait']);
    expect(result.code).toBe(3);
    expect(result.json()).toMatchObject({ state: 'failed' });
    expect(result.err).toContain('No source could be read (source_unreadable)');
    expect(result.err).toContain('HTTP 404');
  });

  it('never waits longer than Retry-After between polls, and shows the state of the last answer', async () => {
    const api = new ScriptedApi().on(
      'GET',
      /\/v1\/jobs\//,
      ...Array.from({ length: 6 }, () => ({ body: job('processing'), headers: { 'retry-after': '1' } })),
      { body: job('processing', { state: 'in_review' }), headers: { 'retry-after': '1' } },
      { body: job('completed') },
    );
    const result = await run(api, ['jobs', 'get', JOB_ID, '--wait']);
    expect(result.code).toBe(0);
    expect(result.sleeps).toEqual([200, 300, 450, 675, 1000, 1000, 1000]);
    expect(result.err).toContain('job 3f1c9a52 is in review');
  });

  it('gives up waiting after --timeout with exit 4, leaving the job alone', async () => {
    const api = new ScriptedApi().on('GET', /\/v1\/jobs\//, {
      body: job('processing'),
      headers: { 'retry-after': '30' },
    });
    const result = await run(api, ['jobs', 'get', JOB_ID, '--wait', '--timeout', '60']);
    expect(result.code).toBe(4);
    expect(result.err).toContain('still processing after 60s');
    expect(Math.max(...result.sleeps)).toBe(5000);
    expect(result.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(60_000);
    expect(api.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('stops waiting for a job in review after the default timeout of 10 minutes', async () => {
    const api = new ScriptedApi().on('GET', /\/v1\/jobs\//, {
      body: job('in_review'),
      headers: { 'retry-after': '60' },
    });
    const result = await run(api, ['jobs', 'get', JOB_ID, '--wait']);
    expect(result.code).toBe(4);
    expect(result.err).toContain('still in_review after 600s');
    expect(result.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThan(590_000);
  });

  it('sums up the warnings on stderr, grouped by code with where they are', async () => {
    const warnings = [
      { source: FILE_ID, row: 4, column: 'price', code: 'not_a_price', message: '"2 for $5" is not a price' },
      { source: FILE_ID, row: 9, column: 'price', code: 'not_a_price', message: '"ask" is not a price' },
      { source: FILE_ID, row: 7, column: 'UPC', sheet: 'Items', code: 'bad_check_digit', message: 'x' },
      {
        source: 'https://m.example/menu.pdf',
        row: null,
        column: null,
        page: 2,
        code: 'not_a_price',
        message: 'y',
      },
    ];
    const api = new ScriptedApi().on('GET', /\/v1\/jobs\//, {
      body: job('completed', { results: { warnings, warning_count: 4 } }),
    });
    const result = await run(api, ['jobs', 'get', JOB_ID]);
    expect(result.code).toBe(0);
    expect(result.err).toContain('4 warnings:');
    expect(result.err).toContain('not_a_price ×3 — row 4, column price; row 9, column price; page 2');
    expect(result.err).toContain('bad_check_digit ×1 — sheet Items, row 7, column UPC');
    expect(result.json().results.warnings).toHaveLength(4);
    const quiet = await run(api, ['jobs', 'get', JOB_ID, '--quiet']);
    expect(quiet.err).toBe('');
  });

  it('checks every option as the service would before uploading anything', async () => {
    await writeFile(path.join(dir, 'menu.csv'), 'name,price\nTea,2\n');
    const api = new ScriptedApi();
    const result = await run(api, [
      'jobs',
      'create',
      '--type',
      'new_menu',
      '--source',
      './menu.csv',
      '--merchant',
      'Joe',
      '--language',
      'english',
    ]);
    expect(result.code).toBe(2);
    expect(result.err).toContain('--language: must be a lower-case ll_cc locale');
    expect(result.err).toContain('nothing was uploaded or created');
    expect(api.calls).toEqual([]);
    const blank = await run(api, [
      'jobs',
      'create',
      '--type',
      'new_menu',
      '--source',
      './menu.csv',
      '--merchant',
      ' ',
    ]);
    expect([blank.code, blank.err]).toEqual([2, expect.stringContaining('--merchant: must not be blank')]);
    expect(api.calls).toEqual([]);
  });

  it('retries a 503 after Retry-After with the same Idempotency-Key', async () => {
    const api = new ScriptedApi().on(
      'POST',
      /\/v1\/jobs$/,
      {
        status: 503,
        body: problem(503, 'service_unavailable', 'Service unavailable', 'Retry.'),
        headers: { 'retry-after': '2' },
      },
      { status: 201, body: job('initiated') },
    );
    const result = await run(api, [
      'jobs',
      'create',
      '--type',
      'new_retail_catalog',
      '--source',
      FILE_ID,
      '--merchant',
      'Corner Store',
      '--idempotency-key',
      'mine-1',
    ]);
    expect(result.code).toBe(0);
    expect(result.sleeps).toEqual([2000]);
    expect(api.calls.map((c) => c.headers.get('idempotency-key'))).toEqual(['mine-1', 'mine-1']);
    expect(JSON.parse(api.calls[0]!.body!).job.job_data.catalog_sources).toEqual([FILE_ID]);
  });

  it('prints a problem clearly: status, title, code, detail, each pointer and the request id', async () => {
    const api = new ScriptedApi().on('POST', /\/v1\/jobs$/, {
      status: 400,
      body: problem(400, 'validation_failed', 'Invalid request', 'The request is invalid.', [
        { pointer: '/job/job_data/merchant_name', code: 'invalid_value', message: 'must not be blank' },
        { pointer: '/job/job_data/language', code: 'unknown_field', message: 'unknown field "language"' },
      ]),
    });
    const result = await run(api, [
      'jobs',
      'create',
      '--type',
      'new_retail_catalog',
      '--source',
      'https://merchant.example.com/p.csv',
      '--merchant',
      'Joe',
    ]);
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toBe(
      [
        'error: 400 Invalid request (validation_failed) — POST /v1/jobs',
        '  The request is invalid.',
        '  /job/job_data/merchant_name: must not be blank',
        '  /job/job_data/language: unknown field "language"',
        '  request id: req-123',
        '',
      ].join('\n'),
    );
  });

  it('says clearly when the service cannot be reached', async () => {
    const api = new ScriptedApi();
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: new Error('connect ECONNREFUSED 127.0.0.1:3000'),
    });
    const result = await run(
      { ...api, fetch: async () => Promise.reject(refused) } as unknown as ScriptedApi,
      ['jobs', 'list'],
    );
    expect(result.code).toBe(1);
    expect(result.err).toContain(`could not reach ${BASE} (connect ECONNREFUSED 127.0.0.1:3000)`);
  });

  it('lists with filters, and every page with --all', async () => {
    const api = new ScriptedApi().on(
      'GET',
      /\/v1\/jobs\?/,
      { body: { data: [job('completed')], next_cursor: 'c1' } },
      { body: { data: [job('completed', { id: FILE_ID })], next_cursor: null } },
    );
    const result = await run(api, ['jobs', 'list', '--state', 'completed', '--limit', '1', '--all']);
    expect(result.code).toBe(0);
    expect(result.json().data.map((j: { id: string }) => j.id)).toEqual([JOB_ID, FILE_ID]);
    expect(api.calls.map((c) => c.url.replace(BASE, ''))).toEqual([
      '/v1/jobs?state=completed&limit=1',
      '/v1/jobs?state=completed&limit=1&cursor=c1',
    ]);
  });

  it('cancels, and reports a 409 as a problem', async () => {
    const api = new ScriptedApi().on(
      'POST',
      /\/cancel$/,
      { body: job('canceled') },
      {
        status: 409,
        body: problem(409, 'invalid_state', 'Invalid state', 'This one is canceled.'),
      },
    );
    expect((await run(api, ['jobs', 'cancel', JOB_ID])).json().state).toBe('canceled');
    const again = await run(api, ['jobs', 'cancel', JOB_ID]);
    expect([again.code, again.err]).toEqual([
      1,
      expect.stringContaining('409 Invalid state (invalid_state)'),
    ]);
  });
});

describe('catalog exports', () => {
  const catalog = '{"format_version":1,"items":[]}';
  const checksum = createHash('sha256').update(catalog).digest('hex');
  const exportOf = (state: string, extra: Record<string, unknown> = {}) => ({
    id: EXPORT_ID,
    state,
    job_id: JOB_ID,
    delivery_url: null,
    file: null,
    error: null,
    ...extra,
  });
  const completed = (sum = checksum) =>
    exportOf('completed', {
      delivery_url: 'http://s3.test/exports/x.json?sig=2',
      file: {
        content_type: 'application/json',
        size_bytes: catalog.length,
        checksum_sha256: sum,
        item_count: 0,
      },
    });

  it('creates the export, waits for it and downloads it to --out', async () => {
    const api = new ScriptedApi()
      .on('POST', /\/v1\/data_exports$/, { status: 201, body: exportOf('initiated') })
      .on(
        'GET',
        /\/v1\/data_exports\//,
        { body: exportOf('processing'), headers: { 'retry-after': '5' } },
        { body: completed() },
      )
      .on('GET', /^http:\/\/s3\.test\//, { raw: catalog });
    const result = await run(api, ['exports', 'create', '--job', JOB_ID, '--out', 'catalog.json']);
    expect(result.code).toBe(0);
    expect(await readFile(path.join(dir, 'catalog.json'), 'utf8')).toBe(catalog);
    expect(result.json()).toMatchObject({ id: EXPORT_ID, state: 'completed' });
    expect(result.sleeps).toEqual([200]);
    expect(result.err).toContain('saved catalog.json');
    expect(result.err).toContain('checksum verified');
    const [create] = api.api('POST', '/v1/data_exports');
    expect(JSON.parse(create!.body!)).toEqual({ id: JOB_ID, type: 'catalog' });
    expect(create!.headers.get('idempotency-key')).toMatch(/^catalog-cli-/);
    const download = api.calls.find((c) => c.url.startsWith('http://s3.test/'))!;
    expect(download.headers.get('authorization')).toBeNull();
  });

  it('shows the catalog as a table for people with --table', async () => {
    const document = JSON.stringify({
      currency: 'USD',
      categories: [
        { id: 'c1', name: 'Pizza', parent_id: null },
        { id: 'c2', name: 'Red', parent_id: 'c1' },
      ],
      items: [
        {
          name: 'Margherita',
          category_id: 'c2',
          variants: [
            { name: 'Small', price: { amount: 1250, currency: 'USD' }, sku: 'M-S', gtin: null },
            { name: 'Large', price: { amount: 1400, currency: 'USD' }, sku: 'M-L', gtin: null },
          ],
        },
        { name: 'Oysters', category_id: null, variants: [{ name: null, price: null, pricing: 'variable' }] },
        {
          name: 'Ramen',
          category_id: null,
          variants: [{ name: null, price: { amount: 1200, currency: 'JPY' } }],
        },
      ],
    });
    const sum = createHash('sha256').update(document).digest('hex');
    const api = new ScriptedApi()
      .on('GET', /\/v1\/data_exports\//, {
        body: exportOf('completed', {
          delivery_url: 'http://s3.test/exports/x.json?X-Amz-Signature=cd',
          file: {
            content_type: 'application/json',
            size_bytes: document.length,
            checksum_sha256: sum,
            item_count: 3,
          },
        }),
      })
      .on('GET', /^http:\/\/s3\.test\//, { raw: document });
    const result = await run(api, ['exports', 'get', EXPORT_ID, '--table']);
    expect(result.code).toBe(0);
    const lines = result.out.split('\n');
    expect(lines[0]).toMatch(/^Category\s+Item\s+Variant\s+Price\s+SKU\s+GTIN$/);
    expect(lines[2]).toMatch(/^Pizza > Red\s+Margherita\s+Small\s+12\.50 USD\s+M-S$/);
    expect(lines[3]).toMatch(/^\s+Large\s+14\.00 USD\s+M-L$/);
    expect(lines[4]).toMatch(/^\s+Oysters\s+variable$/);
    expect(lines[5]).toMatch(/^\s+Ramen\s+1200 JPY$/);
    expect(result.out).toContain('3 items, 4 variants, 2 categories');
  });

  it('refuses a download whose checksum does not match, leaving no file behind', async () => {
    const api = new ScriptedApi()
      .on('GET', /\/v1\/data_exports\//, { body: completed('0'.repeat(64)) })
      .on('GET', /^http:\/\/s3\.test\//, { raw: catalog });
    const result = await run(api, ['exports', 'get', EXPORT_ID, '--out', 'catalog.json']);
    expect(result.code).toBe(1);
    expect(result.err).toContain('does not match the export');
    expect(existsSync(path.join(dir, 'catalog.json'))).toBe(false);
    expect(await readdir(dir)).toEqual([]);
  });

  it('exits 3 when the export failed, and returns at once with --no-wait', async () => {
    const failed = exportOf('failed', {
      error: { type: 'urn:x', title: 'Job failed', code: 'job_failed', detail: 'The job was failed.' },
    });
    const api = new ScriptedApi()
      .on('POST', /\/v1\/data_exports$/, { status: 201, body: exportOf('initiated') })
      .on('GET', /\/v1\/data_exports\//, { body: failed });
    const result = await run(api, ['exports', 'create', '--job', JOB_ID, '--out', 'x.json']);
    expect([result.code, result.err]).toEqual([3, expect.stringContaining('Job failed (job_failed)')]);
    const quick = await run(api, ['exports', 'create', '--job', JOB_ID, '--no-wait']);
    expect([quick.code, quick.json().state]).toEqual([0, 'initiated']);
    expect((await run(api, ['exports', 'create', '--job', JOB_ID, '--no-wait', '--out', 'x'])).code).toBe(2);
  });
});
