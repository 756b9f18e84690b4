/**
 * `npm run bundle-sizes`: bundles every handler exactly as the CDK stack does (lib/aws/bundling.ts) and prints
 * each bundle's size from the esbuild metafile, with its largest inputs, so that a whole-SDK import or a stray
 * dependency shows up before it reaches Lambda. Bundles and metafiles are left in .local/bundles/<variant>/
 * <function>/ (load metafile.json into https://esbuild.github.io/analyze/ for the full picture).
 *
 * It also times each bundle's cold start on this machine, in fresh Node processes started as Lambda starts
 * them (NODE_OPTIONS=--enable-source-maps, the stack's setting, and AWS_LAMBDA_FUNCTION_NAME, so that the
 * handler and its SDK clients are built at module scope, in the init phase): `init` is the module's import
 * (Lambda's init phase), `first` the first invocation up to where it would first call AWS, with a request each
 * function refuses before any I/O. Medians of `--runs` (5).
 *
 * Variants, timed interleaved (one cold start of each in turn, so that the machine's load weighs on all alike):
 * - `bundled`: the AWS SDK inside the bundle, as the stack ships it (STYLE: the version the tests ran against);
 * - `runtime-sdk` (`--runtime-sdk`): `@aws-sdk/*` left out of the bundle and loaded from node_modules, as
 *   NodejsFunction does by default to use the SDK the Lambda runtime carries;
 * - `baseline` (`--baseline <dir>`): the same functions of another checkout (e.g. `git archive <commit>`
 *   unpacked, with this node_modules linked in), bundled as that checkout bundles them (its own
 *   lib/aws/bundling.ts): before/after in one run.
 *
 * Times are wall-clock and CPU (user + system of the process during the import): on a machine shared with
 * other work the wall-clock time follows the load, the CPU time much less.
 *
 *   npm run bundle-sizes                                        table
 *   npm run bundle-sizes -- --runtime-sdk --baseline /tmp/base  all three variants
 *   npm run bundle-sizes -- --json                              one JSON document
 *   npm run bundle-sizes -- --no-keep-names                     the same without esbuild's keepNames
 *   npm run bundle-sizes -- --only authorizer,create-job        some functions
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import * as bundling from '../lib/aws/bundling';
import { type FunctionKind, serviceFunctions } from '../lib/aws/functions';
import { repoRoot } from '../lib/aws/paths';

type Variant = 'bundled' | 'runtime-sdk' | 'baseline';

interface BundleReport {
  readonly function: string;
  readonly variant: Variant;
  readonly entry: string;
  readonly status: 'ok' | 'missing';
  readonly bytes?: number;
  readonly deflatedBytes?: number;
  readonly sourceMapBytes?: number;
  readonly largestInputs?: readonly { readonly path: string; readonly bytes: number }[];
  initMs?: number;
  initCpuMs?: number;
  firstCallMs?: number;
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
  AWS_LAMBDA_FUNCTION_NAME: 'probe',
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
const c0 = process.cpuUsage();
const t0 = performance.now();
const mod = await import(file);
const t1 = performance.now();
const cpu = process.cpuUsage(c0);
if (event !== 'none') {
  try { await mod.handler(JSON.parse(event), { awsRequestId: 'probe', getRemainingTimeInMillis: () => 10000 }); }
  catch {}
}
process.stdout.write(JSON.stringify({
  initMs: t1 - t0, initCpuMs: (cpu.user + cpu.system) / 1000, firstCallMs: performance.now() - t1,
}));
`;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Sample {
  readonly initMs: number;
  readonly initCpuMs: number;
  readonly firstCallMs: number;
}

/** One cold start of a bundle in a fresh process. */
const coldStart = (outfile: string, kind: FunctionKind): Sample => {
  const event = PROBE_EVENTS[kind];
  const out = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', PROBE, outfile, event === undefined ? 'none' : JSON.stringify(event)],
    { env: { PATH: process.env.PATH ?? '', ...PROBE_ENV }, encoding: 'utf8' },
  );
  return JSON.parse(out) as Sample;
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

const argValue = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

