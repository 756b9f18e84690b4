import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

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
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
};
