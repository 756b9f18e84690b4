/**
 * Export benchmark (issue 4): time and peak memory of the export worker for catalogs of 1k, 100k and 1M
 * items, against a baseline measured in the same run: a plain S3 stream copy of the same object (read and
 * multipart write, no hashing, no records). Memory must stay flat as the catalog grows.
 *
 *   npx tsx bench/export.ts [sizes...]        e.g. npx tsx bench/export.ts 1000 100000 1000000
 *   BENCH_FORMATS=shopify_csv,xlsx npx tsx bench/export.ts 100000   the formats to export (default: all)
 *
 * Every format of SPEC 3.2 is exported from the same stored catalog (items/s per format, peak RSS).
 * The emulators run in a child process (their in-memory S3 holds the objects), and every measured step
 * runs in a fresh process of its own, so each peak RSS is that step's alone.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Item } from '../lambdas/core/catalog/document';
import { catalogJsonChunks } from '../lambdas/core/catalog/writer';
import type { ExportRecord, JobRecord } from '../lambdas/core/model';
import { objectKeys } from '../lambdas/core/ports';
import { EXPORT_FORMATS, type ExportFormat } from '../lambdas/core/schemas/export';
import { processExport } from '../lambdas/core/use-cases/export-processing';
import { loadConfig } from '../lambdas/shared/config';
import { buildDeps } from '../lambdas/shared/deps';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const fakeUuid = (n: number) => `${hex(n, 8)}-0000-4000-8000-${hex(n, 12)}`;

function* items(count: number): Generator<Item> {
  for (let i = 0; i < count; i++) {
    yield {
      id: fakeUuid(i),
      name: `Product ${i}`,
      description: 'A product of the benchmark catalog, with a description of ordinary length.',
      category_id: fakeUuid(0),
      brand: 'Bench',
      tags: ['bench'],
      calories: null,
      modifier_group_ids: [],
      images: [{ url: `https://img.bench.example/${i}.jpg`, width: null, height: null }],
      external_id: null,
      option_names: [],
      variants: [
        {
          id: fakeUuid(i + count),
          name: null,
          options: {},
          sku: `SKU-${i}`,
          gtin: null,
          size: '1',
          unit: 'kg',
          price: { amount: 100 + (i % 1000), currency: 'USD' },
          pricing: 'fixed',
          images: [],
          external_id: null,
        },
      ],
    };
  }
}

/** Seeds a job with a catalog of `count` items and an export of it; prints the ids. */
const seed = async (count: number) => {
  const deps = buildDeps(loadConfig(process.env));
  const clientId = `bench-${randomUUID().slice(0, 8)}`;
  const now = new Date().toISOString();
  const job: JobRecord = {
    id: randomUUID(),
    clientId,
    state: 'completed',
    version: 3,
    jobType: 'new_retail_catalog',
    processingType: 'standard',
    jobData: { catalog_sources: ['https://bench.example/x.csv'], merchant_name: 'Bench', language: 'en_us' },
    metadata: {},
    results: {
      catalog: {
        item_count: count,
        variant_count: count,
        category_count: 1,
        modifier_group_count: 0,
        image_count: 0,
      },
    },
    createdAt: now,
    updatedAt: now,
    dueAt: now,
    completedAt: now,
    error: null,
  };
  await deps.jobs.create(job);
  await deps.jobs.markEnqueued(clientId, job.id);
  const doc = {
    format_version: 2 as const,
    job_id: job.id,
    job_type: job.jobType,
    generated_at: now,
    language: 'en_us' as const,
    currency: 'USD',
    merchant: { name: 'Bench', address: null, token: null },
    categories: [{ id: fakeUuid(0), name: 'All', parent_id: null, sort: 0, external_id: null }],
    items: items(count),
    modifier_groups: [],
    image_mappings: [],
  };
  const written = await deps.catalogs.write(
    objectKeys.catalog(clientId, job.id),
    catalogJsonChunks(doc),
    'application/json',
  );
  console.log(JSON.stringify({ clientId, jobId: job.id, bytes: written.sizeBytes }));
};

/** An export of the seeded job in one format; prints its id. */
const newExport = async (clientId: string, jobId: string, format: ExportFormat) => {
  const deps = buildDeps(loadConfig(process.env));
  const now = new Date().toISOString();
  const exp: ExportRecord = {
    id: randomUUID(),
    clientId,
    jobId,
    jobType: 'new_retail_catalog',
    state: 'initiated',
    version: 1,
    callbackUrl: null,
    format,
    linkTemplate: 'https://shop.bench.example/products/{handle}',
    clientMappings: {},
    createdAt: now,
    updatedAt: now,
    completedAt: null,
    objectKey: null,
    file: null,
    callback: null,
    error: null,
  };
  await deps.exports.create(exp);
  console.log(JSON.stringify({ exportId: exp.id }));
};

