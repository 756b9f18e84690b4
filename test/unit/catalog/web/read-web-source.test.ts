import { DEFAULT_WEB_LIMITS, type WebLimits } from '../../../../lambdas/core/catalog/web/limits';
import { readWebSource } from '../../../../lambdas/core/catalog/web/read-web-source';
import type { WebReadContext } from '../../../../lambdas/core/catalog/web/types';
import { WebBudget, WebSession } from '../../../../lambdas/core/catalog/web/web-session';
import { jsonLdPage, page } from '../../../fixtures/web/pages';
import { htmlAnswer, jsonAnswer, type RouteAnswer, RouteHttp } from '../../../fixtures/web/route-http';
import { shopifyPage, wooCategories, wooSimple, wooVariable } from '../../../fixtures/web/stores';

const retail: WebReadContext = { source: 'test', kind: 'retail', currency: 'USD' };
const menu: WebReadContext = { source: 'test', kind: 'menu', currency: 'USD' };

const SHOPIFY_HOME = `<!doctype html><html><head><script>Shopify.shop = "leaf.myshopify.com"; Shopify.currency = {"active":"CAD","rate":"1.0"};</script></head><body></body></html>`;
const WOO_HOME = `<!doctype html><html><head><link rel="https://api.w.org/" href="https://kettle.example/wp-json/"></head><body class="home woocommerce-js"></body></html>`;

const read = async (
  url: string,
  html: string,
  route: (url: URL) => RouteAnswer | Error | undefined,
  context = retail,
  limits: Partial<WebLimits> = {},
) => {
  const http = new RouteHttp((u) => (u.pathname === '/robots.txt' ? { status: 404 } : route(u)));
  const session = new WebSession({
    http,
    budget: new WebBudget({ ...DEFAULT_WEB_LIMITS, minIntervalMs: 0, ...limits }),
    wait: async () => {},
  });
  const body = Buffer.from(html);
  session.countFirstPage(url, body.length);
  const result = await readWebSource(
    { url, body, contentType: 'text/html; charset=utf-8', headers: {} },
    session,
    context,
  );
  return { result, http };
};

const shopifyRoute = (total: number) => (url: URL) =>
  url.pathname === '/products.json'
    ? jsonAnswer(
        shopifyPage(total, Number(url.searchParams.get('page')), Number(url.searchParams.get('limit'))),
      )
    : undefined;

