import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eventually } from '../helpers/factories';
import { type LocalService, startLocalService } from '../helpers/local-service';

const run = promisify(execFile);

let service: LocalService;
beforeAll(async () => {
  service = await startLocalService();
}, 120_000);
afterAll(async () => {
  await service?.stop();
});

const seedJobs = {
  new_menu: {
    catalog_sources: ['https://merchant.example.com/menu.csv'],
    merchant_name: "Joe's Diner",
    merchant_address: '1 Main St, Springfield',
    language: 'en_us',
  },
  new_retail_catalog: {
    catalog_sources: ['https://merchant.example.com/products.csv'],
    merchant_name: 'Corner Store',
    merchant_token: 'MT-123',
  },
  retail_image_mapping: {
    catalog_sources: ['https://merchant.example.com/products.csv'],
    merchant_name: 'Corner Store',
    image_sources: ['https://cdn.example.com/images/012345678905.jpg'],
  },
} as const;

describe('npm start, as a client sees it', () => {
  it.each([
    ['new_menu', 'standard'],
    ['new_menu', 'rush'],
    ['new_retail_catalog', 'standard'],
    ['new_retail_catalog', 'rush'],
    ['retail_image_mapping', 'standard'],
    ['retail_image_mapping', 'rush'],
  ] as const)('creates a %s job (%s) and reads it back', async (jobType, processingType) => {
    const created = await service.request('/v1/jobs', {
      method: 'POST',
      body: JSON.stringify({
        job: {
          job_type: jobType,
          job_data: seedJobs[jobType],
          processing_type: processingType,
          metadata: { source: 'e2e' },
        },
      }),
    });
    expect(created.status).toBe(201);
    // Seed 2.3: the four fields and their values right after creation.
    expect(created.json).toMatchObject({ state: 'initiated', processing_type: processingType, results: {} });
    expect(created.json.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created.headers.get('location')).toBe(`/v1/jobs/${created.json.id}`);
    expect(created.headers.get('x-request-id')).toBeTruthy();

    const read = await service.request(`/v1/jobs/${created.json.id}`);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ id: created.json.id, job_type: jobType, metadata: { source: 'e2e' } });
    expect(read.json.job_data).toMatchObject(seedJobs[jobType]);
  });

  it.each([undefined, 'http://127.0.0.1:9/hooks/catalog'])(
    'creates a data export (callback_url %s)',
    async (callbackUrl) => {
      const job = await service.request('/v1/jobs', {
        method: 'POST',
        body: JSON.stringify({
          job: { job_type: 'new_menu', job_data: seedJobs.new_menu, processing_type: 'rush' },
        }),
      });
      const body = {
        id: job.json.id,
        type: 'catalog',
        ...(callbackUrl ? { callback_url: callbackUrl } : {}),
      };
      const created = await service.request('/v1/data_exports', {
        method: 'POST',
        body: JSON.stringify(body),
      });
      expect(created.status).toBe(201);
      // Seed 2.5: the seven fields and their values right after creation.
      expect(created.json).toMatchObject({
        state: 'initiated',
        callback_url: callbackUrl ?? null,
        delivery_url: null,
        job_id: job.json.id,
        job_type: 'new_menu',
        client_mappings: {},
      });
      const read = await service.request(`/v1/data_exports/${created.json.id}`);
      expect(read.status).toBe(200);
      expect(read.json.id).toBe(created.json.id);
    },
  );

  it('lists jobs with a cursor', async () => {
    const page = await service.request('/v1/jobs?limit=2');
    expect(page.status).toBe(200);
    expect(page.json.data).toHaveLength(2);
    const next = await service.request(
      `/v1/jobs?limit=2&cursor=${encodeURIComponent(page.json.next_cursor)}`,
    );
    expect(next.json.data[0].id).not.toBe(page.json.data[0].id);
  });

  it.each([
    ['no Authorization header', null],
    ['an unknown key', 'cjk_live_0000000000000000000000000000000000'],
    ['a malformed key', 'x'],
  ])('answers 401 with WWW-Authenticate for %s', async (_what, key) => {
    const res = await service.request('/v1/jobs', { key });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Token');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.json).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('issues and revokes keys with npm run keys, effective at once', async () => {
    const { stdout } = await run('npx', ['tsx', 'bin/keys.ts', 'create', '--client', 'e2e-client'], {
      env: service.keysEnv,
    });
    const issued = JSON.parse(stdout.trim());
    expect(Object.keys(issued)).toEqual(['client_id', 'scope', 'api_key', 'webhook_secret']);
    expect((await service.request('/v1/jobs', { key: issued.api_key })).status).toBe(200);
    // The new client sees none of the dev client's jobs.
    expect((await service.request('/v1/jobs', { key: issued.api_key })).json.data).toEqual([]);
    await run('npx', ['tsx', 'bin/keys.ts', 'revoke', issued.api_key], { env: service.keysEnv });
    expect((await service.request('/v1/jobs', { key: issued.api_key })).status).toBe(401);
  }, 60_000);

  it('answers 404 and 405 for unknown routes and methods as problem+json', async () => {
    const missing = await service.request('/v1/nothing');
    expect([missing.status, missing.json.code]).toEqual([404, 'not_found']);
    const wrong = await service.request('/v1/jobs', { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST, GET');
  });

  it('moves a job out of initiated through the queue consumer', async () => {
    const job = await service.request('/v1/jobs', {
      method: 'POST',
      body: JSON.stringify({
        job: { job_type: 'new_menu', job_data: seedJobs.new_menu, processing_type: 'rush' },
      }),
    });
    const state = await eventually(
      async () => {
        const now = (await service.request(`/v1/jobs/${job.json.id}`)).json.state as string;
        return now === 'initiated' ? undefined : now;
      },
      { timeoutMs: 20_000, intervalMs: 100, what: 'the job to leave initiated' },
    );
    expect(['processing', 'failed', 'completed']).toContain(state);
  });
});