const main = async (): Promise<void> => {
  const root = repoRoot();
  const asJson = process.argv.includes('--json');
  const keepNames = !process.argv.includes('--no-keep-names');
  const runs = Number(argValue('--runs') ?? 5);
  const baseline = argValue('--baseline');
  const only = argValue('--only')?.split(',');
  const variants: { variant: Variant; root: string; external: string[] }[] = [
    { variant: 'bundled', root, external: [] },
    ...(process.argv.includes('--runtime-sdk')
      ? [{ variant: 'runtime-sdk' as const, root, external: ['@aws-sdk/*'] }]
      : []),
    ...(baseline ? [{ variant: 'baseline' as const, root: resolve(baseline), external: [] }] : []),
  ];
  const outRoot = join(root, '.local', 'bundles');
  rmSync(outRoot, { recursive: true, force: true });

  // The baseline bundled as its own checkout bundles (its format, banner and file name).
  const baselineBundling = baseline
    ? ((await import(join(resolve(baseline), 'lib', 'aws', 'bundling.ts'))) as typeof bundling)
    : undefined;
  const reports: BundleReport[] = [];
  const timed: {
    report: BundleReport;
    outfile: string;
    kind: FunctionKind;
    samples: Sample[];
  }[] = [];
  for (const fn of serviceFunctions()) {
    if (only && !only.includes(fn.name)) continue;
    for (const { variant, root: tree, external } of variants) {
      const entry = join(tree, fn.entry);
      if (!existsSync(entry)) {
        reports.push({ function: fn.name, variant, entry: fn.entry, status: 'missing' });
        continue;
      }
      // Inside the tree it is built from, so that its node_modules (and, for runtime-sdk, the SDK) resolve.
      const outDir = join(tree, '.local', 'bundles', variant, fn.name);
      mkdirSync(outDir, { recursive: true });
      const { BUNDLE_FILE, esbuildOptions } =
        variant === 'baseline' && baselineBundling ? baselineBundling : bundling;
      // As in the Lambda asset, which has no package.json: a .js bundle is CommonJS whatever this repo says.
      writeFileSync(join(outDir, 'package.json'), '{"type":"commonjs"}\n');
      const outfile = join(outDir, BUNDLE_FILE);
      const options = esbuildOptions(entry, outfile, fn.packaging?.nodeModules);
      const result = await build({
        ...options,
        external: [...(options.external ?? []), ...external],
        keepNames,
        absWorkingDir: tree,
      });
      const metafile = result.metafile!;
      writeFileSync(join(outDir, 'metafile.json'), JSON.stringify(metafile));
      const relOut = Object.keys(metafile.outputs).find((p) => p.endsWith(BUNDLE_FILE))!;
      const mapOut = Object.keys(metafile.outputs).find((p) => p.endsWith(`${BUNDLE_FILE}.map`));
      const report: BundleReport = {
        function: fn.name,
        variant,
        entry: fn.entry,
        status: 'ok',
        bytes: metafile.outputs[relOut]!.bytes,
        deflatedBytes: deflateRawSync(readFileSync(outfile)).length,
        sourceMapBytes: mapOut ? metafile.outputs[mapOut]!.bytes : undefined,
        largestInputs: largestInputs(metafile, relOut),
      };
      reports.push(report);
      timed.push({ report, outfile, kind: fn.kind, samples: [] });
    }
  }
  // Interleaved: run r of every bundle before run r + 1 of any, so a burst of load lands on all variants.
  for (let run = 0; run < runs; run++) {
    for (const t of timed) t.samples.push(coldStart(t.outfile, t.kind));
  }
  for (const t of timed) {
    t.report.initMs = median(t.samples.map((s) => s.initMs));
    t.report.initCpuMs = median(t.samples.map((s) => s.initCpuMs));
    t.report.firstCallMs = median(t.samples.map((s) => s.firstCallMs));
  }

  if (asJson) {
    process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
  } else {
    const ms = (n: number | undefined) => (n === undefined ? '-' : `${n.toFixed(1)} ms`);
    const rows = reports.map((r) => [
      r.function,
      r.variant,
      r.status === 'ok' ? kib(r.bytes) : 'MISSING',
      kib(r.deflatedBytes),
      kib(r.sourceMapBytes),
      ms(r.initMs),
      ms(r.initCpuMs),
      ms(r.firstCallMs),
      (r.largestInputs ?? []).map((i) => `${i.path} ${kib(i.bytes)}`).join(', '),
    ]);
    const header = [
      'function',
      'variant',
      'bundle',
      'deflated',
      'source map',
      'init',
      'init CPU',
      'first',
      'largest packages',
    ];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => (i < 8 ? c.padEnd(widths[i]!) : c)).join('  ');
    const load = (await import('node:os')).loadavg()[0]!.toFixed(1);
    process.stdout.write(
      `${process.version}, keepNames ${keepNames}, NODE_OPTIONS=--enable-source-maps, median of ${runs} cold starts ` +
        `per variant, interleaved; load average ${load} at the end\n`,
    );
    process.stdout.write(`${line(header)}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
    for (const row of rows) process.stdout.write(`${line(row)}\n`);
    process.stdout.write(`\nBundles and metafiles: ${outRoot} (and the baseline's own .local/bundles)\n`);
  }
  const missing = reports.filter((r) => r.status === 'missing' && r.variant !== 'baseline');
  if (missing.length > 0) {
    process.stderr.write(`Missing handler entries: ${missing.map((m) => m.entry).join(', ')}\n`);
    process.exitCode = 1;
  }
};

await main();
