import { parseCatalogDocument } from '../../lambdas/core/catalog/document';
import { DEFAULT_WEB_LIMITS, webUserAgent } from '../../lambdas/core/catalog/web/limits';
import type { JobRecord } from '../../lambdas/core/model';
import { objectKeys } from '../../lambdas/core/ports';
import type { JobSpec } from '../../lambdas/core/schemas/job';
import { createJob } from '../../lambdas/core/use-cases/jobs';
import { makeOpsGetJobHandler } from '../../lambdas/handlers/http/ops-get-job';
import { makeOpsGetJobSourceHandler } from '../../lambdas/handlers/http/ops-get-job-source';
import { page } from '../fixtures/web/pages';
import { linkedMenusSite, plainMenuSite, restaurantSite, shopifySite, wooSite } from '../fixtures/web/sites';
import { apiEvent, eventually, lambdaContext } from '../helpers/factories';
import { uniqueClient } from '../helpers/integration';
import { type Pipeline, startPipeline, startTestServer, type TestServer } from '../helpers/pipeline';

/**
 * Jobs whose catalog source is a merchant's web address (SPEC 5.2 "Web pages and online stores"), through
 * the job worker against the emulators: loopback servers play a restaurant site, a Shopify store, a
 * WooCommerce store and a plain HTML menu; every request goes through the guarded client (loopback
 * allowed, as locally). The page bound is lowered so that a store "far larger than the bound" is quick.
 */

const PAGE_BOUND = 8;
const USER_AGENT = webUserAgent('https://catalog-jobs.example/bot');

let pipeline: Pipeline;
const servers: TestServer[] = [];

beforeAll(async () => {
  pipeline = await startPipeline({
    overrides: {
      webSources: {
        limits: { ...DEFAULT_WEB_LIMITS, maxPagesPerJob: PAGE_BOUND, minIntervalMs: 5 },
        userAgent: USER_AGENT,
      },
    },
  });
});

afterAll(async () => {
  await pipeline?.stop();
  await Promise.all(servers.map((s) => s.stop()));
});

const serve = async (respond: Parameters<typeof startTestServer>[0]) => {
  const server = await startTestServer(respond);
  servers.push(server);
  return server;
};

const run = async (jobType: JobSpec['job_type'], source: string): Promise<JobRecord> => {
  const job = await createJob(pipeline.deps, uniqueClient(), {
    processing_type: 'rush',
    job_type: jobType,
    job_data: { merchant_name: 'Test Merchant', catalog_sources: [source], language: 'en_us' },
  } as JobSpec);
  return eventually(
    async () => {
      const now = await pipeline.deps.jobs.get(job.clientId, job.id);
      return now && ['completed', 'failed', 'in_review'].includes(now.state) ? now : undefined;
    },
    { what: `job ${job.id} to settle`, timeoutMs: 30_000 },
  );
};

interface StoredItem {
  name: string;
  category_id: string | null;
  tags: string[];
  option_names: string[];
  variants: { name: string | null; sku: string | null; price: unknown; pricing: string }[];
}

const catalogOf = async (job: JobRecord) => {
  const chunks: Buffer[] = [];
  for await (const chunk of await pipeline.deps.catalogs.read(objectKeys.catalog(job.clientId, job.id)))
    chunks.push(Buffer.from(chunk));
  const document = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  expect(parseCatalogDocument(document)).toMatchObject({ ok: true, formatVersion: 2 });
  const categories = new Map<string, string>(
    document.categories.map((c: { id: string; name: string }) => [c.id, c.name]),
  );
  return {
    document,
    items: document.items as StoredItem[],
    categoryOf: (item: StoredItem) => (item.category_id ? categories.get(item.category_id) : undefined),
  };
};

interface Provenance {
  item_id: string;
  name: string;
  source_index: number;
  page: number;
  box: unknown;
  method: string;
  url: string | null;
  locator: string | null;
  confidence: number;
  doubts: string[];
}

/** What the operations team sees of a job (GET /v1/ops/jobs/{id}). */
const opsJob = async (id: string) => {
  const response = await makeOpsGetJobHandler(pipeline.deps)(
    apiEvent({ method: 'GET', pathParameters: { id }, scope: 'operator', clientId: 'ops-team' }),
    lambdaContext(),
  );
  expect(response.statusCode).toBe(200);
  return JSON.parse(response.body) as {
    draft_catalog: { items: { id: string; name: string }[] };
    draft_provenance: Provenance[] | null;
    sources: {
      index: number;
      format: string | null;
      content_type: string | null;
      viewable: boolean;
      pages: number | null;
      web_pages: { page: number; url: string; offset: number; length: number }[] | null;
    }[];
  };
};

