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
          upload_form: {
            url: 'http://s3.test/uploads',
            fields: { key: 'uploads/dev/x', 'Content-Type': 'text/csv', Policy: 'cG9saWN5' },
          },
          size_bytes: null,
        },
      })
      .on('POST', /^http:\/\/s3\.test\//, { status: 204, raw: '' })
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
      'POST http://s3.test/uploads',
      `GET /v1/files/${FILE_ID}`,
      'POST /v1/jobs',
    ]);
    const [fileCall, upload, , create] = api.calls;
    expect(JSON.parse(fileCall!.body!)).toEqual({ filename: 'menu.csv', content_type: 'text/csv' });
    expect(upload!.headers.get('authorization')).toBeNull();
    // The form's fields as the service gave them, then the file, last.
    expect(upload!.body).toBe(
      'key=uploads/dev/x\nContent-Type=text/csv\nPolicy=cG9saWN5\n' +
        'file=<menu.csv> (text/csv) category,name,price\nPizza,Margherita,12.50\n',
    );
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

  it('--wait polls as Retry-After says until the job is terminal', async () => {
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
    expect(result.sleeps).toEqual([7000, 3000]);
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
    expect(result.sleeps).toEqual([1000, 1000, 1000]);
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

  it('gives up waiting after --timeout, leaving the job alone', async () => {
    const api = new ScriptedApi().on('GET', /\/v1\/jobs\//, {
      body: job('processing'),
      headers: { 'retry-after': '30' },
    });
    const result = await run(api, ['jobs', 'get', JOB_ID, '--wait', '--timeout', '60']);
    expect(result.code).toBe(1);
    expect(result.err).toContain('still processing after 60s');
    expect(api.calls.filter((c) => c.method === 'POST')).toEqual([]);
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
      'retail_image_mapping',
      '--source',
      'https://merchant.example.com/p.csv',
      '--merchant',
      ' ',
      '--language',
      'en_us',
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
    expect(result.sleeps).toEqual([5000]);
    expect(result.err).toContain('saved catalog.json');
    expect(result.err).toContain('checksum verified');
    const [create] = api.api('POST', '/v1/data_exports');
    expect(JSON.parse(create!.body!)).toEqual({ id: JOB_ID, type: 'catalog' });
    expect(create!.headers.get('idempotency-key')).toMatch(/^catalog-cli-/);
    const download = api.calls.find((c) => c.url.startsWith('http://s3.test/'))!;
    expect(download.headers.get('authorization')).toBeNull();
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
