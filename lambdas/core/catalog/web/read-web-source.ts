import type { Document } from 'domhandler';
import type { DraftItem } from '../draft';
import {
  absoluteUrl,
  attr,
  baseUrlOf,
  decodeHtml,
  findAll,
  HtmlTooDeepError,
  looksLikeHtml,
  parseHtml,
  textOf,
} from './html';
import { draftFromPage } from './html-draft';
import { readStructuredData } from './schema-org';
import { readShopifyStore, readWooStore, type StoreReading } from './store-crawl';
import { detectStorefront } from './storefront-detect';
import type { WebProfile, WebReadContext, WebWarning } from './types';
import type { NotFetched, WebSession } from './web-session';

/** The page the client gave, as fetched. */
export interface WebPage {
  /** The URL that answered (after redirects). */
  readonly url: string;
  readonly body: Uint8Array;
  readonly contentType: string | null;
  readonly headers: Readonly<Record<string, string>>;
}

export interface WebSourceResult {
  readonly profile: WebProfile;
  readonly items: DraftItem[];
  readonly warnings: WebWarning[];
  /** Pages fetched for this source, the given one included. */
  readonly pages: number;
  /** Why a person must look (a drafted menu, or nothing readable), or null when the data was read by machine. */
  readonly review: string | null;
  /** A transient failure left a store's catalog incomplete: a later attempt may complete it. */
  readonly transient: NotFetched | null;
  /**
   * What a person needs to see beside the draft: the pages the items were drafted from, or the given page
   * when nothing could be read there; empty when the source was read by machine.
   */
  readonly reviewPages: readonly ReviewPage[];
}

/** A page as the machine read it (decoded), for the reviewer. */
export interface ReviewPage {
  /** After redirects. */
  readonly url: string;
  readonly html: string;
}

const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5';

/** Link text or paths that lead from a restaurant's home page to its menu. */
const MENU_LINK =
  /\b(?:menus?|carte|la carte|speisekarte|karte|men[uú]|cardápio|food|drinks|dinner|lunch|brunch|breakfast)\b/i;

const sameSite = (a: string, b: string): boolean => {
  const x = new URL(a);
  const y = new URL(b);
  return x.hostname.replace(/^www\./, '') === y.hostname.replace(/^www\./, '');
};

const hasPrices = (items: readonly DraftItem[]): boolean =>
  items.some((i) => i.variants.some((v) => v.price !== null || v.pricing === 'variable'));