/** GET /v1/ops/jobs/{id}/sources/{n}, followed as a browser does. */
const viewSource = async (id: string, n: number) => {
  const response = await makeOpsGetJobSourceHandler(pipeline.deps)(
    apiEvent({
      method: 'GET',
      pathParameters: { id, n: String(n) },
      scope: 'operator',
      clientId: 'ops-team',
    }),
    lambdaContext(),
  );
  expect(response.statusCode).toBe(302);
  const fetched = await fetch((response.headers as Record<string, string>).location as string);
  expect(fetched.status).toBe(200);
  return {
    contentType: fetched.headers.get('content-type'),
    bytes: Buffer.from(await fetched.arrayBuffer()),
  };
};

describe('a merchant web address as the catalog source', () => {
  it('a restaurant home page: its menu page is followed and read by machine (JSON-LD)', async () => {
    const site = await serve(restaurantSite);
    const done = await run('new_menu', `${site.url}/`);
    expect(done.state).toBe('completed');
    expect(done.results).toMatchObject({
      catalog: { item_count: 6, variant_count: 8 },
      sources: [{ source: `${site.url}/`, format: 'html', profile: 'schema_org', pages: 2, items: 6 }],
    });
    const { items, categoryOf } = await catalogOf(done);
    const margherita = items.find((i) => i.name === 'Margherita') as StoredItem;
    expect(categoryOf(margherita)).toBe('Red');
    expect(margherita.tags).toEqual(['vegetarian']);
    expect(margherita.variants.map((v) => [v.name, v.price])).toEqual([
      ['Small', { amount: 1250, currency: 'USD' }],
      ['Large', { amount: 1800, currency: 'USD' }],
    ]);
    expect(items.find((i) => i.name === 'Whole Branzino')?.variants[0]).toMatchObject({
      price: null,
      pricing: 'variable',
    });
    // robots.txt read before anything beyond the given page; the service named in every request.
    expect(site.requests.map((r) => r.url)).toEqual(['/', '/robots.txt', '/menu/']);
    expect(site.requests.every((r) => r.headers['user-agent'] === USER_AGENT)).toBe(true);
  });

  it('a Shopify storefront: read through /products.json over several pages', async () => {
    const site = await serve(shopifySite(620));
    const done = await run('new_retail_catalog', `${site.url}/`);
    expect(done.state).toBe('completed');
    expect(done.results).toMatchObject({
      catalog: { item_count: 620, variant_count: 1240 },
      warning_count: 0,
      sources: [{ format: 'html', profile: 'shopify_store', pages: 4, items: 620 }],
    });
    const { items, categoryOf } = await catalogOf(done);
    const tea = items.find((i) => i.name === 'Organic Tea No. 620') as StoredItem;
    expect(categoryOf(tea)).toBe('Green Tea');
    expect(tea.option_names).toEqual(['Weight']);
    expect(tea.variants.map((v) => [v.name, v.sku, v.price])).toEqual([
      ['50 g', 'TEA-620-50', { amount: 850, currency: 'CAD' }],
      ['250 g', 'TEA-620-250', { amount: 3200, currency: 'CAD' }],
    ]);
  });

  it('a WooCommerce storefront: read through the Store API over several pages, variations priced', async () => {
    const site = await serve(wooSite);
    const done = await run('new_retail_catalog', `${site.url}/`);
    expect(done.state).toBe('completed');
    expect(done.results).toMatchObject({
      catalog: { item_count: 240, variant_count: 241 },
      sources: [{ format: 'html', profile: 'woocommerce_store', pages: 6, items: 240 }],
    });
    const { items, categoryOf } = await catalogOf(done);
    const mug = items.find((i) => i.name === 'Enamel Mug') as StoredItem;
    expect(categoryOf(mug)).toBe('Mugs');
    expect(mug.variants.map((v) => [v.name, v.sku, v.price])).toEqual([
      ['Pigeon Grey / 350 ml', 'MUG-GRY', { amount: 900, currency: 'GBP' }],
      ['Black / 350 ml', 'MUG-BLK', { amount: 1100, currency: 'GBP' }],
    ]);
  });

  it('a plain HTML menu: drafted from its layout, the job waits in review', async () => {
    const site = await serve(plainMenuSite);
    const done = await run('new_menu', `${site.url}/menu`);
    expect(done.state).toBe('in_review');
    expect(done.results).toMatchObject({
      catalog: { item_count: 10 },
      sources: [{ format: 'html', profile: 'html_draft', pages: 1, items: 10 }],
      review_reasons: [expect.stringContaining('drafted from the page')],
    });
    const { items, categoryOf } = await catalogOf(done);
    const wine = items.find((i) => i.name === 'Pinot Grigio') as StoredItem;
    expect(categoryOf(wine)).toBe('Drinks');
    expect(wine.variants.map((v) => [v.name, v.price])).toEqual([
      ['Glass', { amount: 1100, currency: 'USD' }],
      ['Bottle', { amount: 4000, currency: 'USD' }],
    ]);

    // The operations team sees each drafted item's page and element, and its confidence, lowest first.
    const shown = await opsJob(done.id);
    const provenance = shown.draft_provenance ?? [];
    expect(provenance).toHaveLength(10);
    const confidences = provenance.map((p) => p.confidence);
    expect(confidences).toEqual([...confidences].sort((a, b) => a - b));
    const wineId = shown.draft_catalog.items.find((i) => i.name === 'Pinot Grigio')?.id;
    expect(provenance.find((p) => p.item_id === wineId)).toMatchObject({
      name: 'Pinot Grigio',
      source_index: 0,
      page: 1,
      box: null,
      method: 'html',
      url: `${site.url}/menu`,
      locator: 'main > section:nth-of-type(3) > table > tbody > tr:nth-of-type(1)',
    });
    expect(shown.sources).toEqual([
      expect.objectContaining({
        index: 0,
        format: 'html',
        viewable: true,
        content_type: 'text/plain; charset=utf-8',
        pages: 1,
        web_pages: [
          { page: 1, url: `${site.url}/menu`, offset: 0, length: Buffer.byteLength(page('plain-menu.html')) },
        ],
      }),
    ]);
    // What the machine read, served as text: never rendered as the merchant's HTML.
    const copy = await viewSource(done.id, 0);
    expect(copy.contentType).toBe('text/plain; charset=utf-8');
    expect(copy.bytes.toString('utf8')).toBe(page('plain-menu.html'));
  });

  it('a home page linking to two plain menus: both drafted, both kept, each item on its page', async () => {
    const site = await serve(linkedMenusSite);
    const done = await run('new_menu', `${site.url}/`);
    expect(done.state).toBe('in_review');
    expect(done.results).toMatchObject({
      catalog: { item_count: 6 },
      sources: [{ format: 'html', profile: 'html_draft', pages: 3, items: 6 }],
    });
    const shown = await opsJob(done.id);
    const byName = new Map((shown.draft_provenance ?? []).map((p) => [p.name, p]));
    expect(byName.get('Crab Melt')).toMatchObject({
      page: 1,
      url: `${site.url}/menus/lunch`,
      locator: 'main > section > ul > li:nth-of-type(1)',
    });
    expect(byName.get('Lobster Linguine')).toMatchObject({
      page: 2,
      url: `${site.url}/menus/dinner`,
      locator: '#dinner > ul > li:nth-of-type(2)',
    });
    const [view] = shown.sources;
    expect(view?.web_pages?.map((p) => [p.page, p.url])).toEqual([
      [1, `${site.url}/menus/lunch`],
      [2, `${site.url}/menus/dinner`],
    ]);
    const copy = await viewSource(done.id, 0);
    const dinner = view?.web_pages?.[1];
    const text = copy.bytes
      .subarray(dinner?.offset, (dinner?.offset ?? 0) + (dinner?.length ?? 0))
      .toString('utf8');
    expect(text).toMatch(/^<!doctype html><html><head><title>Dinner<\/title>/);
    expect(text).toContain('Lobster Linguine');
    expect(text.trimEnd()).toMatch(/<\/html>$/);
  });

  it('a store with far more pages than the bound: stops at the bound, keeps what it read, and says so', async () => {
    const site = await serve(shopifySite(1_000_000));
    const done = await run('new_retail_catalog', `${site.url}/`);
    expect(done.state).toBe('completed');
    expect(done.results).toMatchObject({
      catalog: { item_count: (PAGE_BOUND - 1) * 250 },
      sources: [{ profile: 'shopify_store', pages: PAGE_BOUND }],
      warnings: [
        expect.objectContaining({
          code: 'page_limit',
          message: expect.stringContaining(`the limit of ${PAGE_BOUND} pages per job was reached`),
        }),
      ],
    });
    expect(site.requests.filter((r) => r.url.startsWith('/products.json'))).toHaveLength(PAGE_BOUND - 1);
  });
});
