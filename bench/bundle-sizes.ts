/**
 * `npm run bundle-sizes`: bundles every handler exactly as the CDK stack does (lib/aws/bundling.ts) and prints
 * each bundle's size from the esbuild metafile, with its largest inputs, so that a whole-SDK import or a stray
 * dependency shows up before it reaches Lambda. Bundles and metafiles are left in .local/bundles/<function>/
 * (load metafile.json into https://esbuild.github.io/analyze/ for the full picture).
 *
 * It also times each bundle's cold start on this machine, in fresh Node processes started as Lambda starts
 * them (NODE_OPTIONS=--enable-source-maps, the stack's setting): `init` is the module's import (Lambda's init
 * phase), `first` the first invocation up to where it would first call AWS (its dependencies are wired then,
 * lib/shared/lazy.ts), with a request each function refuses before any I/O. Medians of `--runs` (5).
 *
 *   npm run bundle-sizes                          table
 *   npm run bundle-sizes -- --json                one JSON document
 *   npm run bundle-sizes -- --no-keep-names       the same without esbuild's keepNames, to weigh it
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { BUNDLE_FILE, esbuildOptions } from '../lib/aws/bundling';
import { type FunctionKind, serviceFunctions } from '../lib/aws/functions';
import { repoRoot } from '../lib/aws/paths';

interface BundleReport {
  readonly function: string;
  readonly entry: string;
  readonly status: 'ok' | 'missing';
  readonly bytes?: number;
  readonly deflatedBytes?: number;
  readonly sourceMapBytes?: number;
  readonly largestInputs?: readonly { readonly path: string; readonly bytes: number }[];
  readonly initMs?: number;
  readonly firstCallMs?: number;
}

/** What each kind of function is first called with: a request it refuses before any I/O. */
const PROBE_EVENTS: Record<FunctionKind, unknown> = {
  authorizer: {
    type: 'REQUEST',
    methodArn: 'arn:aws:execute-api:eu-west-1:123456789012:api/prod/GET/v1/jobs',
    headers: {},
  },
  http: { httpMethod: 'GET', path: '/v1/x', headers: {}, requestContext: { requestId: 'probe' }, body: null },
  consumer: { Records: [] },
  scheduled: undefined,
};

/** The environment a function has in AWS, with stand-in values (nothing is called). */
const PROBE_ENV: Record<string, string> = {
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'ASIAPROBE',
  AWS_SECRET_ACCESS_KEY: 'probe',
  AWS_SESSION_TOKEN: 'probe',
  TABLE_NAME: 'probe',
  JOBS_RUSH_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/1/rush',
  JOBS_STANDARD_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/1/standard',
  EXPORTS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/1/exports',
  CALLBACKS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/1/callbacks',
  CALLBACKS_DLQ_URL: 'https://sqs.eu-west-1.amazonaws.com/1/callbacks-dlq',
  UPLOADS_BUCKET: 'uploads',
  CATALOGS_BUCKET: 'catalogs',
  EXPORTS_BUCKET: 'exports',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  POWERTOOLS_METRICS_DISABLED: 'true',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  NODE_OPTIONS: '--enable-source-maps',
};

const PROBE = `
const [file, event] = [process.argv[1], process.argv[2]];
const t0 = performance.now();
const mod = await import(file);
const t1 = performance.now();
if (event !== 'none') {
  try { await mod.handler(JSON.parse(event), { awsRequestId: 'probe', getRemainingTimeInMillis: () => 10000 }); }
  catch {}
}
process.stdout.write(JSON.stringify({ initMs: t1 - t0, firstCallMs: performance.now() - t1 }));
`;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Median init and first-call times of a bundle over `runs` fresh processes. */
const coldStart = (outfile: string, kind: FunctionKind, runs: number) => {
  const event = PROBE_EVENTS[kind];
  const samples = Array.from({ length: runs }, () => {
    const out = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', PROBE, outfile, event === undefined ? 'none' : JSON.stringify(event)],
      { env: { PATH: process.env.PATH ?? '', ...PROBE_ENV }, encoding: 'utf8' },
    );
    return JSON.parse(out) as { initMs: number; firstCallMs: number };
  });
  return {
    initMs: median(samples.map((s) => s.initMs)),
    firstCallMs: median(samples.map((s) => s.firstCallMs)),
  };
};

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
  const keepNames = !process.argv.includes('--no-keep-names');
  const runsArg = process.argv.indexOf('--runs');
  const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
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
      keepNames,
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
      ...coldStart(outfile, fn.kind, runs),
    });
  }

  if (asJson) {
    process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
  } else {
    const ms = (n: number | undefined) => (n === undefined ? '-' : `${n.toFixed(1)} ms`);
    const rows = reports.map((r) => [
      r.function,
      r.status === 'ok' ? kib(r.bytes) : 'MISSING',
      kib(r.deflatedBytes),
      kib(r.sourceMapBytes),
      ms(r.initMs),
      ms(r.firstCallMs),
      (r.largestInputs ?? []).map((i) => `${i.path} ${kib(i.bytes)}`).join(', '),
    ]);
    const header = ['function', 'bundle', 'deflated', 'source map', 'init', 'first', 'largest packages'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => (i < 6 ? c.padEnd(widths[i]!) : c)).join('  ');
    process.stdout.write(
      `${process.version}, keepNames ${keepNames}, NODE_OPTIONS=--enable-source-maps, median of ${runs} cold starts\n`,
    );
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
