import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { type LocalService, startLocalService } from '../helpers/local-service';

/**
 * The API reference page of `npm start`, opened in real headless Chromium: the one the e2e global setup
 * unpacks from the npm package @sparticuz/chromium (nothing to install on the machine), or CHROMIUM_PATH.
 * Everything the page loads must come from the local service: the renderer is served from node_modules, not
 * from a CDN.
 */

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The unpacked browser's own libraries and fonts (see chromium-global-setup.ts); none for CHROMIUM_PATH. */
const browserEnv = (): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const libraries = process.env.CHROMIUM_LIBRARY_PATH;
  if (libraries) env.LD_LIBRARY_PATH = [libraries, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  if (process.env.CHROMIUM_FONTCONFIG_FILE) env.FONTCONFIG_FILE = process.env.CHROMIUM_FONTCONFIG_FILE;
  return env;
};

let service: LocalService;
let profile: string;
let browser: BrowserContext;

beforeAll(async () => {
  const executablePath = process.env.CHROMIUM_PATH;
  if (!executablePath)
    throw new Error('No CHROMIUM_PATH: the e2e global setup (chromium-global-setup.ts) sets it.');
  service = await startLocalService();
  profile = await mkdtemp(path.join(tmpdir(), 'docs-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    env: browserEnv(),
    viewport: { width: 1400, height: 1000 },
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  if (profile) await rm(profile, { recursive: true, force: true });
});

describe('the API reference at /docs', () => {
  it('serves /openapi.json: the committed docs/openapi.json', async () => {
    const res = await fetch(`${service.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const committed = readFileSync(path.join(process.cwd(), 'docs', 'openapi.json'), 'utf8');
    expect((await res.text()) === committed).toBe(true);
  });

  it('sends its policy as headers (CSP with frame-ancestors, nosniff, no referrer) and answers HEAD as GET without a body', async () => {
    const page = await fetch(`${service.url}/docs`);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'.*frame-ancestors 'none'/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    await page.text();
    const head = await fetch(`${service.url}/openapi.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(await head.text()).toBe('');
    const console = await fetch(`${service.url}/ops/`, { method: 'HEAD' });
    expect(console.status).toBe(200);
  });

  it('renders every operation in Chromium, from local assets only', async () => {
    const page = await browser.newPage();
    const loaded: string[] = [];
    page.on('requestfinished', (request) => loaded.push(request.url()));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    const response = await page.goto(`${service.url}/docs`);
    expect(response?.status()).toBe(200);
    const document = JSON.parse(readFileSync(path.join(process.cwd(), 'docs', 'openapi.json'), 'utf8'));

    // Redoc renders a heading per operation (its summary) and the operation's path in the side panel.
    await page.getByRole('heading', { name: 'Create a job' }).waitFor({ timeout: 30_000 });
    await page.getByRole('heading', { name: 'Create a data export' }).waitFor();
    const text = await page.locator('body').innerText();
    expect(text).toContain('/v1/data_exports');
    expect(text).toContain('/v1/jobs/{id}/cancel');
    for (const item of Object.values<Record<string, { summary: string }>>(document.paths)) {
      for (const operation of Object.values(item)) expect(text).toContain(operation.summary);
    }
    for (const tag of ['Jobs', 'Data exports', 'Files', 'Operations']) expect(text).toContain(tag);
    expect(await page.title()).toBe('Catalog Jobs and Data Exports API');

    const origin = new URL(service.url).origin;
    const remote = loaded.filter((url) => !url.startsWith(origin) && !url.startsWith('blob:'));
    expect(remote).toEqual([]);
    expect(loaded).toContain(`${origin}/docs/assets/redoc.standalone.js`);
    expect(loaded).toContain(`${origin}/openapi.json`);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
