/**
 * `npm run build:console [-- --out DIR]`: builds the operations console when its sources changed (Vite,
 * console/vite.config.ts) and prints the build directory; with --out, copies the build there (the CDK
 * bundling of the console-site function does, lib/aws/console-site.ts).
 */
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureConsoleBuild } from '../console/site/build';
import { repoRoot } from '../lib/aws/paths';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const { dir, built } = await ensureConsoleBuild(repoRoot());
if (values.out) {
  const out = path.resolve(values.out);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  cpSync(dir, out, { recursive: true, filter: (source) => path.basename(source) !== 'inputs.json' });
  console.log(`${built ? 'built' : 'up to date'}: ${dir} → ${out}`);
} else {
  console.log(`${built ? 'built' : 'up to date'}: ${dir}`);
}
