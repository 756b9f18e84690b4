import { OutboundNetworkError } from '../../outbound';
import { readAll } from '../bytes';
import { CatalogSourceError } from '../errors';
import { decodeHtml, HtmlTooDeepError, parseHtml } from '../web/html';
import { isSpreadsheetExport, spreadsheetTables } from '../web/html-table';
import { DEFAULT_WEB_LIMITS } from '../web/limits';
import { readWebSource } from '../web/read-web-source';
import type { WebReadContext } from '../web/types';
import { WebBudget, WebSession } from '../web/web-session';
import { keepWebReview } from './html-review';
import type { OpenedSource, ReadContext, SourceReader, TableRow } from './types';

/**
 * Web pages and online stores (SPEC 5.2): a URL source that answers with HTML, or an uploaded saved page.
 * The page the client gave is read for a storefront (Shopify, WooCommerce: their catalog endpoints are
 * then read page by page), schema.org data, or a menu to draft; see web/read-web-source.ts. Structured
 * data and store catalogs are read by machine; a drafted menu, or a page with nothing readable, goes to a
 * person (`needsReview`). An HTML spreadsheet export (a `<table>` saved as `.xls`), or a page that is a
 * product table, is read as rows instead (web/html-table.ts).
 */

const isWebUrl = (name: string | null): name is string =>
  name !== null && /^https?:\/\//i.test(name) && URL.canParse(name);

/** The page, up to the bound on one page; more is not a page the service reads. */
const readPage = (source: OpenedSource, maxBytes: number): Promise<Buffer> =>
  readAll(source.bytes, {
    maxBytes,
    tooLarge: () =>
      new CatalogSourceError(
        `${source.source} is a web page larger than ${Math.round(maxBytes / 1024 / 1024)} MB, the limit for one page`,
      ),
  });

/** The page's spreadsheet tables (web/html-table.ts), or null when it is a web page to read as one. */
const spreadsheetTablesOf = (source: OpenedSource, body: Buffer): TableRow[][] | null => {
  const html = decodeHtml(body, source.contentType);
  if (!/<table\b/i.test(html)) return null;
  try {
    return spreadsheetTables(parseHtml(html), isSpreadsheetExport(source.name, source.contentType, html));
  } catch (error) {
    if (error instanceof HtmlTooDeepError) throw new CatalogSourceError(`${source.source}: ${error.message}`);
    throw error;
  }
};

const contextOf = (ctx: ReadContext, source: string): WebReadContext => ({
  source,
  kind: ctx.jobType === 'new_menu' ? 'menu' : 'retail',
  currency: ctx.currency,
});

export const htmlReader: SourceReader = {
  format: 'html',
  textual: true,
  contentTypes: ['text/html', 'application/xhtml+xml'],
  extensions: ['html', 'htm', 'xhtml'],
  sniffText: (text) =>
    /^(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<(?:!doctype html|html|head|body)\b/i.test(text),
  read: async (source, ctx) => {
    const limits = ctx.web?.budget.limits ?? DEFAULT_WEB_LIMITS;
    const body = await readPage(source, limits.maxPageBytes);
    // A URL source, as the server that answered names it (after redirects); an uploaded page is only itself,
    // whatever its file name.
    const url = isWebUrl(source.source) && isWebUrl(source.name) ? source.name : null;
    // Without the job's web context (or for an uploaded saved page) nothing beyond the page is fetched.
    const session =
      url && ctx.http
        ? new WebSession({
            http: ctx.http,
            budget: ctx.web?.budget ?? new WebBudget(limits),
            userAgent: ctx.web?.userAgent,
            wait: ctx.web?.wait,
            now: ctx.web?.now,
          })
        : null;
    const tables = spreadsheetTablesOf(source, body);
    if (tables !== null) {
      // An HTML spreadsheet export, or a page that is a product table: rows, read by machine.
      return {
        kind: 'tables',
        tables: tables.map((rows, i) => ({
          sheet: tables.length > 1 ? `Table ${i + 1}` : null,
          batches: [rows],
        })),
      };
    }
    session?.countFirstPage(url as string, body.length);
    let result: Awaited<ReturnType<typeof readWebSource>>;
    try {
      result = await readWebSource(
        { url: url ?? 'about:blank', body, contentType: source.contentType, headers: {} },
        session,
        contextOf(ctx, source.source),
      );
    } catch (error) {
      if (error instanceof HtmlTooDeepError)
        throw new CatalogSourceError(`${source.source}: ${error.message}`);
      throw error;
    }
    if (result.transient && !(ctx.web?.lastAttempt ?? true)) {
      // Part of a store's catalog did not come: the whole job is tried again rather than keep a part.
      throw new OutboundNetworkError(`${source.source}: ${result.transient.message}`);
    }
    ctx.describe({ profile: result.profile, pages: result.pages });
    for (const warning of result.warnings) {
      ctx.warn({ row: null, column: warning.field ?? null, code: warning.code, message: warning.message });
    }
    if (!result.review) return { kind: 'drafts', drafts: result.items };
    ctx.needsReview(result.review);
    // What the machine read and where each drafted item is on it, for the operations team.
    const drafts = await keepWebReview(
      ctx,
      source.source,
      result,
      url ? null : { contentType: source.contentType, body },
    );
    return { kind: 'drafts', drafts };
  },
};
