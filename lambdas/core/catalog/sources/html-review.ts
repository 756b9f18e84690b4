import type { DraftItem } from '../draft';
import type { WebPageCopy } from '../drafts/drafting';
import type { ReviewPage, WebSourceResult } from '../web/read-web-source';
import type { ReadContext } from './types';

/**
 * What the operations team gets of a web source that goes to review (SPEC 5.2 drafts, 5.4): a copy of the
 * page(s) as the machine read them, and each drafted item's page URL, element path and confidence in the
 * job's review record, as the PDF and photo readers give theirs.
 *
 * The copy is text, never a page to render: each page's decoded HTML as UTF-8, one after the other, served
 * as `text/plain` (a browser that opens it shows the markup; the console shows it as text). `web_pages`
 * says where each page lies in it.
 */

/** What the reviewer's copy is served as: merchant markup is never rendered as HTML. */
export const WEB_COPY_CONTENT_TYPE = 'text/plain; charset=utf-8';

/** Types a browser shows without running anything the merchant wrote (PDFs, images, tables, text, data). */
const INERT_TYPE =
  /^(?:application\/(?:pdf|json|octet-stream|zip|vnd\.[\w.-]+)|image\/(?:png|jpeg|gif|webp|avif|bmp|heic|heif|tiff)|text\/(?:plain|csv|tab-separated-values))$/;

/**
 * The type a source is served as for viewing (`GET /v1/ops/jobs/{id}/sources/{n}`): its own when a browser
 * renders it inertly; other text (HTML, XHTML, SVG, XML, script) as `text/plain` with its charset, so that a
 * page a client uploaded never runs in a browser that follows the link; anything else as bytes.
 */
export const inertContentType = (contentType: string | null | undefined): string => {
  const [essence = '', ...params] = (contentType ?? '').split(';');
  const type = essence.trim().toLowerCase();
  if (INERT_TYPE.test(type)) return contentType as string;
  const charset = params.map((p) => p.trim()).find((p) => /^charset=[\w.:-]+$/i.test(p));
  if (/^text\/|[+/](?:xml|json|javascript|ecmascript)$/.test(type) || type === 'image/svg+xml') {
    return charset ? `text/plain; ${charset}` : 'text/plain';
  }
  return 'application/octet-stream';
};

/** Between two pages of the copy, so that one reading it whole sees where a page ends. */
const PAGE_BREAK = Buffer.from('\n\n', 'utf8');

export const copyOfPages = (pages: readonly ReviewPage[]): { bytes: Uint8Array; webPages: WebPageCopy[] } => {
  const parts: Buffer[] = [];
  const webPages: WebPageCopy[] = [];
  let offset = 0;
  pages.forEach((page, index) => {
    if (index > 0) {
      parts.push(PAGE_BREAK);
      offset += PAGE_BREAK.length;
    }
    const text = Buffer.from(page.html, 'utf8');
    parts.push(text);
    webPages.push({ page: index + 1, url: page.url, offset, length: text.length });
    offset += text.length;
  });
  return { bytes: Buffer.concat(parts), webPages };
};

/**
 * A drafted item with where the review finds it: its page among the copy's pages and the source's index
 * (an uploaded page is only itself: no URL).
 */
const placed = (
  item: DraftItem,
  sourceIndex: number,
  pageOf: (url: string) => number,
  uploaded: boolean,
): DraftItem => {
  const url = item.provenance?.url ?? null;
  return {
    ...item,
    provenance: {
      ...item.provenance,
      source: item.provenance?.source ?? '',
      sourceIndex,
      page: url === null ? 1 : pageOf(url),
      box: null,
      method: 'html',
      url: uploaded ? null : url,
    },
  };
};

/**
 * Keeps the reviewer's copy and records the drafted items (when the job worker provides `drafting` and the
 * source goes to a person); returns the source's drafts, the drafted ones placed on the copy's pages.
 * `upload`: a saved page uploaded as a file, which the uploads bucket keeps as it was sent (no copy is made;
 * its one page is the whole file).
 */
export const keepWebReview = async (
  ctx: ReadContext,
  source: string,
  result: WebSourceResult,
  upload: { readonly contentType: string | null; readonly body: Uint8Array } | null,
): Promise<DraftItem[]> => {
  const drafting = ctx.drafting;
  if (!drafting || result.reviewPages.length === 0) return result.items;
  const uploaded = upload !== null;
  const { bytes, webPages } = copyOfPages(result.reviewPages);
  await drafting.keepCopy(source, upload ? upload.body : bytes, {
    contentType: upload ? inertContentType(upload.contentType) : WEB_COPY_CONTENT_TYPE,
    format: 'html',
    pages: webPages.length,
    ...(uploaded ? {} : { webPages }),
  });
  const pageOf = (url: string): number => webPages.find((p) => p.url === url)?.page ?? 1;
  const sourceIndex = drafting.indexOf(source);
  const items = result.items.map((item) =>
    item.confidence === undefined ? item : placed(item, sourceIndex, pageOf, uploaded),
  );
  drafting.record(
    source,
    items.filter((item) => item.confidence !== undefined),
  );
  return items;
};
