import { GuardedHttp } from '../../lambdas/adapters/guarded-http';
import type { Draft, DraftItem } from '../../lambdas/core/catalog/draft';
import { htmlReader } from '../../lambdas/core/catalog/sources/html';
import type { ReadContext, SourceDetails } from '../../lambdas/core/catalog/sources/types';
import type { WarningInput } from '../../lambdas/core/catalog/warnings';
import { DEFAULT_WEB_LIMITS, type WebLimits } from '../../lambdas/core/catalog/web/limits';
import { WebBudget } from '../../lambdas/core/catalog/web/web-session';
import { readBody } from '../../lambdas/core/outbound';
import type { JobType } from '../../lambdas/core/schemas/job';
import { plainMenuSite, restaurantSite, shopifySite, wooSite } from '../fixtures/web/sites';
import { startTestServer, type TestServer } from '../helpers/pipeline';

/**
 * Web sources over real HTTP: loopback servers play a restaurant site, a Shopify store, a WooCommerce store
 * and a plain HTML menu; every request goes through the guarded client (loopback allowed, as locally).
 */

const http = new GuardedHttp({ allowLoopback: true });
const servers: TestServer[] = [];

const serve = async (respond: Parameters<typeof startTestServer>[0]) => {
  const server = await startTestServer(respond);
  servers.push(server);
  return server;
};

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

const readSite = async (url: string, jobType: JobType, limits: Partial<WebLimits> = {}) => {
  const response = await http.request({
    url,
    method: 'GET',
    timeoutMs: 10_000,
    maxBytes: 100 * 1024 * 1024,
    followRedirects: true,
  });
  const body = await readBody(response);
  const warnings: WarningInput[] = [];
  const reviews: string[] = [];
  const details: SourceDetails[] = [];
  const budget = new WebBudget({ ...DEFAULT_WEB_LIMITS, minIntervalMs: 5, ...limits });
  const ctx: ReadContext = {
    source: url,
    jobId: 'job',
    jobType,
    language: 'en_us',
    currency: 'USD',
    http,
    web: { budget, lastAttempt: true },
    warn: (w) => warnings.push(w),
    needsReview: (r) => reviews.push(r),
    describe: (d) => details.push(d),
  };
  const output = await htmlReader.read(
    {
      source: url,
      name: response.url,
      head: body.subarray(0, 4096),
      contentType: response.headers['content-type'] ?? null,
      encoding: 'utf-8',
      bytes: (async function* () {
        yield body;
      })(),
    },
    ctx,
  );
  const drafts: Draft[] = [];
  if (output.kind === 'drafts') for await (const d of output.drafts) drafts.push(d);
  return {
    items: drafts.filter((d): d is DraftItem => d.kind === 'item'),
    warnings,
    reviews,
    details,
    budget,
  };
};