/** Runs one measured step in this process and prints its time and memory. */
const measure = async (step: () => Promise<void>) => {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = process.hrtime.bigint();
  await step();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(JSON.stringify({ ms, rssBeforeMb: before / 2 ** 20, peakRssMb: peak / 2 ** 20 }));
};

const runExport = (clientId: string, exportId: string) =>
  measure(async () => {
    const outcome = await processExport(buildDeps(loadConfig(process.env)), clientId, exportId);
    if (outcome.kind !== 'completed') throw new Error(`export ended ${outcome.kind}`);
  });

/** Baseline: the same bytes copied between the buckets with the SDK alone. */
const runCopy = (clientId: string, jobId: string) =>
  measure(async () => {
    const config = loadConfig(process.env);
    const s3 = new S3Client({
      region: config.region,
      endpoint: config.endpoints.s3,
      forcePathStyle: config.s3ForcePathStyle,
    });
    const source = await s3.send(
      new GetObjectCommand({ Bucket: config.buckets.catalogs, Key: objectKeys.catalog(clientId, jobId) }),
    );
    await new Upload({
      client: s3,
      params: {
        Bucket: config.buckets.exports,
        Key: `baseline/${jobId}.json`,
        Body: source.Body as Readable,
      },
      partSize: 8 * 2 ** 20,
      queueSize: 2,
    }).done();
  });

const self = (args: string[], env: NodeJS.ProcessEnv) =>
  JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', 'bench/export.ts', ...args], {
      env,
      encoding: 'utf8',
      maxBuffer: 2 ** 20,
    })
      .trim()
      .split('\n')
      .at(-1)!,
  );

const orchestrate = async (sizes: number[]) => {
  const emulators = spawn(process.execPath, ['--import', 'tsx', 'bin/emulators.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: emulators.stdout! }).once('line', resolve),
  );
  const env = { ...process.env, ...(JSON.parse(line) as { env: Record<string, string> }).env };
  const rows: Record<string, string | number>[] = [];
  try {
    const formats = (process.env.BENCH_FORMATS?.split(',') ?? EXPORT_FORMATS) as ExportFormat[];
    for (const size of sizes) {
      const seeded = self(['seed', String(size)], env);
      const copy = self(['copy', seeded.clientId, seeded.jobId], env);
      for (const format of formats) {
        const { exportId } = self(['new-export', seeded.clientId, seeded.jobId, format], env);
        const exported = self(['export', seeded.clientId, exportId], env);
        rows.push({
          format,
          items: size,
          'file MB': +(seeded.bytes / 2 ** 20).toFixed(1),
          'export s': +(exported.ms / 1000).toFixed(2),
          'items/s': Math.round(size / (exported.ms / 1000)),
          'baseline copy s': +(copy.ms / 1000).toFixed(2),
          'export/baseline': +(exported.ms / copy.ms).toFixed(2),
          'export peak RSS MB': +exported.peakRssMb.toFixed(0),
          'export RSS growth MB': +(exported.peakRssMb - exported.rssBeforeMb).toFixed(1),
          'copy peak RSS MB': +copy.peakRssMb.toFixed(0),
        });
      }
    }
  } finally {
    emulators.kill('SIGTERM');
  }
  console.table(rows);
  for (const format of new Set(rows.map((r) => r.format))) {
    const mine = rows.filter((r) => r.format === format);
    const peaks = mine.map((r) => Number(r['export peak RSS MB']));
    console.log(
      `${format}: export peak RSS from ${mine[0]?.items} to ${mine.at(-1)?.items} items: ${peaks[0]} MB -> ${peaks.at(-1)} MB`,
    );
  }
};

const [mode, ...args] = process.argv.slice(2);
if (mode === 'seed') await seed(Number(args[0]));
else if (mode === 'new-export') await newExport(args[0]!, args[1]!, args[2] as ExportFormat);
else if (mode === 'export') await runExport(args[0]!, args[1]!);
else if (mode === 'copy') await runCopy(args[0]!, args[1]!);
else await orchestrate((mode ? [mode, ...args] : ['1000', '100000', '1000000']).map(Number));
process.exit(0);
