import type { Document } from 'domhandler';
import { absoluteUrl, attr, findAll } from './html';
import { currencyCode } from './values';

/**
 * Which storefront platform a page was served by, told from the page itself (and its response headers),
 * and where that platform publishes the store's catalog.
 */
export type Storefront =
  | {
      readonly platform: 'shopify';
      /** `/products.json`, or `/collections/{handle}/products.json` when the client gave a collection. */
      readonly catalogUrl: string;
      /** The store's currency as the page names it (`Shopify.currency.active`, `og:price:currency`). */
      readonly currency: string | null;
      readonly origin: string;
    }
  | {
      readonly platform: 'woocommerce';
      /** The WordPress REST root (`https://shop.example/wp-json/`, or `https://shop.example/?rest_route=/`). */
      readonly apiRoot: string;
      readonly origin: string;
    };

const SHOPIFY_SIGNS: readonly RegExp[] = [
  /\bShopify\.shop\s*=/,
  /\bShopify\.theme\s*=/,
  /<meta[^>]+name=["']shopify-(?:checkout-api-token|digital-wallet)["']/i,
  /\/\/cdn\.shopify\.com\/s\/files\//,
  /["'(]\s*(?:https?:)?\/\/[^"')\s]+\/cdn\/shop\/(?:files|products|t)\//,
  /\bwindow\.ShopifyAnalytics\b/,
];

const WOO_SIGNS: readonly RegExp[] = [
  /<meta[^>]+name=["']generator["'][^>]+content=["']WooCommerce/i,
  /\/wp-content\/plugins\/woocommerce\//,
  /\bwoocommerce_params\b|\bwc_add_to_cart_params\b/,
];

const sameSite = (a: URL, b: URL): boolean =>
  a.protocol === b.protocol && a.hostname.replace(/^www\./, '') === b.hostname.replace(/^www\./, '');

const metaContent = (document: Document, ...names: readonly string[]): string | null => {
  for (const meta of findAll(document, (e) => e.name === 'meta')) {
    const key = (attr(meta, 'property') ?? attr(meta, 'name') ?? attr(meta, 'itemprop') ?? '').toLowerCase();
    if (names.includes(key)) return attr(meta, 'content') ?? null;
  }
  return null;
};

const shopifyCurrency = (html: string, document: Document): string | null =>
  currencyCode(/\bShopify\.currency\s*=\s*\{[^}]*"active"\s*:\s*"([A-Za-z]{3})"/.exec(html)?.[1]) ??
  currencyCode(metaContent(document, 'og:price:currency', 'product:price:currency', 'pricecurrency')) ??
  currencyCode(/"currency"\s*:\s*"([A-Z]{3})"/.exec(html)?.[1]);

/** `<link rel="https://api.w.org/" href>` or the `Link` header of the same relation, on the page's own site. */
const wordpressApiRoot = (
  document: Document,
  pageUrl: URL,
  headers: Readonly<Record<string, string>>,
): string => {
  const link = findAll(document, (e) => e.name === 'link' && attr(e, 'rel') === 'https://api.w.org/')[0];
  const fromHeader = /<([^>]+)>\s*;\s*rel="https:\/\/api\.w\.org\/"/.exec(headers.link ?? '')?.[1];
  const declared = absoluteUrl((link ? attr(link, 'href') : undefined) ?? fromHeader, pageUrl.toString());
  if (declared && sameSite(new URL(declared), pageUrl))
    return declared.endsWith('/') || declared.includes('rest_route=') ? declared : `${declared}/`;
  return `${pageUrl.origin}/wp-json/`;
};

/**
 * Shopify (theme globals, its CDN paths, its meta tags, `x-shopid`) or WooCommerce (`woocommerce` body
 * classes, its generator tag and scripts, a WordPress REST link), or null. A false positive costs one
 * request that fails, after which the page is read as any other page.
 */
export const detectStorefront = (
  html: string,
  document: Document,
  pageUrl: string,
  headers: Readonly<Record<string, string>> = {},
): Storefront | null => {
  const url = new URL(pageUrl);
  const shopifyHeader = headers['x-shopid'] !== undefined || /shopify/i.test(headers['powered-by'] ?? '');
  if (shopifyHeader || SHOPIFY_SIGNS.some((sign) => sign.test(html))) {
    const collection = /^((?:\/[a-z]{2}(?:-[a-z]{2})?)?\/collections\/[^/?#]+)/i.exec(url.pathname)?.[1];
    return {
      platform: 'shopify',
      catalogUrl: `${url.origin}${collection && !/\/collections\/all$/i.test(collection) ? collection : ''}/products.json`,
      currency: shopifyCurrency(html, document),
      origin: url.origin,
    };
  }
  const body = findAll(document, (e) => e.name === 'body')[0];
  const classes = (body ? (attr(body, 'class') ?? '') : '').split(/\s+/);
  if (
    classes.some((c) => /^woocommerce(?:-page|-js|-no-js)?$/.test(c)) ||
    WOO_SIGNS.some((sign) => sign.test(html))
  ) {
    return { platform: 'woocommerce', apiRoot: wordpressApiRoot(document, url, headers), origin: url.origin };
  }
  return null;
};

/** A Store API route under a WordPress REST root, with query parameters, for both permalink styles. */
export const wooEndpoint = (
  apiRoot: string,
  route: string,
  query: Readonly<Record<string, string | number>>,
): string => {
  const params = Object.entries(query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  if (apiRoot.includes('rest_route=')) {
    const base = new URL(apiRoot);
    base.searchParams.set('rest_route', `/${route}`);
    return `${base.toString()}${params ? `&${params}` : ''}`;
  }
  return `${apiRoot}${route}${params ? `?${params}` : ''}`;
};
