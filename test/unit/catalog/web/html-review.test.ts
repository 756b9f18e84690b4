import iconv from 'iconv-lite';
import type { DraftItem } from '../../../../lambdas/core/catalog/draft';
import type { DraftingServices, WebPageCopy } from '../../../../lambdas/core/catalog/drafts/drafting';
import { htmlReader } from '../../../../lambdas/core/catalog/sources/html';
import { copyOfPages, inertContentType } from '../../../../lambdas/core/catalog/sources/html-review';
import type { OpenedSource, ReadContext } from '../../../../lambdas/core/catalog/sources/types';
import { jsonLdPage, page } from '../../../fixtures/web/pages';

/**
 * A web page that goes to review gives the operations team what the PDF and photo readers give (SPEC 5.2
 * drafts, 5.4): a copy of what the machine read, served as text, and each drafted item's page URL, element
 * path and confidence.
 */

const UPLOAD_ID = 'f0c4a3d2-0000-4000-8000-000000000000';
const MENU_URL = 'https://harbor.example/menu';

const opened = (body: Buffer, source: string, name: string | null, contentType: string): OpenedSource => ({
  source,
  head: body.subarray(0, 4096),
  contentType,
  name,
  encoding: 'utf-8',
  bytes: (async function* () {
    yield body;
  })(),
});

interface Kept {
  source: string;
  text: string;
  contentType: string;
  format: string;
  pages: number | null;
  webPages?: readonly WebPageCopy[];
}

const context = () => {
  const kept: Kept[] = [];
  const recorded: DraftItem[] = [];
  const reviews: string[] = [];
  const drafting: DraftingServices = {
    indexOf: () => 2,
    keepCopy: async (source, bytes, details) => {
      kept.push({ source, text: Buffer.from(bytes).toString('utf8'), ...details });
    },
    record: (_source, items) => void recorded.push(...items),
  };
  const ctx: ReadContext = {
    source: MENU_URL,
    jobId: 'job-1',
    jobType: 'new_menu',
    language: 'en_us',
    currency: 'USD',
    drafting,
    warn: () => undefined,
    needsReview: (reason) => reviews.push(reason),
    describe: () => undefined,
  };
  return { ctx, kept, recorded, reviews };
};

const drain = async (output: Awaited<ReturnType<typeof htmlReader.read>>) => {
  if (output.kind !== 'drafts') throw new Error('expected drafts');
  for await (const _ of output.drafts);
};