/** Same-site links whose text or path says "menu" (a restaurant's home page), PDFs apart. */
const menuLinksOf = (document: Document, pageUrl: string): { pages: string[]; pdfs: string[] } => {
  const base = baseUrlOf(document, pageUrl);
  const pages = new Set<string>();
  const pdfs = new Set<string>();
  for (const anchor of findAll(document, (e) => e.name === 'a' && attr(e, 'href') !== undefined)) {
    const url = absoluteUrl(attr(anchor, 'href'), base);
    if (!url || !sameSite(url, pageUrl)) continue;
    const path = new URL(url).pathname;
    if (!MENU_LINK.test(textOf(anchor)) && !MENU_LINK.test(path.replace(/[-_/]/g, ' '))) continue;
    const clean = url.replace(/#.*$/, '');
    if (clean === pageUrl.replace(/#.*$/, '')) continue;
    if (/\.pdf$/i.test(path)) pdfs.add(clean);
    else if (!/\.(?:jpe?g|png|gif|webp|svg|zip|docx?)$/i.test(path)) pages.add(clean);
  }
  return { pages: [...pages], pdfs: [...pdfs] };
};

/** The same product listed twice (a listing and its next page overlap) is kept once. */
const uniqueItems = (items: readonly DraftItem[]): DraftItem[] => {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify([item.name, item.variants.map((v) => v.sku ?? v.gtin ?? v.name)]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/** The page's `rel="next"` link on the same site, if any. */
const nextPageOf = (document: Document, pageUrl: string): string | null => {
  const link = findAll(
    document,
    (e) => (e.name === 'link' || e.name === 'a') && /(?:^|\s)next(?:\s|$)/i.test(attr(e, 'rel') ?? ''),
  )[0];
  const url = link ? absoluteUrl(attr(link, 'href'), baseUrlOf(document, pageUrl)) : null;
  return url && sameSite(url, pageUrl) && url !== pageUrl ? url : null;
};

const followNextPages = async (
  document: Document,
  pageUrl: string,
  session: WebSession,
  context: WebReadContext,
  warnings: WebWarning[],
): Promise<DraftItem[]> => {
  const items: DraftItem[] = [];
  const visited = new Set([pageUrl]);
  for (let next = nextPageOf(document, pageUrl); next && !visited.has(next); ) {
    visited.add(next);
    const outcome = await session.fetch(next, HTML_ACCEPT);
    if (!outcome.ok) {
      const code =
        outcome.reason === 'limit'
          ? 'page_limit'
          : outcome.reason === 'robots'
            ? 'robots_disallowed'
            : 'page_unreadable';
      warnings.push({ code, message: `the listing's next page was not read: ${outcome.message}`, url: next });
      break;
    }
    let page: Document;
    try {
      page = parseHtml(decodeHtml(outcome.body, outcome.headers['content-type']));
    } catch (error) {
      if (!(error instanceof HtmlTooDeepError)) throw error;
      warnings.push({ code: 'page_unreadable', message: `${next}: ${error.message}`, url: next });
      break;
    }
    const read = readStructuredData(page, outcome.url, context);
    warnings.push(...read.warnings);
    if (read.found !== 'products') break;
    items.push(...read.items);
    next = nextPageOf(page, outcome.url);
  }
  return items;
};

interface PageReading {
  readonly items: DraftItem[];
  readonly drafted: boolean;
  readonly warnings: WebWarning[];
  readonly menuLinks: string[];
}

/** One HTML page: its schema.org data, else a draft from its layout. */
const readPage = (document: Document, url: string, context: WebReadContext): PageReading => {
  const structured = readStructuredData(document, url, context);
  const warnings = structured.warnings.map((w) => ({ ...w, url: w.url ?? url }));
  if (structured.items.length > 0 && (structured.found !== 'menu' || hasPrices(structured.items))) {
    return { items: structured.items, drafted: false, warnings, menuLinks: [] };
  }
  const draft = draftFromPage(document, url, context);
  if (structured.items.length > 0) {
    if (hasPrices(draft)) {
      warnings.push({
        code: 'structured_data_without_prices',
        message: `the menu data of ${url} has no prices; the page's layout was drafted instead`,
        url,
      });
      return { items: draft, drafted: true, warnings, menuLinks: [] };
    }
    warnings.push({ code: 'no_prices', message: `the menu data of ${url} has no prices`, url });
    return { items: structured.items, drafted: false, warnings, menuLinks: [] };
  }
  return { items: draft, drafted: draft.length > 0, warnings, menuLinks: structured.menuLinks };
};

/**
 * Reads a web source (SPEC 5.2 "Web pages and online stores") from the page the client gave:
 * 1. a Shopify or WooCommerce storefront is read through its public catalog endpoint, page by page;
 * 2. otherwise the page's schema.org data (JSON-LD, microdata) is read by machine;
 * 3. otherwise the page's layout is drafted for a person to check;
 * 4. a page with none of these (a restaurant's home page) has its menu links followed, within the bounds.
 * Every fetch beyond the given page goes through `session` (robots.txt, User-Agent, bounds); without one
 * (a saved page uploaded as a file) only the page itself is read.
 */
export const readWebSource = async (
  first: WebPage,
  session: WebSession | null,
  context: WebReadContext,
): Promise<WebSourceResult> => {
  const html = decodeHtml(first.body, first.contentType);
  const document = parseHtml(html);
  const warnings: WebWarning[] = [];
  const done = (
    profile: WebProfile,
    items: DraftItem[],
    review: string | null = null,
    transient: NotFetched | null = null,
    reviewPages: readonly ReviewPage[] = [],
  ): WebSourceResult => ({
    profile,
    items,
    warnings: [...warnings, ...(session?.warnings ?? [])],
    pages: session?.pages ?? 1,
    review,
    transient,
    reviewPages,
  });
  const given: ReviewPage = { url: first.url, html };

  const store = session ? detectStorefront(html, document, first.url, first.headers) : null;
  if (session && store) {
    const reading: StoreReading =
      store.platform === 'shopify'
        ? await readShopifyStore(session, store, context.currency)
        : await readWooStore(session, store, context.currency);
    warnings.push(...reading.warnings);
    const profile = store.platform === 'shopify' ? 'shopify_store' : 'woocommerce_store';
    if (reading.usable) return done(profile, reading.items, null, reading.transient);
  }

  const page = readPage(document, first.url, context);
  warnings.push(...page.warnings);
  if (page.items.length > 0) {
    if (page.drafted) {
      return done(
        'html_draft',
        page.items,
        `the catalog on ${first.url} was drafted from the page's layout and needs checking`,
        null,
        [given],
      );
    }
    // A product listing split over pages (`rel="next"`): the following pages, within the bounds.
    const more =
      session && context.kind === 'retail'
        ? await followNextPages(document, first.url, session, context, warnings)
        : [];
    return done('schema_org', uniqueItems([...page.items, ...more]));
  }

  const nothing = `${first.url} has no ${context.kind === 'menu' ? 'menu' : 'product'} data the service can read`;
  if (!session) return done('none', [], nothing, null, [given]);
  const links = menuLinksOf(document, first.url);
  const follow = [...new Set([...page.menuLinks, ...(context.kind === 'menu' ? links.pages : [])])];
  for (const pdf of links.pdfs) {
    warnings.push({
      code: 'pdf_menu_linked',
      message: `the page links to a PDF menu, ${pdf}: give that URL as a catalog source to have it read`,
      url: pdf,
    });
  }
  const structured: DraftItem[] = [];
  const drafted: DraftItem[] = [];
  const draftedPages: ReviewPage[] = [];
  let followed = 0;
  for (const url of follow) {
    if (followed >= session.limits.maxFollowedLinks) {
      warnings.push({
        code: 'links_not_followed',
        message: `${follow.length - followed} more menu links were not followed (at most ${session.limits.maxFollowedLinks} per source)`,
        url: first.url,
      });
      break;
    }
    followed += 1;
    const outcome = await session.fetch(url, HTML_ACCEPT);
    if (!outcome.ok) {
      warnings.push({
        code:
          outcome.reason === 'robots'
            ? 'robots_disallowed'
            : outcome.reason === 'limit'
              ? 'page_limit'
              : 'page_unreadable',
        message: outcome.message,
        url,
      });
      if (outcome.reason === 'limit') break;
      continue;
    }
    if (!looksLikeHtml(outcome.body.subarray(0, 1024), outcome.headers['content-type'])) {
      warnings.push({ code: 'page_unreadable', message: `${url} is not an HTML page`, url });
      continue;
    }
    let linkedDocument: Document;
    const linkedHtml = decodeHtml(outcome.body, outcome.headers['content-type']);
    try {
      linkedDocument = parseHtml(linkedHtml);
    } catch (error) {
      if (!(error instanceof HtmlTooDeepError)) throw error;
      warnings.push({ code: 'page_unreadable', message: `${url}: ${error.message}`, url });
      continue;
    }
    const linked = readPage(linkedDocument, outcome.url, context);
    warnings.push(...linked.warnings);
    (linked.drafted ? drafted : structured).push(...linked.items);
    if (linked.drafted) draftedPages.push({ url: outcome.url, html: linkedHtml });
  }
  if (structured.length > 0) return done('schema_org', structured);
  if (drafted.length > 0)
    return done(
      'html_draft',
      drafted,
      `the catalog on the pages linked from ${first.url} was drafted from their layout and needs checking`,
      null,
      draftedPages,
    );
  return done('none', [], nothing, null, [given]);
};
