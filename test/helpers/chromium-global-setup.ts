import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The e2e project's global setup: a headless Chromium for the browser tests (test/e2e/docs-page.test.ts) with
 * nothing installed on the machine. The browser comes from the npm package @sparticuz/chromium (a
 * brotli-compressed headless shell with its fonts, GL libraries and the NSS libraries it links against),
 * unpacked once per `npm ci` into node_modules/.cache. CHROMIUM_PATH, when set, names a browser to use instead.
 *
 * Exports to the test workers: CHROMIUM_PATH, and for the unpacked browser CHROMIUM_LIBRARY_PATH (its
 * libraries) and CHROMIUM_FONTCONFIG_FILE (its fonts).
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.CHROMIUM_PATH) return;
  const root = process.cwd();
  const { version } = JSON.parse(
    readFileSync(path.join(root, 'node_modules', '@sparticuz', 'chromium', 'package.json'), 'utf8'),
  ) as { version: string };
  const cache = path.join(root, 'node_modules', '.cache', 'sparticuz-chromium');
  const target = path.join(cache, version);
  if (!existsSync(path.join(target, 'chromium'))) await unpack(cache, target);
  process.env.CHROMIUM_PATH = path.join(target, 'chromium');
  process.env.CHROMIUM_LIBRARY_PATH = path.join(target, 'al2023', 'lib');
  process.env.CHROMIUM_FONTCONFIG_FILE = path.join(target, 'fonts.conf');
}

/**
 * Unpacks into a fresh directory and renames it into place once complete, so that an interrupted unpack
 * or two runs at once never leave a half-written browser behind. The package is ESM and unpacks into
 * os.tmpdir(): a child process with its own TMPDIR does it.
 */
const unpack = async (cache: string, target: string): Promise<void> => {
  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(path.join(cache, 'unpacking-'));
  try {
    const script = `
      import { inflate } from '@sparticuz/chromium';
      import { createRequire } from 'node:module';
      import path from 'node:path';
      const bin = path.join(path.dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '..', 'bin');
      for (const file of ['chromium.br', 'fonts.tar.br', 'swiftshader.tar.br', 'al2023.tar.br']) {
        await inflate(path.join(bin, file));
      }`;
    await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: process.cwd(),
      env: { ...process.env, TMPDIR: staging },
      timeout: 120_000,
    });
    writeFileSync(
      path.join(staging, 'fonts.conf'),
      [
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
        '<fontconfig>',
        `  <dir>${path.join(target, 'fonts')}</dir>`,
        '  <dir>/usr/share/fonts</dir>',
        `  <cachedir>${path.join(target, 'fontconfig-cache')}</cachedir>`,
        '</fontconfig>',
        '',
      ].join('\n'),
    );
    // A directory without the browser is what an interrupted or removed unpack left (a browser still
    // running writes its font cache there): it holds nothing to keep.
    if (existsSync(target) && !existsSync(path.join(target, 'chromium')))
      rmSync(target, { recursive: true, force: true });
    try {
      renameSync(staging, target);
    } catch (error) {
      // Another run unpacked the same version meanwhile: use its copy.
      if (!existsSync(path.join(target, 'chromium'))) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
};
