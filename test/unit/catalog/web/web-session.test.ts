import {
  DEFAULT_WEB_LIMITS,
  type WebLimits,
  webUserAgent,
} from '../../../../lambdas/core/catalog/web/limits';
import { WebBudget, WebSession } from '../../../../lambdas/core/catalog/web/web-session';
import { OutboundNetworkError } from '../../../../lambdas/core/outbound';
import { type RouteAnswer, RouteHttp } from '../../../fixtures/web/route-http';

const session = (route: (url: URL) => RouteAnswer | Error | undefined, limits: Partial<WebLimits> = {}) => {
  const http = new RouteHttp(route);
  const waits: number[] = [];
  let clock = 1_000_000;
  const budget = new WebBudget({ ...DEFAULT_WEB_LIMITS, ...limits });
  const web = new WebSession({
    http,
    budget,
    wait: async (ms) => {
      waits.push(ms);
      clock += ms;
    },
    now: () => clock,
  });
  return { http, waits, web, budget, advance: (ms: number) => (clock += ms) };
};

describe('web session', () => {
  it('sends the service User-Agent and reads robots.txt once per origin before anything else', async () => {
    const { http, web } = session((url) =>
      url.pathname === '/robots.txt' ? { body: 'User-agent: *\nAllow: /' } : { body: 'ok' },
    );
    await web.fetch('https://shop.example/a', 'text/html');
    await web.fetch('https://shop.example/b', 'text/html');
    expect(http.paths).toEqual(['/robots.txt', '/a', '/b']);
    expect(http.requests.every((r) => r.headers?.['user-agent'] === webUserAgent())).toBe(true);
    expect(webUserAgent()).toMatch(/^CatalogJobsBot\/1\.0 \(catalog-jobs-service;/);
    expect(webUserAgent('https://ops.example/bot')).toContain('+https://ops.example/bot');
  });

  it('honours robots.txt rules for its token, and treats a missing robots.txt as allowing all', async () => {
    const robots =
      'User-agent: *\nDisallow: /private\n\nUser-agent: CatalogJobsBot\nDisallow: /products.json\n';
    const { http, web } = session((url) =>
      url.pathname === '/robots.txt' ? { body: robots } : { body: '{}' },
    );
    const refused = await web.fetch('https://shop.example/products.json?page=1', 'application/json');
    expect(refused).toMatchObject({ ok: false, reason: 'robots', retryable: false });
    expect((await web.fetch('https://shop.example/private/x', 'text/html')).ok).toBe(true);
    expect(http.paths).toEqual(['/robots.txt', '/private/x']);

    const open = session((url) => (url.pathname === '/robots.txt' ? { status: 404 } : { body: '{}' }));
    expect((await open.web.fetch('https://shop.example/products.json', 'application/json')).ok).toBe(true);
  });

  it('reads a robots.txt longer than its bound up to the bound, whole lines only: those rules still apply', async () => {
    const filler = `# ${'x'.repeat(78)}\n`.repeat(7000);
    const robots = `User-agent: *\nDisallow: /private\n${filler}Disallow: /late\n`;
    expect(robots.length).toBeGreaterThan(DEFAULT_WEB_LIMITS.robotsMaxBytes);
    const { http, web } = session((url) =>
      url.pathname === '/robots.txt' ? { body: robots } : { body: '{}' },
    );
    expect(await web.fetch('https://shop.example/private/x', 'text/html')).toMatchObject({
      ok: false,
      reason: 'robots',
    });
    // What lies beyond the bound is not read: its rule does not apply.
    expect((await web.fetch('https://shop.example/late', 'text/html')).ok).toBe(true);
    expect(http.paths).toEqual(['/robots.txt', '/late']);
    expect(web.warnings).toEqual([]);
  });

  it('fetches nothing beyond the given page when robots.txt cannot be read (RFC 9309)', async () => {
    const { web } = session((url) => (url.pathname === '/robots.txt' ? { status: 503 } : { body: '{}' }));
    const outcome = await web.fetch('https://shop.example/products.json', 'application/json');
    expect(outcome).toMatchObject({ ok: false, reason: 'robots' });
    expect(web.warnings).toEqual([expect.objectContaining({ code: 'robots_unreadable' })]);
  });

  it('paces requests to one host, and honours a Crawl-delay up to its bound', async () => {
    const { waits, web } = session((url) =>
      url.pathname === '/robots.txt' ? { body: 'User-agent: *\nCrawl-delay: 30\n' } : { body: 'x' },
    );
    await web.fetch('https://shop.example/1', 'text/html');
    await web.fetch('https://shop.example/2', 'text/html');
    // robots.txt → /1 → /2: each after the crawl delay, cut to its bound.
    expect(waits).toEqual([DEFAULT_WEB_LIMITS.maxCrawlDelayMs, DEFAULT_WEB_LIMITS.maxCrawlDelayMs]);
    const plain = session(() => ({ body: 'x' }));
    await plain.web.fetch('https://shop.example/1', 'text/html');
    expect(plain.waits).toEqual([DEFAULT_WEB_LIMITS.minIntervalMs]);
  });

  it('stops at the page bound of the job, shared by its sources, and says so', async () => {
    const limits = { maxPagesPerJob: 3, minIntervalMs: 0 };
    const { web, budget, http } = session(() => ({ body: 'x' }), limits);
    web.countFirstPage('https://shop.example/', 1);
    expect((await web.fetch('https://shop.example/1', 'text/html')).ok).toBe(true);
    const second = new WebSession({ http, budget, wait: async () => {}, now: () => 1_000_000 });
    expect((await second.fetch('https://shop.example/2', 'text/html')).ok).toBe(true);
    expect(await second.fetch('https://shop.example/3', 'text/html')).toMatchObject({
      ok: false,
      reason: 'limit',
      message: 'the limit of 3 pages per job was reached',
    });
    expect(budget.pages).toBe(3);
  });

  it('stops at the request bound, robots.txt and retries included', async () => {
    const { web } = session((url) => (url.pathname === '/robots.txt' ? { status: 404 } : { status: 500 }), {
      maxRequestsPerJob: 3,
    });
    expect(await web.fetch('https://shop.example/1', 'text/html')).toMatchObject({
      ok: false,
      reason: 'http',
      status: 500,
    });
    expect(await web.fetch('https://shop.example/2', 'text/html')).toMatchObject({
      ok: false,
      reason: 'limit',
    });
  });

  it('retries a 429 once after its Retry-After (bounded), and a network failure once', async () => {
    let calls = 0;
    const { waits, web } = session(
      (url) => {
        if (url.pathname === '/robots.txt') return { status: 404 };
        calls += 1;
        return calls === 1 ? { status: 429, headers: { 'retry-after': '60' } } : { body: 'ok' };
      },
      { minIntervalMs: 0 },
    );
    expect((await web.fetch('https://shop.example/p', 'text/html')).ok).toBe(true);
    expect(waits).toContain(DEFAULT_WEB_LIMITS.maxRetryAfterMs);

    const failing = session((url) =>
      url.pathname === '/robots.txt' ? { status: 404 } : new OutboundNetworkError('ECONNRESET'),
    );
    expect(await failing.web.fetch('https://shop.example/p', 'text/html')).toMatchObject({
      ok: false,
      reason: 'network',
      retryable: true,
    });
    expect(failing.http.paths).toEqual(['/robots.txt', '/p', '/p']);
  });

  it('counts bytes over all pages of a source against the source limit', async () => {
    const { web } = session(
      (url) => (url.pathname === '/robots.txt' ? { status: 404 } : { body: 'x'.repeat(600) }),
      {
        maxSourceBytes: 1000,
        minIntervalMs: 0,
      },
    );
    expect((await web.fetch('https://shop.example/1', 'text/html')).ok).toBe(true);
    expect(await web.fetch('https://shop.example/2', 'text/html')).toMatchObject({
      ok: false,
      reason: 'too_large',
    });
    expect(web.bytes).toBe(600);
  });

  it('stops when the time of a source is spent', async () => {
    const { web, advance } = session(
      (url) => (url.pathname === '/robots.txt' ? { status: 404 } : { body: 'x' }),
      {
        sourceTimeMs: 10_000,
        minIntervalMs: 0,
      },
    );
    expect((await web.fetch('https://shop.example/1', 'text/html')).ok).toBe(true);
    advance(10_001);
    expect(await web.fetch('https://shop.example/2', 'text/html')).toMatchObject({
      ok: false,
      reason: 'limit',
      message: expect.stringContaining('time limit'),
    });
  });

  it('stops when the time of all the web sources of a job is spent, whatever each source has left', async () => {
    const { web, advance, http, budget } = session(
      (url) => (url.pathname === '/robots.txt' ? { status: 404 } : { body: 'x' }),
      { sourceTimeMs: 10_000, jobTimeMs: 15_000, minIntervalMs: 0 },
    );
    expect((await web.fetch('https://shop.example/1', 'text/html')).ok).toBe(true);
    advance(9_000);
    const clock = (budget.startedAt as number) + 15_001;
    const second = new WebSession({ http, budget, wait: async () => {}, now: () => clock });
    expect(await second.fetch('https://other.example/1', 'text/html')).toMatchObject({
      ok: false,
      reason: 'limit',
      message: "the time limit of 15 s for a job's web sources was reached",
    });
  });
});
