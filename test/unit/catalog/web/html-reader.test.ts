import type { Draft } from '../../../../lambdas/core/catalog/draft';
import { detectSource } from '../../../../lambdas/core/catalog/sources/detect';
import { htmlReader } from '../../../../lambdas/core/catalog/sources/html';
import { SOURCE_READERS } from '../../../../lambdas/core/catalog/sources/registry';
import type {
  OpenedSource,
  ReadContext,
  SourceDetails,
} from '../../../../lambdas/core/catalog/sources/types';
import type { WarningInput } from '../../../../lambdas/core/catalog/warnings';
import { DEFAULT_WEB_LIMITS } from '../../../../lambdas/core/catalog/web/limits';
import { WebBudget } from '../../../../lambdas/core/catalog/web/web-session';
import { page } from '../../../fixtures/web/pages';
import { jsonAnswer, RouteHttp } from '../../../fixtures/web/route-http';
import { shopifyPage } from '../../../fixtures/web/stores';

const opened = (
  html: string,
  name: string | null,
  source = name ?? 'f0c4a3d2-0000-4000-8000-000000000000',
): OpenedSource => ({
  source,
  head: Buffer.from(html.slice(0, 4096)),
  contentType: 'text/html; charset=utf-8',
  name,
  encoding: 'utf-8',
  bytes: (async function* () {
    yield Buffer.from(html);
  })(),
});

const context = (overrides: Partial<ReadContext> = {}) => {
  const warnings: WarningInput[] = [];
  const reviews: string[] = [];
  const details: SourceDetails[] = [];
  const ctx: ReadContext = {
    source: 'https://x.example/',
    jobId: 'job-1',
    jobType: 'new_menu',
    language: 'en_us',
    currency: 'USD',
    warn: (w) => warnings.push(w),
    needsReview: (r) => reviews.push(r),
    describe: (d) => details.push(d),
    ...overrides,
  };
  return { ctx, warnings, reviews, details };
};

const collect = async (drafts: AsyncIterable<Draft> | Iterable<Draft>) => {
  const all: Draft[] = [];
  for await (const d of drafts) all.push(d);
  return all;
};

