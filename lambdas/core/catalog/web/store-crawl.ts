import type { DraftItem } from '../draft';
import { asId, asInteger, asObject, asText, type JsonObject } from './json-fields';
import { isLastShopifyPage, mapShopifyProducts, SHOPIFY_PAGE_SIZE, shopifyProductsOf } from './shopify';
import type { Storefront } from './storefront-detect';
import { wooEndpoint } from './storefront-detect';
import type { WebWarning } from './types';
import { currencyCode } from './values';
import type { FetchOutcome, NotFetched, WebSession } from './web-session';
import {
  mapWooProducts,
  WOO_PAGE_SIZE,
  type WooCategory,
  wooCategoriesOf,
  wooProductsOf,
  wooVariationIds,
} from './woocommerce';

/** What reading a store's catalog endpoint gave. */
export interface StoreReading {
  readonly items: DraftItem[];
  readonly warnings: WebWarning[];
  /** false: the endpoint is not there or not what it should be; read the page itself instead. */
  readonly usable: boolean;
  /** A transient failure part-way (a 5xx, a time-out): the catalog is incomplete, a retry may complete it. */
  readonly transient: NotFetched | null;
}

const JSON_ACCEPT = 'application/json';

const json = (outcome: FetchOutcome): unknown => {
  if (!outcome.ok) return undefined;
  try {
    return JSON.parse(outcome.body.toString('utf8').replace(/^\ufeff/, ''));
  } catch {
    return undefined;
  }
};

/** The warning for a paged read that stopped before the store's last page. */
const stopped = (what: string, page: number, outcome: NotFetched): WebWarning => ({
  code:
    outcome.reason === 'limit'
      ? 'page_limit'
      : outcome.reason === 'robots'
        ? 'robots_disallowed'
        : 'store_incomplete',
  message: `${what}: stopped before page ${page} (${outcome.message}); the catalog holds only what the first ${page - 1} page(s) listed`,
});

/**
 * A Shopify store through `/products.json?limit=250&page=N` until a short page. The currency is the one the
 * store's page names, else the one `/meta.json` names, else the job's (with a warning).
 */