describe('a drafted web page in the review record', () => {
  it('keeps the page as UTF-8 text and records each drafted item with its URL, element and confidence', async () => {
    const { ctx, kept, recorded, reviews } = context();
    const html = page('plain-menu.html');
    await drain(await htmlReader.read(opened(Buffer.from(html), MENU_URL, MENU_URL, 'text/html'), ctx));
    expect(reviews).toEqual([expect.stringContaining('drafted from the page')]);
    expect(kept).toEqual([
      {
        source: MENU_URL,
        text: html,
        contentType: 'text/plain; charset=utf-8',
        format: 'html',
        pages: 1,
        webPages: [{ page: 1, url: MENU_URL, offset: 0, length: Buffer.byteLength(html) }],
      },
    ]);
    expect(recorded).toHaveLength(10);
    const chowder = recorded.find((i) => i.name === 'Clam Chowder');
    expect(chowder?.provenance).toEqual({
      source: MENU_URL,
      sourceIndex: 2,
      page: 1,
      box: null,
      method: 'html',
      url: MENU_URL,
      locator: 'main > section:nth-of-type(1) > ul > li:nth-of-type(1)',
    });
    expect(chowder?.categoryPath).toEqual(['Starters']);
    expect(chowder?.variants.map((v) => v.price)).toEqual([{ amount: 950, currency: 'USD' }]);
    for (const item of recorded) {
      expect(item.confidence).toBeGreaterThan(0);
      expect(item.confidence).toBeLessThanOrEqual(1);
    }
    // Each locator names an element of the page that holds the item's name.
    const lemonade = recorded.find((i) => i.name === 'Lemonade');
    expect(lemonade?.provenance?.locator).toMatch(/p:nth-of-type\(\d+\)$/);
  });

  it('keeps what the machine decoded: a Windows-1252 page is stored as the same text in UTF-8', async () => {
    const { ctx, kept, recorded } = context();
    const html = page('flat-menu.html').replace('&agrave;', 'à').replace('cornichons', 'cornichons épicés');
    const url = 'https://bistro.example/carte';
    await drain(
      await htmlReader.read(
        opened(iconv.encode(html, 'windows-1252'), url, url, 'text/html; charset=windows-1252'),
        ctx,
      ),
    );
    expect(kept[0]?.text).toBe(html);
    expect(kept[0]?.webPages?.[0]?.length).toBe(Buffer.byteLength(html, 'utf8'));
    expect(recorded.map((i) => i.name)).toContain("Soupe à l'oignon");
  });

  it('an uploaded saved page: the upload is the copy (nothing rewritten), served inertly, no URL', async () => {
    const { ctx, kept, recorded } = context();
    const html = page('plain-menu.html');
    const body = Buffer.from(html);
    await drain(await htmlReader.read(opened(body, UPLOAD_ID, 'menu.html', 'text/html'), ctx));
    expect(kept).toEqual([
      { source: UPLOAD_ID, text: html, contentType: 'text/plain', format: 'html', pages: 1 },
    ]);
    expect(recorded[0]?.provenance).toMatchObject({ method: 'html', url: null, page: 1, box: null });
  });

  it('a page with nothing to read is kept for the reviewer, with no item', async () => {
    const { ctx, kept, recorded, reviews } = context();
    const html = '<!doctype html><html><body><main><h1>Welcome</h1><p>Opening soon.</p></main></body></html>';
    await drain(await htmlReader.read(opened(Buffer.from(html), MENU_URL, MENU_URL, 'text/html'), ctx));
    expect(reviews).toEqual([expect.stringContaining('has no menu data')]);
    expect(kept.map((k) => [k.text, k.pages])).toEqual([[html, 1]]);
    expect(recorded).toEqual([]);
  });

  it('a page read by machine (schema.org) keeps no copy and records nothing', async () => {
    const { ctx, kept, recorded, reviews } = context();
    const html = jsonLdPage({
      '@context': 'https://schema.org',
      '@type': 'Menu',
      hasMenuSection: {
        '@type': 'MenuSection',
        name: 'Mains',
        hasMenuItem: { '@type': 'MenuItem', name: 'Steak', offers: { price: '24', priceCurrency: 'USD' } },
      },
    });
    await drain(await htmlReader.read(opened(Buffer.from(html), MENU_URL, MENU_URL, 'text/html'), ctx));
    expect([reviews, kept, recorded]).toEqual([[], [], []]);
  });
});

describe('copyOfPages', () => {
  it('places each page at its byte offset, multi-byte characters counted in bytes', () => {
    const pages = [
      { url: 'https://a.example/lunch', html: '<p>Crème brûlée 8 €</p>' },
      { url: 'https://a.example/dinner', html: '<p>寿司 1200円</p>' },
    ];
    const { bytes, webPages } = copyOfPages(pages);
    const copy = Buffer.from(bytes);
    expect(webPages.map((p) => [p.page, p.url])).toEqual([
      [1, 'https://a.example/lunch'],
      [2, 'https://a.example/dinner'],
    ]);
    for (const [i, p] of webPages.entries()) {
      expect(copy.subarray(p.offset, p.offset + p.length).toString('utf8')).toBe(pages[i]?.html);
    }
  });
});

describe('inertContentType', () => {
  it.each([
    ['application/pdf', 'application/pdf'],
    ['image/jpeg', 'image/jpeg'],
    ['text/csv; charset=utf-8', 'text/csv; charset=utf-8'],
    [
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ],
    ['text/html', 'text/plain'],
    ['TEXT/HTML; charset=Shift_JIS', 'text/plain; charset=Shift_JIS'],
    ['application/xhtml+xml', 'text/plain'],
    ['image/svg+xml', 'text/plain'],
    ['text/xml', 'text/plain'],
    ['application/vnd.example+xml', 'text/plain'],
    ['application/javascript', 'text/plain'],
    ['multipart/x-mixed-replace; boundary=x', 'application/octet-stream'],
    ['', 'application/octet-stream'],
    [null, 'application/octet-stream'],
  ])('%s is served as %s', (given, served) => {
    expect(inertContentType(given)).toBe(served);
  });
});
