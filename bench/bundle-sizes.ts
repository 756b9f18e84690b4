/**
 * `npm run bundle-sizes`: bundles every handler exactly as the CDK stack does (lib/aws/bundling.ts) and prints
 * each bundle's size from the esbuild metafile, with its largest inputs, so that a whole-SDK import or a stray
 * dependency shows up before it reaches Lambda. Bundles and metafiles are left in .local/bundles/<function>/
 * (load metafile.json into https://esbuild.github.io/analyze/ for the full picture).
 *
 *   npm run bundle-sizes            table
 *   npm run bundle-sizes -- --json  one JSON document
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { BUNDLE_FILE, esbuildOptions } from '../lib/aws/bundling';
import { serviceFunctions } from '../lib/aws/functions';
import { repoRoot } from '../lib/aws/paths';

interface BundleReport {
  readonly function: string;
  readonly entry: string;
  readonly status: 'ok' | 'missing';
  readonly bytes?: number;
  readonly deflatedBytes?: number;
  readonly sourceMapBytes?: number;
  readonly largestInputs?: readonly { readonly path: string; readonly bytes: number }[];
}

const kib = (bytes: number | undefined): string =>
  bytes === undefined ? '-' : `${(bytes / 1024).toFixed(1)} KiB`;

/** Groups inputs by package (node_modules/<pkg> or <@scope/pkg>), and our own code as "(service code)". */
const packageOf = (input: string): string => {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  return match ? match[1]! : '(service code)';
};

const largestInputs = (metafile: Metafile, outputPath: string): { path: string; bytes: number }[] => {
  const output = metafile.outputs[outputPath];
  if (!output) return [];
  const byPackage = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const pkg = packageOf(input);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + bytesInOutput);
  }
  return [...byPackage.entries()]
    .map(([path, bytes]) => ({ path, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 5);
};

const main = async (): Promise<void> => {
  const root = repoRoot();
  const asJson = process.argv.includes('--json');
  const outRoot = join(root, '.local', 'bundles');
  rmSync(outRoot, { recursive: true, force: true });

  const reports: BundleReport[] = [];
  for (const fn of serviceFunctions()) {
    const entry = join(root, fn.entry);
    if (!existsSync(entry)) {
      reports.push({ function: fn.name, entry: fn.entry, status: 'missing' });
      continue;
    }
    const outDir = join(outRoot, fn.name);
    mkdirSync(outDir, { recursive: true });
    const outfile = join(outDir, BUNDLE_FILE);
    const result = await build({
      ...esbuildOptions(entry, outfile, fn.packaging?.nodeModules),
      absWorkingDir: root,
    });
    const metafile = result.metafile!;
    writeFileSync(join(outDir, 'metafile.json'), JSON.stringify(metafile));
    const relOut = Object.keys(metafile.outputs).find((p) => p.endsWith(BUNDLE_FILE))!;
    const mapOut = Object.keys(metafile.outputs).find((p) => p.endsWith(`${BUNDLE_FILE}.map`));
    reports.push({
      function: fn.name,
      entry: fn.entry,
      status: 'ok',
      bytes: metafile.outputs[relOut]!.bytes,
      deflatedBytes: deflateRawSync(readFileSync(outfile)).length,
      sourceMapBytes: mapOut ? metafile.outputs[mapOut]!.bytes : undefined,
      largestInputs: largestInputs(metafile, relOut),
    });
  }

  if (asJson) {
    process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
  } else {
    const rows = reports.map((r) => [
      r.function,
      r.status === 'ok' ? kib(r.bytes) : 'MISSING',
      kib(r.deflatedBytes),
      kib(r.sourceMapBytes),
      (r.largestInputs ?? []).map((i) => `${i.path} ${kib(i.bytes)}`).join(', '),
    ]);
    const header = ['function', 'bundle', 'deflated', 'source map', 'largest packages in the bundle'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => (i < 4 ? c.padEnd(widths[i]!) : c)).join('  ');
    process.stdout.write(`${line(header)}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
    for (const row of rows) process.stdout.write(`${line(row)}\n`);
    process.stdout.write(`\nBundles and metafiles: ${outRoot}\n`);
  }
  const missing = reports.filter((r) => r.status === 'missing');
  if (missing.length > 0) {
    process.stderr.write(`Missing handler entries: ${missing.map((m) => m.entry).join(', ')}\n`);
    process.exitCode = 1;
  }
};

await main();