describe('reading a web source', () => {
  it('reads a Shopify store through /products.json, page by page, in the currency its page names', async () => {
    const { result, http } = await read('https://leaf.example/', SHOPIFY_HOME, shopifyRoute(510));
    expect(result).toMatchObject({
      profile: 'shopify_store',
      pages: 4,
      review: null,
      transient: null,
      warnings: [],
    });
    expect(result.items).toHaveLength(510);
    expect(result.items[509]?.variants[0]?.price).toEqual({ amount: 850, currency: 'CAD' });
    expect(http.paths).toEqual([
      '/robots.txt',
      '/products.json?limit=250&page=1',
      '/products.json?limit=250&page=2',
      '/products.json?limit=250&page=3',
    ]);
  });

  it('reads a collection page through that collection, and asks /meta.json for an unnamed currency', async () => {
    const home =
      '<html><head><meta name="shopify-checkout-api-token" content="x"></head><body></body></html>';
    const { result, http } = await read('https://leaf.example/collections/green-tea', home, (url) => {
      if (url.pathname === '/collections/green-tea/products.json') return jsonAnswer(shopifyPage(2, 1, 250));
      if (url.pathname === '/meta.json') return jsonAnswer({ name: 'Leaf', currency: 'GBP' });
      return undefined;
    });
    expect(result.items.map((i) => i.variants[0]?.price?.currency)).toEqual(['GBP', 'GBP']);
    expect(http.paths).toEqual([
      '/robots.txt',
      '/collections/green-tea/products.json?limit=250&page=1',
      '/meta.json',
    ]);
  });

  it('stops at the page bound with a warning, keeping what it read', async () => {
    const { result } = await read('https://leaf.example/', SHOPIFY_HOME, shopifyRoute(100_000), retail, {
      maxPagesPerJob: 5,
    });
    expect(result.pages).toBe(5);
    expect(result.items).toHaveLength(4 * 250);
    expect(result.warnings).toEqual([
      expect.objectContaining({
        code: 'page_limit',
        message: expect.stringContaining('the limit of 5 pages per job was reached'),
      }),
    ]);
    expect(result.transient).toBeNull();
  });

  it('reports a store that fails part-way as transient, keeping the pages read', async () => {
    const { result } = await read('https://leaf.example/', SHOPIFY_HOME, (url) =>
      url.searchParams.get('page') === '2' ? { status: 503 } : shopifyRoute(600)(url),
    );
    expect(result.items).toHaveLength(250);
    expect(result.transient).toMatchObject({ reason: 'http', status: 503, retryable: true });
    expect(result.warnings.map((w) => w.code)).toEqual(['store_incomplete']);
  });

  it('falls back to the page when the store endpoint is absent or robots.txt forbids it', async () => {
    const html = page('shopify-product.html');
    const missing = await read('https://northfield.example/products/merino-beanie', html, () => undefined);
    expect(missing.result.profile).toBe('schema_org');
    expect(missing.result.items.map((i) => i.name)).toEqual(['Merino Beanie']);
    expect(missing.result.warnings.map((w) => w.code)).toEqual(['store_unreadable']);

    const http = new RouteHttp((u) =>
      u.pathname === '/robots.txt' ? { body: 'User-agent: *\nDisallow: /products.json' } : undefined,
    );
    const session = new WebSession({ http, budget: new WebBudget(), wait: async () => {} });
    const forbidden = await readWebSource(
      {
        url: 'https://northfield.example/products/merino-beanie',
        body: Buffer.from(html),
        contentType: 'text/html',
        headers: {},
      },
      session,
      retail,
    );
    expect(forbidden.profile).toBe('schema_org');
    expect(forbidden.warnings[0]?.message).toContain('robots.txt does not allow /products.json');
    expect(http.paths).toEqual(['/robots.txt']);
  });

  it('reads a WooCommerce store: products over several pages, category tree, variation prices', async () => {
    const { product, variations } = wooVariable();
    const products = [product, ...Array.from({ length: 149 }, (_, i) => wooSimple(i + 1))];
    const { result, http } = await read('https://kettle.example/', WOO_HOME, (url) => {
      if (url.pathname === '/wp-json/wc/store/v1/products/categories') return jsonAnswer(wooCategories);
      if (url.pathname !== '/wp-json/wc/store/v1/products') return undefined;
      const pageNo = Number(url.searchParams.get('page'));
      if (url.searchParams.get('type') === 'variation')
        return jsonAnswer(variations, { 'x-wp-totalpages': '1', 'x-wp-total': '2' });
      return jsonAnswer(products.slice((pageNo - 1) * 100, pageNo * 100), {
        'x-wp-totalpages': '2',
        'x-wp-total': '150',
      });
    });
    expect(result).toMatchObject({ profile: 'woocommerce_store', pages: 5, review: null, warnings: [] });
    expect(result.items).toHaveLength(150);
    expect(result.items[0]?.variants.map((v) => [v.name, v.price])).toEqual([
      ['Pigeon Grey / 350 ml', { amount: 900, currency: 'GBP' }],
      ['Black / 350 ml', { amount: 1100, currency: 'GBP' }],
    ]);
    expect(result.items[1]?.categoryPath).toEqual(['Kitchen', 'Textiles']);
    expect(http.paths.slice(1)).toEqual([
      '/wp-json/wc/store/v1/products?per_page=100&page=1',
      '/wp-json/wc/store/v1/products?per_page=100&page=2',
      '/wp-json/wc/store/v1/products/categories',
      '/wp-json/wc/store/v1/products?type=variation&per_page=100&page=1',
    ]);
  });

  it('reads a WordPress site without pretty permalinks through ?rest_route=', async () => {
    const home = `<html><head><link rel="https://api.w.org/" href="https://kettle.example/?rest_route=/"></head><body class="woocommerce"></body></html>`;
    const { result, http } = await read('https://kettle.example/', home, (url) =>
      url.searchParams.get('rest_route') === '/wc/store/v1/products' ? jsonAnswer([wooSimple(1)]) : undefined,
    );
    expect(result.items.map((i) => i.name)).toEqual(['Tea Towel – Pattern 1']);
    expect(http.paths[1]).toBe('/?rest_route=%2Fwc%2Fstore%2Fv1%2Fproducts&per_page=100&page=1');
  });

  it('reads a restaurant page with JSON-LD by machine', async () => {
    const { result } = await read(
      'https://trattoria-sole.example/menu/',
      page('restaurant-graph.html'),
      () => undefined,
      menu,
    );
    expect(result).toMatchObject({ profile: 'schema_org', pages: 1, review: null });
    expect(result.items).toHaveLength(6);
  });

  it('drafts a plain HTML menu for review', async () => {
    const { result } = await read(
      'https://harbor.example/menu',
      page('plain-menu.html'),
      () => undefined,
      menu,
    );
    expect(result.profile).toBe('html_draft');
    expect(result.review).toContain('drafted');
    expect(result.items).toHaveLength(10);
    expect(result.items.every((i) => i.provenance && i.confidence !== undefined)).toBe(true);
  });

  it('follows a home page to its menu page, and says where a PDF menu is', async () => {
    const home = `<html><body><nav><a href="/">Home</a> <a href="/our-menu/">Our Menu</a> <a href="/files/drinks.pdf">Drinks menu</a> <a href="https://elsewhere.example/menu">Partner</a></nav><main><h1>Welcome</h1></main></body></html>`;
    const { result, http } = await read(
      'https://sole.example/',
      home,
      (url) =>
        url.pathname === '/our-menu/'
          ? htmlAnswer(
              jsonLdPage({
                '@type': 'Menu',
                hasMenuItem: { '@type': 'MenuItem', name: 'Soup', offers: { price: 6 } },
              }),
            )
          : undefined,
      menu,
    );
    expect(result).toMatchObject({ profile: 'schema_org', pages: 2 });
    expect(result.items.map((i) => i.name)).toEqual(['Soup']);
    expect(result.warnings.map((w) => [w.code, w.url])).toEqual([
      ['pdf_menu_linked', 'https://sole.example/files/drinks.pdf'],
    ]);
    expect(http.paths).toEqual(['/robots.txt', '/our-menu/']);
  });

  it('sends a page with nothing readable to a person', async () => {
    const { result } = await read(
      'https://sole.example/',
      '<html><body><p>Coming soon</p></body></html>',
      () => undefined,
      menu,
    );
    expect(result).toMatchObject({
      profile: 'none',
      items: [],
      review: 'https://sole.example/ has no menu data the service can read',
    });
  });

  it('follows a product listing split over pages (rel="next"), within the bounds', async () => {
    const listing = (n: number, next: string | null) =>
      `<html><head>${next ? `<link rel="next" href="${next}">` : ''}<script type="application/ld+json">${JSON.stringify(
        {
          '@type': 'ItemList',
          itemListElement: [1, 2].map((i) => ({
            '@type': 'ListItem',
            position: i,
            item: {
              '@type': 'Product',
              name: `Lamp ${n}-${i}`,
              sku: `L-${n}-${i}`,
              offers: { price: '20.00', priceCurrency: 'EUR' },
            },
          })),
        },
      )}</script></head><body></body></html>`;
    const { result, http } = await read(
      'https://lamps.example/c/lamps',
      listing(1, '/c/lamps?page=2'),
      (url) => {
        if (url.search === '?page=2') return htmlAnswer(listing(2, '/c/lamps?page=3'));
        if (url.search === '?page=3') return htmlAnswer(listing(3, 'https://elsewhere.example/?page=4'));
        return undefined;
      },
    );
    expect(result.profile).toBe('schema_org');
    expect(result.pages).toBe(3);
    expect(result.items.map((i) => i.name)).toEqual([
      'Lamp 1-1',
      'Lamp 1-2',
      'Lamp 2-1',
      'Lamp 2-2',
      'Lamp 3-1',
      'Lamp 3-2',
    ]);
    expect(http.paths).toEqual(['/robots.txt', '/c/lamps?page=2', '/c/lamps?page=3']);

    const bounded = await read(
      'https://lamps.example/c/lamps',
      listing(1, '/c/lamps?page=2'),
      (url) =>
        url.search === '?page=2'
          ? htmlAnswer(listing(2, '/c/lamps?page=3'))
          : htmlAnswer(listing(9, '/c/lamps?page=4')),
      retail,
      { maxPagesPerJob: 2 },
    );
    expect(bounded.result.items).toHaveLength(4);
    expect(bounded.result.warnings.map((w) => w.code)).toEqual(['page_limit']);
  });
});
