import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { type Browser, launchChromium } from '../helpers/chromium';
import { eventually } from '../helpers/factories';
import { type Json, type LocalService, startLocalService } from '../helpers/local-service';
import { postUploadForm } from '../helpers/upload-form';
import { csv, hostileMenuPage, menuPdf } from './console-fixtures';

/**
 * The operations console (SPEC 5.4) in real headless Chromium against `npm start`, at 1280×800: an
 * operator signs in, opens jobs in review from the queue, edits the draft without writing JSON, saves,
 * completes or fails them; the client's export then carries the edits. Merchant text is shown as text, and
 * the page runs under its Content-Security-Policy without a single violation.
 * Sources are shown from the service's own `GET /v1/ops/jobs/{id}/sources/{n}` and the object store's
 * presigned URLs, as in production.
 */

const run = promisify(execFile);

/**
 * What the code run in the page touches (the test project has no DOM types). Casts only: the functions
 * passed to page.evaluate run in the browser, where these are the real objects.
 */
interface Dom {
  readonly document: {
    readonly activeElement: {
      id: string;
      tagName: string;
      value?: string;
      getAttribute(name: string): string | null;
    } | null;
    querySelector(selector: string): { readonly clientWidth: number } | null;
  };
  readonly sessionStorage: { readonly length: number; getItem(key: string): string | null };
}
interface Canvas {
  readonly width: number;
  readonly height: number;
  getContext(kind: '2d'): {
    getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
  };
}
/**
 * Where the run saves its screenshots of the queue and of a job page: test-results/ (ignored by git), or
 * the README's docs/images with `npm run screenshots` (SCREENSHOT_DIR), so that `npm test` leaves the tree clean.
 */
const IMAGES = path.resolve(process.env.SCREENSHOT_DIR ?? path.join('test-results', 'screenshots'));

let service: LocalService;
let browser: Browser;
let opsKey: string;

const upload = async (filename: string, contentType: string, bytes: Buffer): Promise<string> => {
  const created = await service.request('/v1/files', {
    method: 'POST',
    body: JSON.stringify({ filename, content_type: contentType }),
  });
  expect(created.status).toBe(201);
  const posted = await postUploadForm(
    created.json.upload_form.url,
    created.json.upload_form.fields,
    bytes,
    filename,
  );
  expect(posted.status).toBe(204);
  expect((await service.request(`/v1/files/${created.json.id}`)).json.state).toBe('uploaded');
  return created.json.id;
};

const poll = (pathname: string, done: (body: Json) => boolean, key?: string): Promise<Json> =>
  eventually(
    async () => {
      const res = await service.request(pathname, key ? { key } : {});
      if (done(res.json)) return res.json;
      // The last answer is what the time-out reports.
      throw new Error(`${pathname} is still ${JSON.stringify(res.json).slice(0, 300)}`);
    },
    { timeoutMs: 30_000, intervalMs: 100, what: pathname },
  );

/** A job of the dev client that goes to review (instructions, or a source only a person reads). */
const jobInReview = async (options: {
  merchant: string;
  rush?: boolean;
  instructions?: string;
  language?: string;
  source: { filename: string; contentType: string; bytes: Buffer } | { url: string };
}): Promise<string> => {
  const file =
    'url' in options.source
      ? options.source.url
      : await upload(options.source.filename, options.source.contentType, options.source.bytes);
  const created = await service.request('/v1/jobs', {
    method: 'POST',
    body: JSON.stringify({
      job: {
        job_type: 'new_menu',
        processing_type: options.rush ? 'rush' : 'standard',
        job_data: {
          catalog_sources: [file],
          merchant_name: options.merchant,
          ...(options.instructions ? { instructions: options.instructions } : {}),
          ...(options.language ? { language: options.language } : {}),
        },
      },
    }),
  });
  expect(created.status).toBe(201);
  await poll(`/v1/jobs/${created.json.id}`, (j) => j.state === 'in_review');
  return created.json.id;
};