describe('npm start: a catalog from a CSV to a signed callback', () => {
  it('processes a served CSV, exports it with a callback, and replays a refused callback', async () => {
    const hookAnswers = [410, 200];
    const hits: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
    const { startTestServer } = await import('../helpers/pipeline');
    const server = await startTestServer((req, res) => {
      if (req.url === '/menu.csv') {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.end('category,name,price\nPizza,Margherita,12.50\nDrinks,Cola,2.50\n');
        return;
      }
      hits.push({ headers: req.headers, body: req.body });
      res.writeHead(hookAnswers.shift() ?? 200);
      res.end();
    });
    try {
      const job = await service.request('/v1/jobs', {
        method: 'POST',
        body: JSON.stringify({
          job: {
            job_type: 'new_menu',
            processing_type: 'rush',
            job_data: { catalog_sources: [`${server.url}/menu.csv`], merchant_name: 'Joe' },
          },
        }),
      });
      const exp = await service.request('/v1/data_exports', {
        method: 'POST',
        body: JSON.stringify({ id: job.json.id, type: 'catalog', callback_url: `${server.url}/hook` }),
      });
      expect(exp.status).toBe(201);
      const poll = (done: (e: { callback: { state: string } | null; state: string }) => boolean) =>
        eventually(
          async () => {
            const now = await service.request(`/v1/data_exports/${exp.json.id}`);
            return done(now.json) ? now.json : undefined;
          },
          { timeoutMs: 30_000, intervalMs: 100, what: 'the export callback' },
        );
      const refused = await poll((e) => e.callback?.state === 'failed');
      expect(refused).toMatchObject({ state: 'completed', callback: { attempts: 1, last_status: 410 } });
      expect((await service.request(`/v1/jobs/${job.json.id}`)).json.results.catalog.item_count).toBe(2);

      const listed = await run('npx', ['tsx', 'bin/callbacks.ts', 'list'], { env: service.keysEnv });
      expect(listed.stdout).toContain(exp.json.id);
      await run('npx', ['tsx', 'bin/callbacks.ts', 'replay', exp.json.id], { env: service.keysEnv });
      const delivered = await poll((e) => e.callback?.state === 'delivered');
      expect(delivered.callback).toMatchObject({ attempts: 1, last_status: 200 });
      expect(hits).toHaveLength(2);
      expect(hits[1]?.headers['webhook-id']).toBe(hits[0]?.headers['webhook-id']);
      const { Webhook } = await import('standardwebhooks');
      const event = new Webhook(service.webhookSecret).verify(hits[1]!.body, {
        'webhook-id': String(hits[1]!.headers['webhook-id']),
        'webhook-timestamp': String(hits[1]!.headers['webhook-timestamp']),
        'webhook-signature': String(hits[1]!.headers['webhook-signature']),
      }) as { type: string; data: { delivery_url: string } };
      expect(event.type).toBe('data_export.completed');
      const file = await fetch(event.data.delivery_url);
      expect(
        ((await file.json()) as { items: { name: string }[] }).items
          .map((i: { name: string }) => i.name)
          .sort(),
      ).toEqual(['Cola', 'Margherita']);
    } finally {
      await server.stop();
    }
  }, 90_000);
});
