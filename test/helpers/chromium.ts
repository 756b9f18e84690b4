import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * A headless Chromium for the browser tests: the one the e2e global setup (chromium-global-setup.ts) unpacks
 * from the npm package @sparticuz/chromium and names in CHROMIUM_PATH, with CHROMIUM_LIBRARY_PATH and
 * CHROMIUM_FONTCONFIG_FILE for its libraries and fonts (or another browser named by CHROMIUM_PATH). The
 * flags keep it off the network: this machine has none.
 */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const browserEnv = (): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const libraries = process.env.CHROMIUM_LIBRARY_PATH;
  if (libraries) env.LD_LIBRARY_PATH = [libraries, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  if (process.env.CHROMIUM_FONTCONFIG_FILE) env.FONTCONFIG_FILE = process.env.CHROMIUM_FONTCONFIG_FILE;
  return env;
};

export interface Browser {
  readonly context: BrowserContext;
  /** A new page whose clock reads the tests' clock (see launchChromium). */
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export const launchChromium = async (viewport = { width: 1280, height: 800 }): Promise<Browser> => {
  const executablePath = process.env.CHROMIUM_PATH;
  if (!executablePath || !existsSync(executablePath)) {
    throw new Error(`No Chromium at CHROMIUM_PATH (${executablePath}): the e2e global setup sets it.`);
  }
  const profile = await mkdtemp(path.join(tmpdir(), 'console-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: ARGS,
    env: browserEnv(),
    viewport,
  });
  // Pages run on the tests' clock: when `npm run test:future` moves the service's clock years ahead
  // (TEST_CLOCK_AT), the browser's Date moves with it, as one machine's clock would. Playwright starts each
  // page's clock at the installed time, so every new page is set to the present again.
  const shifted = Boolean(process.env.TEST_CLOCK_AT);
  if (shifted) await context.clock.install({ time: Date.now() });
  return {
    context,
    newPage: async () => {
      const page = await context.newPage();
      if (shifted) await page.clock.setSystemTime(Date.now());
      return page;
    },
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
};