/** What a page did that it should not: script dialogs, CSP violations, uncaught errors; and what it read. */
interface Watch {
  readonly dialogs: string[];
  readonly violations: string[];
  readonly errors: string[];
  readonly writes: string[];
  /** Answers to the page's GETs: the service's source route and the object store's presigned URLs. */
  readonly reads: { url: string; status: number; allowOrigin: string | null }[];
}

const openConsole = async (): Promise<{ page: Page; watch: Watch }> => {
  const page = await browser.newPage();
  const watch: Watch = { dialogs: [], violations: [], errors: [], writes: [], reads: [] };
  page.on('dialog', (dialog) => {
    // confirm() is the console's own (delete, leave unsaved); anything else is a script that should not run.
    if (dialog.type() === 'confirm') return void dialog.accept();
    watch.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) watch.violations.push(message.text());
  });
  page.on('pageerror', (error) => watch.errors.push(error.message));
  page.on('request', (request) => {
    if (request.method() !== 'GET')
      watch.writes.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  page.on('response', (response) => {
    if (response.request().method() === 'GET' && !new URL(response.url()).pathname.startsWith('/ops/')) {
      watch.reads.push({
        url: response.url(),
        status: response.status(),
        allowOrigin: response.headers()['access-control-allow-origin'] ?? null,
      });
    }
  });
  return { page, watch };
};

const expectClean = (watch: Watch) => {
  expect(watch.dialogs).toEqual([]);
  expect(watch.violations).toEqual([]);
  expect(watch.errors).toEqual([]);
};

const signIn = async (page: Page, key: string) => {
  await page.goto(`${service.url}/ops`);
  await page.getByLabel('Operator API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
};

const openJob = async (page: Page, merchant: string) => {
  await page.getByRole('link', { name: merchant, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: merchant }).waitFor();
  await page.getByRole('heading', { name: 'Draft catalog' }).waitFor();
};

/** Waits until a new, empty field named `label` has focus (the console moves focus to what was added). */
const focusedEmpty = (page: Page, label: string) =>
  page.waitForFunction((name) => {
    const el = (globalThis as unknown as Dom).document.activeElement;
    return el?.getAttribute('aria-label') === name && el.value === '';
  }, label);

/** The name input of the item now named `name`. */
const itemNamed = async (page: Page, name: string) => {
  const inputs = page.getByRole('textbox', { name: 'Item name', exact: true });
  const values = await inputs.evaluateAll((els) =>
    els.map((el) => (el as unknown as { value: string }).value),
  );
  const index = values.indexOf(name);
  if (index < 0) throw new Error(`no item named ${name} among ${JSON.stringify(values)}`);
  return inputs.nth(index);
};

const exportOf = async (jobId: string): Promise<Json> => {
  const created = await service.request('/v1/data_exports', {
    method: 'POST',
    body: JSON.stringify({ id: jobId, type: 'catalog' }),
  });
  expect(created.status).toBe(201);
  const done = await poll(
    `/v1/data_exports/${created.json.id}`,
    (e) => e.state === 'completed' || e.state === 'failed',
  );
  expect(done.state).toBe('completed');
  return (await fetch(done.delivery_url)).json();
};

/** An item's price in either catalog format (format 2: on its first variant). */
const priceOf = (item: Json) => item.variants?.[0]?.price ?? item.price;

beforeAll(async () => {
  mkdirSync(IMAGES, { recursive: true });
  service = await startLocalService();
  const { stdout } = await run(
    'npx',
    ['tsx', 'bin/keys.ts', 'create', '--client', 'ops', '--scope', 'operator'],
    {
      env: service.keysEnv,
    },
  );
  opsKey = JSON.parse(stdout.trim()).api_key;
  browser = await launchChromium({ width: 1280, height: 800 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

/** The merchant's web site: a loopback server (the local service may fetch loopback URLs). */
let site: Server | undefined;
const serveSite = async (pages: Record<string, string>): Promise<string> => {
  site = createServer((req, res) => {
    const body = pages[new URL(req.url ?? '/', 'http://x').pathname];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => site?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
};

/** The source's bytes came from the service's route, then the object store, which allowed the console. */
const expectRealSourceRoute = (watch: Watch, jobId: string) => {
  const route = watch.reads.find((r) => r.url.endsWith(`/v1/ops/jobs/${jobId}/sources/0`));
  expect(route?.status).toBe(200);
  const stored = watch.reads.find((r) => !r.url.startsWith(service.url) && r.status === 200);
  expect(stored?.allowOrigin).toBe(new URL(service.url).origin);
};

describe('the operations console at /ops', () => {
  it('is served with a strict Content-Security-Policy and hardening headers', async () => {
    const bare = await fetch(`${service.url}/ops`, { redirect: 'manual' });
    const page = await fetch(`${service.url}/ops/`);
    expect([bare.status, await bare.text()]).toEqual([200, await page.clone().text()]);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).not.toMatch(/<script>|<script(?![^>]*\ssrc=)[^>]*>|\son\w+=|https?:\/\//);
    const script = /<script[^>]*src="(\/ops\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const asset = await fetch(`${service.url}${script}`);
    expect([asset.status, asset.headers.get('content-type')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
    ]);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(asset.headers.get('content-security-policy')).toBe(csp);
    const missing = await fetch(`${service.url}/ops/assets/nothing.js`);
    expect([missing.status, ((await missing.json()) as Json).code]).toEqual([404, 'not_found']);
  });

  it('refuses a client key, and keeps no key it refused', async () => {
    const { page, watch } = await openConsole();
    await signIn(page, service.apiKey);
    await page.getByText('This is a client key').waitFor();
    expect(await page.getByRole('heading', { name: 'Review queue' }).count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as unknown as Dom).sessionStorage.length)).toBe(0);
    await page.getByLabel('Operator API key').fill('cjk_live_notakeyatallnotakeyatall00000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This key is not valid').waitFor();
    expectClean(watch);
    await page.close();
  }, 60_000);

  it('edits a draft from the queue: a price, a name, a new item; saves and completes; the export has the edits', async () => {
    const slow = await jobInReview({
      merchant: 'Slow Noodles',
      instructions: 'No rush: check the spelling.',
      source: {
        filename: 'noodles.csv',
        contentType: 'text/csv',
        bytes: csv([
          ['category', 'name', 'price'],
          ['Noodles', 'Ramen', '11.00'],
        ]),
      },
    });
    const jobId = await jobInReview({
      merchant: "Joe's Diner",
      rush: true,
      instructions: 'Margherita is 13.75 since March; Cola is now Cola Zero; add Lemonade at 3.20.',
      source: {
        filename: 'menu.csv',
        contentType: 'text/csv',
        bytes: csv([
          ['category', 'name', 'description', 'price'],
          ['Pizza', 'Margherita', 'Tomato, mozzarella, basil', '12.50'],
          ['Pizza', 'Diavola', 'Spicy salami', '14.00'],
          ['Drinks', 'Cola', '', '2.50'],
        ]),
      },
    });
    const { page, watch } = await openConsole();

    // Signing in from the keyboard: the heading has focus, the key field is next.
    await page.goto(`${service.url}/ops/`);
    await page.waitForFunction(() => (globalThis as unknown as Dom).document.activeElement?.tagName === 'H1');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as unknown as Dom).document.activeElement?.id)).toBe(
      'api-key',
    );
    await page.keyboard.type(opsKey);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Review queue' }).waitFor();
    expect(
      await page.evaluate(() => (globalThis as unknown as Dom).sessionStorage.getItem('catalog-ops.api-key')),
    ).toBe(opsKey);

    // Rush first; due date, time left, client, merchant and instructions on each row.
    const rows = page.getByRole('row');
    await page.getByRole('link', { name: "Joe's Diner" }).waitFor();
    const texts = await rows.allInnerTexts();
    const joe = texts.findIndex((t) => t.includes("Joe's Diner"));
    const noodles = texts.findIndex((t) => t.includes('Slow Noodles'));
    expect(joe).toBeGreaterThan(0);
    expect(noodles).toBeGreaterThan(joe);
    expect(texts[joe]).toMatch(/Rush/);
    expect(texts[joe]).toMatch(/\d+ h \d+ min left/);
    expect(texts[joe]).toContain('dev');
    expect(texts[joe]).toContain('Margherita is 13.75 since March');
    await page.screenshot({ path: path.join(IMAGES, 'console-queue.png') });

    await openJob(page, "Joe's Diner");
    // The source, beside the draft, as a table.
    const described = page
      .getByRole('region', { name: 'Source 1' })
      .getByRole('cell', { name: 'Tomato, mozzarella, basil' });
    await described.waitFor();
    expect(await described.count()).toBe(1);
    expectRealSourceRoute(watch, jobId);

    await page.getByLabel('Price of item Margherita (USD)').fill('13.75');
    await (await itemNamed(page, 'Cola')).fill('Cola Zero');
    await page.getByRole('button', { name: 'Add item to Drinks' }).click();
    // The new item's name field has focus: type straight away.
    await focusedEmpty(page, 'Item name');
    await page.keyboard.type('Lemonade');
    await page.getByLabel('Price of item Lemonade (USD)').fill('3.20');
    await page.getByText('Unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Saved at/ })
      .waitFor();
    expect(watch.writes).toEqual([`PUT /v1/ops/jobs/${jobId}/catalog`]);
    await page.locator('.draft-pane').evaluate((pane) => pane.scrollTo(0, 0));
    await page.screenshot({ path: path.join(IMAGES, 'console-job.png') });

    await page.getByRole('button', { name: 'Complete…' }).click();
    await page
      .getByRole('dialog', { name: 'Complete this job?' })
      .getByRole('button', { name: 'Complete', exact: true })
      .click();
    await page.getByRole('status').filter({ hasText: 'Completed' }).waitFor();
    expect((await service.request(`/v1/jobs/${jobId}`)).json.state).toBe('completed');

    const catalog = await exportOf(jobId);
    const byName = new Map<string, Json>(catalog.items.map((i: Json) => [i.name, i]));
    expect(priceOf(byName.get('Margherita'))).toEqual({ amount: 1375, currency: 'USD' });
    expect(priceOf(byName.get('Diavola'))).toEqual({ amount: 1400, currency: 'USD' });
    expect(byName.has('Cola')).toBe(false);
    expect(priceOf(byName.get('Cola Zero'))).toEqual({ amount: 250, currency: 'USD' });
    expect(priceOf(byName.get('Lemonade'))).toEqual({ amount: 320, currency: 'USD' });
    const drinks = catalog.categories.find((c: Json) => c.name === 'Drinks');
    expect(byName.get('Lemonade').category_id).toBe(drinks.id);
    expect((await service.request(`/v1/jobs/${slow}`)).json.state).toBe('in_review');
    expectClean(watch);
    await page.close();
  }, 120_000);

  it('finishes a PDF menu job: the PDF is rendered beside the draft, the menu is typed in, the job completed', async () => {
    const pdf = menuPdf('Trattoria Sole', ['Pizza', ['Margherita', '12.50'], ['Quattro formaggi', '15.00']]);
    const jobId = await jobInReview({
      merchant: 'Trattoria Sole',
      rush: true,
      source: { filename: 'menu.pdf', contentType: 'application/pdf', bytes: pdf },
    });
    const { page, watch } = await openConsole();
    await signIn(page, opsKey);
    await openJob(page, 'Trattoria Sole');

    const canvas = page.getByRole('img', { name: 'Page 1 of 1' });
    await page.locator('.pdf-source[data-rendered="true"]').waitFor({ timeout: 30_000 });
    const inked = await canvas.evaluate((el) => {
      const c = el as unknown as Canvas;
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! < 128 && data[i + 3]! > 0) dark += 1;
      return dark;
    });
    expect(inked).toBeGreaterThan(200);
    expectRealSourceRoute(watch, jobId);
    await page.screenshot({ path: path.join(IMAGES, 'console-pdf-job.png') });

    // Small print is read zoomed in: the page is drawn again wider, and back to the pane's width.
    const widthOf = () => canvas.evaluate((el) => (el as unknown as { clientWidth: number }).clientWidth);
    const fitted = await widthOf();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByText('150%', { exact: true }).waitFor();
    const drawnAt = (min: number, max: number) =>
      page.waitForFunction(
        ([lo, hi]) => {
          const el = (globalThis as unknown as Dom).document.querySelector(
            'canvas[data-page="1"]',
          ) as unknown as {
            clientWidth: number;
          } | null;
          return el !== null && el.clientWidth >= lo! && el.clientWidth <= hi!;
        },
        [min, max],
      );
    await drawnAt(fitted * 1.45, fitted * 1.55);
    await page.getByRole('button', { name: 'Fit width' }).click();
    await drawnAt(fitted - 1, fitted + 1);
    expect(await widthOf()).toBeLessThanOrEqual(fitted + 1);

    await page.getByRole('button', { name: 'Add category' }).click();
    await focusedEmpty(page, 'Category name');
    await page.keyboard.type("Chef's specials");
    await page.getByRole('button', { name: "Add item to Chef's specials" }).click();
    await focusedEmpty(page, 'Item name');
    await page.keyboard.type('Truffle pizza');
    await page.getByLabel('Price of item Truffle pizza (USD)').fill('21');
    await page.getByRole('button', { name: 'Save and complete…' }).click();
    await page
      .getByRole('dialog', { name: 'Complete this job?' })
      .getByRole('button', { name: 'Save and complete' })
      .click();
    await page.getByRole('status').filter({ hasText: 'Completed' }).waitFor();

    const catalog = await exportOf(jobId);
    const truffle = catalog.items.find((i: Json) => i.name === 'Truffle pizza');
    expect(priceOf(truffle)).toEqual({ amount: 2100, currency: 'USD' });
    expect(catalog.categories.find((c: Json) => c.id === truffle.category_id).name).toBe("Chef's specials");
    expectClean(watch);
    await page.close();
  }, 120_000);

  it('shows merchant text as text: markup in names, descriptions and instructions never runs', async () => {
    const dish = '<img src=x onerror=alert(1)>';
    const merchant = '<b onmouseover=alert(2)>Bold Bistro</b>';
    await jobInReview({
      merchant,
      instructions: '<script>alert(3)</script> <img src=x onerror=alert(4)>',
      source: {
        filename: 'menu.csv',
        contentType: 'text/csv',
        bytes: csv([
          ['category', 'name', 'description', 'price'],
          ['<i>Mains</i>', dish, '<svg onload=alert(5)>', '9.00'],
        ]),
      },
    });
    const { page, watch } = await openConsole();
    await signIn(page, opsKey);
    await page.getByRole('link', { name: merchant, exact: true }).waitFor();
    await openJob(page, merchant);
    const source = page.getByRole('region', { name: 'Source 1' });

    expect(await (await itemNamed(page, dish)).inputValue()).toBe(dish);
    await page.getByText('<script>alert(3)</script> <img src=x onerror=alert(4)>').waitFor();
    await page.getByRole('heading', { name: '<i>Mains</i>' }).waitFor();
    await source.getByRole('cell', { name: dish }).waitFor();
    expect(await source.getByRole('cell', { name: dish }).count()).toBe(1);
    expect(await page.locator('img[src="x"], svg[onload], script:not([src]), b[onmouseover]').count()).toBe(
      0,
    );
    expectClean(watch);
    await page.close();
  }, 60_000);

  it('shows a drafted web menu as text, never as HTML, with each item found by its element', async () => {
    const origin = await serveSite({ '/menu': hostileMenuPage() });
    const jobId = await jobInReview({ merchant: 'Quayside', source: { url: `${origin}/menu` } });
    const { page, watch } = await openConsole();
    await signIn(page, opsKey);
    await openJob(page, 'Quayside');

    // The page's text, block by block; its scripts, handlers, frame and styles did nothing.
    const text = page.getByRole('region', { name: 'Source 1, page 1' });
    await text.getByText('Clam Chowder $9.50').waitFor();
    expect(await page.getByText(`Web page ${origin}/menu`).count()).toBe(1);
    expect(await text.getByText('defaced').count()).toBe(0);

    // An item's "Source" marks its element (no box) and names it in its details.
    await page.getByRole('button', { name: /show where item Pinot Grigio was read/ }).click();
    await page.getByRole('status').filter({ hasText: 'is marked below' }).waitFor();
    expect(await text.locator('[data-located="true"]').allInnerTexts()).toEqual(['Pinot Grigio $11 $40']);
    await page.getByRole('button', { name: 'Details of item Pinot Grigio' }).click();
    await page
      .locator('.provenance')
      .filter({ hasText: `(${origin}/menu), drafted from the page’s layout, element` })
      .filter({ hasText: 'main > section:nth-of-type(2) > table > tr:nth-of-type(2)' })
      .waitFor();
    await page.getByRole('button', { name: /show where item Crispy Calamari was read/ }).click();
    await text.locator('[data-located="true"]', { hasText: 'Crispy Calamari $13' }).waitFor();
    await page.screenshot({ path: path.join(IMAGES, 'console-web-page.png') });

    // The markup itself, as text.
    await page.getByRole('button', { name: 'HTML source' }).click();
    await page
      .getByRole('region', { name: 'Source 1, page 1, HTML source' })
      .getByText("<script>alert('head script')</script>", { exact: false })
      .waitFor();

    expect(await page.locator('iframe, img[src="x"], main > h1:has-text("defaced")').count()).toBe(0);
    expectRealSourceRoute(watch, jobId);
    // The copy is served as text by the object store too: a browser opening it never renders it.
    const stored = watch.reads.find((r) => !r.url.startsWith(service.url) && r.status === 200);
    expect((await fetch(stored!.url)).headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expectClean(watch);
    await page.close();
  }, 90_000);

  it('shows the warnings beside the draft, names sources by file, reads prices as the service does', async () => {
    const jobId = await jobInReview({
      merchant: 'Bistro des Avertissements',
      language: 'fr_fr',
      instructions: 'Vérifier les prix.',
      source: {
        filename: 'carte-mars.csv',
        contentType: 'text/csv',
        bytes: csv([
          ['category', 'name', 'price'],
          ['Plats', 'Steak frites', '18,50 €'],
          ['Plats', 'Moules', '2 for $25'],
          ['Desserts', 'Tarte', '$0.69/lb'],
        ]),
      },
    });
    const { page, watch } = await openConsole();
    await signIn(page, opsKey);
    await openJob(page, 'Bistro des Avertissements');

    // The warnings, by code, with where each is; the source by its file's name, not its id.
    const warnings = page.getByRole('region', { name: /warnings? from reading the sources/ });
    await warnings.waitFor();
    expect(await warnings.innerText()).toMatch(/not_a_price × 2/);
    expect(await warnings.innerText()).toContain('source 1, carte-mars.csv · row 3 · column price');
    expect(await warnings.innerText()).toContain('source 1, carte-mars.csv · row 4 · column price');
    expect(await page.locator('.source-name').innerText()).toContain('carte-mars.csv');
    await warnings
      .locator('details', { hasText: 'not_a_price' })
      .getByRole('button', { name: 'Show in source' })
      .first()
      .click();
    const marked = page.getByRole('region', { name: 'Source 1' }).locator('tr[aria-current="true"]');
    await marked.waitFor();
    expect(await marked.innerText()).toContain('Moules');

    // A blank price is no price, said beside it; a price as the readers write it is taken as it is.
    const moules = page.getByLabel('Price of item Moules (EUR)');
    expect(await moules.inputValue()).toBe('');
    const note = await moules.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${note}"]`).innerText()).toBe('No price: sold without one');
    await page.screenshot({ path: path.join(IMAGES, 'console-warnings.png') });
    await moules.fill('7,00 €');
    await moules.blur();
    expect(await moules.inputValue()).toBe('7.00');
    expect(await moules.getAttribute('aria-invalid')).toBeNull();

    // A category just added is not "blank" before anyone had the chance to name it; a save shows it.
    await page.getByRole('button', { name: 'Add category' }).click();
    await focusedEmpty(page, 'Category name');
    expect(await page.getByText('must not be blank').count()).toBe(0);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Not saved: 1 problem(s) to fix first.' }).waitFor();
    expect(await page.getByText('must not be blank').count()).toBeGreaterThan(0);
    await page
      .getByRole('button', { name: /› name/ })
      .first()
      .click();
    await page.keyboard.type('Boissons');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Saved at/ })
      .waitFor();
    expect(watch.writes).toEqual([`PUT /v1/ops/jobs/${jobId}/catalog`]);
    expectClean(watch);
    await page.close();
  }, 90_000);

  it('validates with the API schema and shows each problem at its field; nothing is sent until it is fixed', async () => {
    await jobInReview({
      merchant: 'Field Errors Cafe',
      instructions: 'Check everything.',
      source: {
        filename: 'menu.csv',
        contentType: 'text/csv',
        bytes: csv([
          ['category', 'name', 'price'],
          ['Cafe', 'Latte', '4.50'],
        ]),
      },
    });
    const { page, watch } = await openConsole();
    await signIn(page, opsKey);
    await openJob(page, 'Field Errors Cafe');

    const name = await itemNamed(page, 'Latte');
    await name.fill('   ');
    await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');
    const described = await name.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).innerText()).toBe('must not be blank');
    const price = page.getByLabel('Price of item 1 (no name yet) (USD)');
    await price.fill('4.5.0');
    await page.getByText('not a price: enter a price such as 12.50', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Not saved: 2 problem(s) to fix first.' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as Dom).document.activeElement?.id)).toBe(
      'problems-heading',
    );
    await page.getByRole('button', { name: 'Item #1 (no name) › name' }).click();
    expect(
      await name.evaluate((el) => (el as unknown) === (globalThis as unknown as Dom).document.activeElement),
    ).toBe(true);
    expect(watch.writes).toEqual([]);

    await name.fill('Flat white');
    await page.getByLabel('Price of item Flat white (USD)').fill('4.80');
    expect(await page.getByText('must not be blank').count()).toBe(0);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Saved at/ })
      .waitFor();
    expect(watch.writes).toHaveLength(1);
    expectClean(watch);
    await page.close();
  }, 60_000);

  it('fails a job with a reason, and signs out', async () => {
    const jobId = await jobInReview({
      merchant: 'Blurry Burgers',
      source: { filename: 'menu.pdf', contentType: 'application/pdf', bytes: menuPdf('Blurry', []) },
    });
    const { page, watch } = await openConsole();
    await signIn(page, opsKey);
    await openJob(page, 'Blurry Burgers');
    await page.getByRole('button', { name: 'Fail…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Fail this job' });
    await dialog.getByLabel('Reason').selectOption('illegible_menu');
    await dialog.getByRole('button', { name: 'Fail the job' }).click();
    await dialog.getByText('Say why the job fails.').waitFor();
    await dialog.getByLabel('Message to the client').fill('The PDF is a blank page.');
    await dialog.getByRole('button', { name: 'Fail the job' }).click();
    await page.getByRole('status').filter({ hasText: 'Failed with illegible_menu' }).waitFor();
    const job = (await service.request(`/v1/jobs/${jobId}`)).json;
    expect(job).toMatchObject({
      state: 'failed',
      error: { code: 'illegible_menu', detail: 'The PDF is a blank page.' },
    });
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Operator API key').waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as Dom).sessionStorage.length)).toBe(0);
    expectClean(watch);
    await page.close();
  }, 60_000);
});