describe('web sources over loopback HTTP', () => {
  it('a restaurant home page: follows its menu link to the JSON-LD menu, read by machine', async () => {
    const site = await serve(restaurantSite);
    const { items, reviews, details } = await readSite(`${site.url}/`, 'new_menu');
    expect(details).toEqual([{ profile: 'schema_org', pages: 2 }]);
    expect(reviews).toEqual([]);
    expect(items.map((i) => [i.categoryPath.join(' > '), i.name])).toEqual([
      ['Pizza > Red', 'Margherita'],
      ['Pizza > Red', 'Diavola'],
      ['Pizza > White', 'Quattro Formaggi'],
      ['From the Sea', 'Whole Branzino'],
      ['From the Sea', 'Mussels'],
      ['Drinks', 'House Red'],
    ]);
    expect(items[0]?.variants.map((v) => [v.name, v.price])).toEqual([
      ['Small', { amount: 1250, currency: 'USD' }],
      ['Large', { amount: 1800, currency: 'USD' }],
    ]);
    const paths = site.requests.map((r) => r.url);
    expect(paths).toEqual(['/', '/robots.txt', '/menu/']);
    expect(site.requests[2]?.headers['user-agent']).toMatch(/^CatalogJobsBot\/1\.0 /);
  });

  it('a Shopify storefront: every page of /products.json, variants and prices in minor units', async () => {
    const site = await serve(shopifySite(620));
    const { items, reviews, details, warnings } = await readSite(`${site.url}/`, 'new_retail_catalog');
    expect(details).toEqual([{ profile: 'shopify_store', pages: 4 }]);
    expect(reviews).toEqual([]);
    expect(warnings).toEqual([]);
    expect(items).toHaveLength(620);
    expect(items[619]).toMatchObject({
      name: 'Organic Tea No. 620',
      categoryPath: ['Green Tea'],
      brand: 'Leaf & Co',
      optionNames: ['Weight'],
      variants: [
        { name: '50 g', sku: 'TEA-620-50', price: { amount: 850, currency: 'CAD' } },
        { name: '250 g', sku: 'TEA-620-250', price: { amount: 3200, currency: 'CAD' } },
      ],
    });
    expect(site.requests.map((r) => r.url)).toEqual([
      '/',
      '/robots.txt',
      '/products.json?limit=250&page=1',
      '/products.json?limit=250&page=2',
      '/products.json?limit=250&page=3',
    ]);
  });

  it('a WooCommerce storefront: Store API pages, category tree and variation prices', async () => {
    const site = await serve(wooSite);
    const { items, details, warnings } = await readSite(`${site.url}/`, 'new_retail_catalog');
    expect(details).toEqual([{ profile: 'woocommerce_store', pages: 6 }]);
    expect(warnings).toEqual([]);
    expect(items).toHaveLength(240);
    expect(items[0]?.variants.map((v) => [v.name, v.sku, v.price])).toEqual([
      ['Pigeon Grey / 350 ml', 'MUG-GRY', { amount: 900, currency: 'GBP' }],
      ['Black / 350 ml', 'MUG-BLK', { amount: 1100, currency: 'GBP' }],
    ]);
    expect(items[1]).toMatchObject({
      name: 'Tea Towel – Pattern 1',
      categoryPath: ['Kitchen', 'Textiles'],
      tags: ['Cotton'],
    });
    expect(site.requests.map((r) => r.url)).toEqual([
      '/',
      '/robots.txt',
      '/wp-json/wc/store/v1/products?per_page=100&page=1',
      '/wp-json/wc/store/v1/products?per_page=100&page=2',
      '/wp-json/wc/store/v1/products?per_page=100&page=3',
      '/wp-json/wc/store/v1/products/categories',
      '/wp-json/wc/store/v1/products?type=variation&per_page=100&page=1',
    ]);
  });

  it('a plain HTML menu: a draft for review, each item with its place on the page and a confidence', async () => {
    const site = await serve(plainMenuSite);
    const { items, reviews, details } = await readSite(`${site.url}/menu`, 'new_menu');
    expect(details).toEqual([{ profile: 'html_draft', pages: 1 }]);
    expect(reviews).toEqual([expect.stringContaining('drafted from the page')]);
    expect(items).toHaveLength(10);
    expect(items.every((i) => typeof i.confidence === 'number' && i.provenance?.locator)).toBe(true);
  });

  it('a store with far more pages than the bound: stops at the bound and says so', async () => {
    const site = await serve(shopifySite(1_000_000));
    const { items, warnings, details, budget } = await readSite(`${site.url}/`, 'new_retail_catalog', {
      maxPagesPerJob: 8,
    });
    expect(details).toEqual([{ profile: 'shopify_store', pages: 8 }]);
    expect(budget.pages).toBe(8);
    expect(items).toHaveLength(7 * 250);
    expect(warnings).toEqual([
      expect.objectContaining({
        code: 'page_limit',
        message: expect.stringContaining('the limit of 8 pages per job was reached'),
      }),
    ]);
    expect(site.requests.filter((r) => r.url.startsWith('/products.json'))).toHaveLength(7);
  });
});
