import { outlineOf } from '../../../console/src/sources/page-outline';
import { splitWebPages } from '../../../console/src/sources/web-pages';
import { parseHtml } from '../../../lambdas/core/catalog/web/html';
import { draftFromPage } from '../../../lambdas/core/catalog/web/html-draft';

describe('a web source kept for review, in the console', () => {
  it('is split into its pages by the byte offsets the service gives', () => {
    const lunch = '<p>Crème brûlée 8 €</p>';
    const dinner = '<main id="dinner"><p>寿司 1200円</p></main>';
    const copy = Buffer.from(`${lunch}\n\n${dinner}`, 'utf8');
    const pages = splitWebPages(new Uint8Array(copy), [
      { page: 1, url: 'https://a.example/lunch', offset: 0, length: Buffer.byteLength(lunch) },
      {
        page: 2,
        url: 'https://a.example/dinner',
        offset: Buffer.byteLength(lunch) + 2,
        length: Buffer.byteLength(dinner),
      },
    ]);
    expect(pages).toEqual([
      { page: 1, url: 'https://a.example/lunch', html: lunch },
      { page: 2, url: 'https://a.example/dinner', html: dinner },
    ]);
  });

  it('is one page when the service names no pages (an uploaded page), or names pages outside the bytes', () => {
    const html = Buffer.from('<h1>Menu</h1>', 'utf8');
    expect(splitWebPages(new Uint8Array(html), null)).toEqual([
      { page: 1, url: null, html: '<h1>Menu</h1>' },
    ]);
    expect(
      splitWebPages(new Uint8Array(html), [{ page: 1, url: 'https://a.example/', offset: 4, length: 400 }]),
    ).toEqual([{ page: 1, url: null, html: '<h1>Menu</h1>' }]);
  });
});

describe('a web page as the console outlines it', () => {
  const menu = `<!doctype html><html><head><title>Menu</title><style>body{display:none}</style>
    <script>alert(1)</script></head><body><main>
    <h2>Starters</h2><ul><li><span>Clam <b>Chow</b>der</span> <span>$9.50</span></li><li>Calamari $13</li></ul>
    <h2>Wine</h2><table><tr><th>Wine</th><th>Glass</th></tr><tr><td>Pinot Grigio</td><td>$11</td></tr></table>
    <p>Open daily<br>11–22</p></main><script>document.write('x')</script></body></html>`;

  it('gives its text block by block in reading order, headings told, scripts and styles left out', () => {
    expect(outlineOf(menu, null).lines).toEqual([
      { text: 'Starters', heading: true, marked: false },
      { text: 'Clam Chowder $9.50', heading: false, marked: false },
      { text: 'Calamari $13', heading: false, marked: false },
      { text: 'Wine', heading: true, marked: false },
      { text: 'Wine Glass', heading: false, marked: false },
      { text: 'Pinot Grigio $11', heading: false, marked: false },
      { text: 'Open daily 11–22', heading: false, marked: false },
    ]);
  });

  it('marks the element a drafted item was read from, by the locator the service computed', () => {
    const [row] = draftFromPage(parseHtml(menu), 'https://x.example/menu', {
      source: 'https://x.example/menu',
      kind: 'menu',
      currency: 'USD',
    }).filter((item) => item.name === 'Pinot Grigio');
    const locator = row?.provenance?.locator ?? null;
    expect(locator).toBe('main > table > tr:nth-of-type(2)');
    const outline = outlineOf(menu, locator);
    expect(outline.found).toBe(true);
    expect(outline.lines.filter((l) => l.marked).map((l) => l.text)).toEqual(['Pinot Grigio $11']);
    const missing = outlineOf(menu, 'main > section:nth-of-type(9)');
    expect([missing.found, missing.lines.some((l) => l.marked)]).toEqual([false, false]);
  });

  it('shows at most the lines asked for, and says so', () => {
    const long = `<ul>${Array.from({ length: 20 }, (_, i) => `<li>Dish ${i}</li>`).join('')}</ul>`;
    const outline = outlineOf(long, null, 5);
    expect([outline.lines.length, outline.truncated]).toEqual([5, true]);
    expect(outlineOf('plain text, no markup', null).lines).toEqual([
      { text: 'plain text, no markup', heading: false, marked: false },
    ]);
  });
});