export const readShopifyStore = async (
  session: WebSession,
  store: Extract<Storefront, { platform: 'shopify' }>,
  fallbackCurrency: string,
): Promise<StoreReading> => {
  const warnings: WebWarning[] = [];
  const items: DraftItem[] = [];
  const seen = new Set<string>();
  let currency = store.currency;
  for (let page = 1; ; page++) {
    const outcome = await session.fetch(
      `${store.catalogUrl}?limit=${SHOPIFY_PAGE_SIZE}&page=${page}`,
      JSON_ACCEPT,
    );
    const products = shopifyProductsOf(json(outcome));
    if (!outcome.ok || products === undefined) {
      if (page === 1 && (outcome.ok || !outcome.retryable)) {
        const why = outcome.ok ? 'did not answer with a product list' : outcome.message;
        return {
          items,
          warnings: [
            {
              code: 'store_unreadable',
              message: `${store.catalogUrl} ${why}; the page was read instead`,
              url: store.catalogUrl,
            },
          ],
          usable: false,
          transient: null,
        };
      }
      const failure: NotFetched = outcome.ok
        ? { ok: false, reason: 'http', message: 'the answer was not a product list', retryable: true }
        : outcome;
      warnings.push({ ...stopped(`${store.catalogUrl}`, page, failure), url: store.catalogUrl });
      return {
        items,
        warnings,
        usable: true,
        transient: failure.retryable && failure.reason !== 'limit' ? failure : null,
      };
    }
    if (page === 1 && currency === null)
      currency = await shopCurrency(session, store.origin, fallbackCurrency, warnings);
    const fresh = products.filter((p) => {
      const id = asId(p.id);
      if (id === null) return true;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
    const mapped = mapShopifyProducts(fresh, {
      currency: currency ?? fallbackCurrency,
      storeUrl: store.origin,
    });
    items.push(...mapped.items);
    warnings.push(...mapped.warnings.map((w) => ({ ...w, url: store.catalogUrl })));
    if (isLastShopifyPage(products.length) || fresh.length === 0)
      return { items, warnings, usable: true, transient: null };
  }
};

const shopCurrency = async (
  session: WebSession,
  origin: string,
  fallback: string,
  warnings: WebWarning[],
): Promise<string> => {
  const meta = asObject(json(await session.fetch(`${origin}/meta.json`, JSON_ACCEPT)));
  const named = currencyCode(asText(meta?.currency));
  if (named) return named;
  warnings.push({
    code: 'currency_assumed',
    message: `the store does not name its currency; prices were read as ${fallback}`,
    url: origin,
  });
  return fallback;
};

/** Pages of a Store API listing: stops at `X-WP-TotalPages`, a short page, or a bound. */
const readWooListing = async (
  session: WebSession,
  apiRoot: string,
  query: Readonly<Record<string, string | number>>,
  what: string,
  warnings: WebWarning[],
  /** Sees each page as it arrives; true stops the reading (everything wanted was found). */
  onPage: (list: readonly JsonObject[]) => boolean = () => false,
): Promise<{ products: JsonObject[]; failure: NotFetched | null; firstUnusable: boolean }> => {
  const products: JsonObject[] = [];
  for (let page = 1; ; page++) {
    const url = wooEndpoint(apiRoot, 'wc/store/v1/products', { ...query, per_page: WOO_PAGE_SIZE, page });
    const outcome = await session.fetch(url, JSON_ACCEPT);
    const list = wooProductsOf(json(outcome));
    if (!outcome.ok || list === undefined) {
      if (page === 1 && (outcome.ok || !outcome.retryable))
        return { products, failure: null, firstUnusable: true };
      const failure: NotFetched = outcome.ok
        ? { ok: false, reason: 'http', message: 'the answer was not a product list', retryable: true }
        : outcome;
      warnings.push({ ...stopped(what, page, failure), url });
      return { products, failure, firstUnusable: false };
    }
    products.push(...list);
    const totalPages = asInteger(outcome.headers['x-wp-totalpages']);
    const last = totalPages !== null ? page >= totalPages : list.length < WOO_PAGE_SIZE;
    const enough = onPage(list);
    if (last || list.length === 0 || enough) return { products, failure: null, firstUnusable: false };
  }
};

/**
 * A WooCommerce store through its Store API: the category tree (`/products/categories`), every product
 * page, then the variations of variable products (`?type=variation`), whose prices the product entries do
 * not carry.
 */
export const readWooStore = async (
  session: WebSession,
  store: Extract<Storefront, { platform: 'woocommerce' }>,
  fallbackCurrency: string,
): Promise<StoreReading> => {
  const warnings: WebWarning[] = [];
  const listing = await readWooListing(session, store.apiRoot, {}, 'the store API', warnings);
  if (listing.firstUnusable) {
    const url = wooEndpoint(store.apiRoot, 'wc/store/v1/products', {});
    return {
      items: [],
      warnings: [
        {
          code: 'store_unreadable',
          message: `${url} did not answer with a product list; the page was read instead`,
          url,
        },
      ],
      usable: false,
      transient: null,
    };
  }
  let categories = new Map<string, WooCategory>();
  const categoryAnswer = await session.fetch(
    wooEndpoint(store.apiRoot, 'wc/store/v1/products/categories', {}),
    JSON_ACCEPT,
  );
  if (categoryAnswer.ok) categories = wooCategoriesOf(json(categoryAnswer));
  const wanted = new Set(wooVariationIds(listing.products));
  const variations = new Map<string, JsonObject>();
  let failure = listing.failure;
  if (wanted.size > 0 && failure === null) {
    const read = await readWooListing(
      session,
      store.apiRoot,
      { type: 'variation' },
      'the store API variations',
      warnings,
      (list) => {
        for (const entry of list) {
          const id = asId(entry.id);
          if (id !== null && wanted.has(id)) variations.set(id, entry);
        }
        return variations.size === wanted.size;
      },
    );
    failure = read.failure;
  }
  const mapped = mapWooProducts(listing.products, {
    currency: fallbackCurrency,
    storeUrl: store.origin,
    categories,
    variations,
  });
  return {
    items: mapped.items,
    warnings: [...warnings, ...mapped.warnings.map((w) => ({ ...w, url: store.origin }))],
    usable: true,
    transient: failure?.retryable && failure.reason !== 'limit' ? failure : null,
  };
};