describe('the HTML source reader', () => {
  it('is the reader detection picks for a web page', () => {
    const probe = {
      head: Buffer.from('<!DOCTYPE html><html><head>'),
      contentType: null,
      name: 'https://x.example/menu',
    };
    expect(detectSource(probe, SOURCE_READERS, htmlReader).reader).toBe(htmlReader);
    const labelled = { head: Buffer.from('<div>menu</div>'), contentType: 'text/html', name: null };
    expect(detectSource(labelled, SOURCE_READERS, htmlReader).reader.format).toBe('html');
  });

  it('reads schema.org menus into drafts by machine, and describes the source', async () => {
    const { ctx, reviews, details, warnings } = context();
    const output = await htmlReader.read(
      opened(page('restaurant-graph.html'), 'https://trattoria-sole.example/menu/'),
      ctx,
    );
    expect(output.kind).toBe('drafts');
    const drafts = output.kind === 'drafts' ? await collect(output.drafts) : [];
    expect(drafts).toHaveLength(6);
    expect(drafts[0]).toMatchObject({
      kind: 'item',
      name: 'Margherita',
      categoryPath: ['Pizza', 'Red'],
      optionNames: ['Size'],
    });
    expect(reviews).toEqual([]);
    expect(details).toEqual([{ profile: 'schema_org', pages: 1 }]);
    expect(warnings.map((w) => w.code)).toEqual(['not_a_price', 'missing_name']);
  });

  it('sends a drafted menu to review with provenance and confidence on every item', async () => {
    const { ctx, reviews, details } = context();
    const output = await htmlReader.read(opened(page('plain-menu.html'), 'https://harbor.example/menu'), ctx);
    const drafts = output.kind === 'drafts' ? await collect(output.drafts) : [];
    expect(details).toEqual([{ profile: 'html_draft', pages: 1 }]);
    expect(reviews).toEqual([expect.stringContaining('drafted')]);
    expect(drafts[0]).toMatchObject({
      provenance: {
        source: 'https://harbor.example/menu',
        url: 'https://harbor.example/menu',
        locator: expect.stringContaining('li'),
      },
      confidence: 0.9,
    });
  });

  it('pages through a store with the job budget, and retries the job when the store fails part-way', async () => {
    const home = '<html><head><script>Shopify.shop = "s.myshopify.com";</script></head><body></body></html>';
    let fail = true;
    const http = new RouteHttp((url) => {
      if (url.pathname === '/robots.txt') return { status: 404 };
      if (url.searchParams.get('page') === '2' && fail) return { status: 502 };
      return url.pathname === '/products.json'
        ? jsonAnswer(shopifyPage(300, Number(url.searchParams.get('page')), 250))
        : undefined;
    });
    const budget = new WebBudget({ ...DEFAULT_WEB_LIMITS, minIntervalMs: 0 });
    const web = { budget, lastAttempt: false, wait: async () => {} };
    const first = context({ http, web, jobType: 'new_retail_catalog' });
    await expect(htmlReader.read(opened(home, 'https://s.example/'), first.ctx)).rejects.toMatchObject({
      name: 'OutboundNetworkError',
      retryable: true,
    });

    const last = context({ http, web: { ...web, lastAttempt: true }, jobType: 'new_retail_catalog' });
    const output = await htmlReader.read(opened(home, 'https://s.example/'), last.ctx);
    expect(output.kind === 'drafts' ? (await collect(output.drafts)).length : 0).toBe(250);
    expect(last.warnings.map((w) => w.code)).toEqual(['currency_assumed', 'store_incomplete']);

    fail = false;
    const again = context({ http, web: { ...web, lastAttempt: false }, jobType: 'new_retail_catalog' });
    const complete = await htmlReader.read(opened(home, 'https://s.example/'), again.ctx);
    expect(complete.kind === 'drafts' ? (await collect(complete.drafts)).length : 0).toBe(300);
    expect(again.details).toEqual([{ profile: 'shopify_store', pages: 3 }]);
    expect(budget.pages).toBeGreaterThan(3);
  });

  it('reads an uploaded saved page on its own, fetching nothing', async () => {
    const http = new RouteHttp(() => undefined);
    const { ctx, details } = context({ http });
    const output = await htmlReader.read(opened(page('microdata-menu.html'), 'menu.html'), ctx);
    expect(
      output.kind === 'drafts'
        ? (await collect(output.drafts)).map((d) => (d.kind === 'item' ? d.name : ''))
        : [],
    ).toEqual(['Avocado Toast', 'Granola Bowl', 'Latte']);
    expect(details).toEqual([{ profile: 'schema_org', pages: 1 }]);
    expect(http.requests).toEqual([]);
  });

  it('refuses a page over the bound on one page', async () => {
    const { ctx } = context({
      web: { budget: new WebBudget({ ...DEFAULT_WEB_LIMITS, maxPageBytes: 100 }), lastAttempt: true },
    });
    await expect(
      htmlReader.read(opened(`<html>${'x'.repeat(200)}</html>`, 'https://x.example/'), ctx),
    ).rejects.toMatchObject({
      code: 'source_unreadable',
      message: expect.stringContaining('larger than'),
    });
  });

  it('refuses a page nested beyond any real page (parsing it would take minutes), and says why', async () => {
    const { ctx } = context();
    const nested = `<html><body>${'<div>'.repeat(5000)}Soup $5</body></html>`;
    await expect(htmlReader.read(opened(nested, 'https://x.example/'), ctx)).rejects.toMatchObject({
      code: 'source_unreadable',
      message: expect.stringContaining('nests its elements more than 1024 deep'),
    });
  });
});
