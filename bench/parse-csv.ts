/**
 * Catalog parsing throughput and memory, measured in one run against baselines of the same run.
 *
 *   CSV (100,000 rows by default): a menu CSV with modifiers, generated on disk, then
 *     1. baselines: streaming the file and counting lines (the cost of reading the bytes at all), and
 *        csv-parse tokenising the file alone (same options as the reader, no catalog);
 *     2. parse + build: buildCatalog, the pipeline's entry point, over a file stream;
 *     3. writing the built document as JSON with writeCatalogJson (to a discarding stream).
 *   XLSX (100,000 rows by default): the same menu as a workbook, then
 *     1. baseline: read-excel-file reading the workbook alone (unzip + XML, no catalog);
 *     2. parse + build: buildCatalog over the workbook's bytes.
 *
 * Every step runs in a child process of its own, so that its peak RSS is its own (a baseline's garbage is
 * not counted against the build), and each is repeated (`--repeat`, 3 by default): the table shows the
 * least CPU time (user + system, all threads, GC included) of the repeats, and the range of peak RSS. On a
 * machine shared with other work the wall clock mostly measures the neighbours, CPU time what this code
 * costs; ratios are of CPU times. The build steps also run as the job worker runs them, with its
 * `--max-semi-space-size` (lib/resources.ts CONSUMER_SEMI_SPACE_MB): V8 sizes its young generation from the
 * machine's memory (128 MB on a 24 GB machine), which is most of the peak RSS above the live heap.
 *
 *   npx tsx bench/parse-csv.ts [rows] [--repeat N] [csv|xlsx]
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { getHeapSpaceStatistics } from 'node:v8';
import { parse } from 'csv-parse';
import { buildCatalog, type CatalogJob } from '../lambdas/core/catalog/build-catalog';
import { csvParseOptions } from '../lambdas/core/catalog/sources/csv';
import { writeCatalogJson } from '../lambdas/core/catalog/writer';
import type { OutboundHttp } from '../lambdas/core/ports';
import { CONSUMER_SEMI_SPACE_MB } from '../lib/resources';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const positional = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const rows = Number(positional.find((a) => /^\d+$/.test(a)) ?? 100_000);
const only = positional.find((a) => a === 'csv' || a === 'xlsx');
const repeat = Number(flag('--repeat') ?? 3);
/** Internal: the step a child process runs, and on which file. */
const step = flag('--step');
const stepFile = flag('--file') ?? '';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const perSecond = (n: number, seconds: number) => Math.round(n / seconds).toLocaleString('en-US');

const HEADER = [
  'category',
  'name',
  'price',
  'description',
  'sku',
  'size',
  'calories',
  'tags',
  'image_url',
  'modifier_group',
  'modifier',
  'modifier_price',
];

/** Four rows in five are dishes; the fifth adds a modifier to the dish before it. */
function* menuRows(count: number): Generator<string[]> {
  let item = 0;
  for (let row = 0; row < count; row += 1) {
    if (row % 5 === 4) {
      yield [
        `Category ${(item - 1) % 50}`,
        `Dish ${item - 1}, house style`,
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        'Size',
        `Large ${row}`,
        '1.50',
      ];
    } else {
      yield [
        `Category ${item % 50}`,
        `Dish ${item}, house style`,
        `$${(item % 40) + 1}.${item % 100}`,
        'A "fine" dish; with sauce',
        `SKU-${item}`,
        '12"',
        String(item % 900),
        'vegan|spicy',
        `https://cdn.example.com/img/${item}.jpg`,
        '',
        '',
        '',
      ];
      item += 1;
    }
  }
}

const csvCell = (text: string) => (/[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

const job = (): CatalogJob => ({
  id: randomUUID(),
  job_type: 'new_menu',
  job_data: { merchant_name: 'Bench', language: 'en_us' },
});
const noHttp: OutboundHttp = {
  request: () => Promise.reject(new Error('the benchmark makes no requests')),
};

const discard = () =>
  new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });

/** What a child reports: CPU and wall seconds of its measured work, its peak RSS, and what it counted. */
interface StepResult {
  readonly cpu: number;
  readonly wall: number;
  readonly peakRss: number;
  readonly count: number;
  readonly extra: Record<string, number | string>;
}

const measure = async (
  run: () => Promise<{ count: number; extra?: Record<string, number | string> }>,
): Promise<StepResult> => {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const { count, extra = {} } = await run();
  const used = process.cpuUsage(cpu);
  return {
    cpu: (used.user + used.system) / 1e6,
    wall: Number(process.hrtime.bigint() - start) / 1e9,
    peakRss: process.resourceUsage().maxRSS * 1024,
    count,
    extra,
  };
};

const openFile = (contentType: string | null) => async (source: string) => ({
  source,
  body: createReadStream(source),
  contentType,
  name: source,
});

const youngGeneration = () =>
  getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;

/** The steps, each run in a child process of its own. */
const STEPS: Record<string, (file: string) => Promise<StepResult>> = {
  'csv-lines': (file) =>
    measure(async () => {
      let count = 0;
      for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) count += 1;
      }
      return { count };
    }),
  'csv-tokenise': (file) =>
    measure(async () => {
      let count = 0;
      for await (const _record of createReadStream(file).pipe(parse(csvParseOptions(',')))) count += 1;
      return { count };
    }),
  'csv-build': async (file) => {
    let document: Awaited<ReturnType<typeof buildCatalog>>['document'] | null = null;
    const built = await measure(async () => {
      const result = await buildCatalog({
        job: job(),
        sources: [file],
        open: openFile('text/csv'),
        http: noHttp,
        now: new Date(),
      });
      document = result.document;
      return {
        count: result.itemCount,
        extra: {
          catalog: JSON.stringify(result.results.catalog),
          warnings: result.results.warning_count ?? 0,
          heapAfterBuild: process.memoryUsage().heapUsed,
          youngGeneration: youngGeneration(),
        },
      };
    });
    const buildRss = built.peakRss;
    const written = await measure(async () => {
      const stats = await writeCatalogJson(document as NonNullable<typeof document>, discard());
      return { count: stats.itemCount, extra: { sizeBytes: stats.sizeBytes } };
    });
    return {
      ...built,
      extra: {
        ...built.extra,
        buildRss,
        writeCpu: written.cpu,
        writeWall: written.wall,
        written: written.count,
        sizeBytes: written.extra.sizeBytes as number,
      },
    };
  },
  'xlsx-baseline': async (file) => {
    const { default: readXlsxFile } = await import('read-excel-file/node');
    const bytes = readFileSync(file);
    return measure(async () => {
      const sheets = await readXlsxFile(bytes);
      return { count: sheets.reduce((n, s) => n + s.data.length, 0) };
    });
  },
  'xlsx-build': async (file) => {
    const bytes = readFileSync(file);
    return measure(async () => {
      const result = await buildCatalog({
        job: job(),
        sources: [file],
        open: async (source) => ({ source, body: Readable.from([bytes]), name: source }),
        http: noHttp,
        now: new Date(),
      });
      return {
        count: result.itemCount,
        extra: {
          catalog: JSON.stringify(result.results.catalog),
          warnings: result.results.warning_count ?? 0,
          youngGeneration: youngGeneration(),
        },
      };
    });
  },
};

const writeCsv = async (file: string) => {
  const out = createWriteStream(file);
  out.write(`${HEADER.join(',')}\n`);
  for (const cells of menuRows(rows)) {
    if (!out.write(`${cells.map(csvCell).join(',')}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
};

const writeXlsx = async (file: string) => {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file });
  const sheet = workbook.addWorksheet('Menu');
  sheet.addRow(HEADER).commit();
  for (const cells of menuRows(rows)) sheet.addRow(cells).commit();
  sheet.commit();
  await workbook.commit();
};

/** Runs a step `repeat` times, each in a fresh process; V8 flags go before the script. */
const runStep = (name: string, file: string, v8Flags: readonly string[] = []): StepResult[] => {
  const results: StepResult[] = [];
  for (let i = 0; i < repeat; i += 1) {
    const child = spawnSync(
      process.execPath,
      [...v8Flags, ...process.execArgv, process.argv[1] as string, '--step', name, '--file', file],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    if (child.status !== 0) throw new Error(`step ${name} failed with status ${child.status}`);
    results.push(JSON.parse(child.stdout.trim().split('\n').pop() as string) as StepResult);
  }
  return results;
};

const least = (results: readonly StepResult[], pick: (r: StepResult) => number = (r) => r.cpu) =>
  Math.min(...results.map(pick));
const rssRange = (results: readonly StepResult[], pick: (r: StepResult) => number = (r) => r.peakRss) => {
  const values = results.map(pick);
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? mb(low) : `${mb(low)}–${mb(high)}`;
};
const cpuLine = (results: readonly StepResult[]) => {
  const best = results.reduce((a, b) => (b.cpu < a.cpu ? b : a));
  return `${best.cpu.toFixed(3)} s CPU (${best.wall.toFixed(3)} s wall)`;
};
/** The job worker's V8 flag (lib/resources.ts): its NODE_OPTIONS in AWS, its thread's limit locally. */
const SEMI = [`--max-semi-space-size=${CONSUMER_SEMI_SPACE_MB['job-worker']}`];

const csvCase = async (dir: string) => {
  const file = join(dir, 'menu.csv');
  await writeCsv(file);
  const lines = runStep('csv-lines', file);
  const tokenise = runStep('csv-tokenise', file);
  const build = runStep('csv-build', file);
  const buildSemi = runStep('csv-build', file, SEMI);
  const first = build[0] as StepResult;
  const tokeniseCpu = least(tokenise);
  const buildCpu = least(build);
  const writeCpu = least(build, (r) => r.extra.writeCpu as number);
  console.log(
    `CSV: ${rows.toLocaleString('en-US')} rows, ${mb(statSync(file).size)}, best of ${repeat} runs`,
  );
  console.log(`  catalog: ${first.extra.catalog}, warnings ${first.extra.warnings}`);
  console.log(
    `  baseline, stream + count lines:    ${cpuLine(lines)}, ${perSecond(rows, least(lines))} rows/s`,
  );
  console.log(
    `  baseline, csv-parse tokenising:    ${cpuLine(tokenise)}, ${perSecond(rows, tokeniseCpu)} rows/s, ` +
      `peak RSS ${rssRange(tokenise)}`,
  );
  console.log(
    `  parse + build (buildCatalog):      ${cpuLine(build)}, ${perSecond(rows, buildCpu)} rows/s ` +
      `= ${(buildCpu / tokeniseCpu).toFixed(2)}x csv-parse tokenising alone`,
  );
  const semiCpu = least(buildSemi);
  console.log(
    `  parse + build, as the job worker:  ${cpuLine(buildSemi)}, ${perSecond(rows, semiCpu)} rows/s ` +
      `= ${(semiCpu / tokeniseCpu).toFixed(2)}x csv-parse tokenising alone (${SEMI.join(' ')})`,
  );
  console.log(
    `  write JSON (writeCatalogJson):     ${writeCpu.toFixed(3)} s CPU, ${mb(first.extra.sizeBytes as number)}, ` +
      `${perSecond(first.extra.written as number, writeCpu)} items/s`,
  );
  console.log(
    `  memory: heap after build ${mb(first.extra.heapAfterBuild as number)}; peak RSS of the build ` +
      `${rssRange(build, (r) => r.extra.buildRss as number)} (young generation ` +
      `${mb(first.extra.youngGeneration as number)}), ${rssRange(buildSemi, (r) => r.extra.buildRss as number)} ` +
      `with ${SEMI.join(' ')}; with the write ${rssRange(build)}`,
  );
};

const xlsxCase = async (dir: string) => {
  const file = join(dir, 'menu.xlsx');
  await writeXlsx(file);
  const baseline = runStep('xlsx-baseline', file);
  const build = runStep('xlsx-build', file);
  const buildSemi = runStep('xlsx-build', file, SEMI);
  const first = build[0] as StepResult;
  const baselineCpu = least(baseline);
  const buildCpu = least(build);
  console.log(
    `XLSX: ${rows.toLocaleString('en-US')} rows, ${mb(statSync(file).size)}, best of ${repeat} runs`,
  );
  console.log(`  catalog: ${first.extra.catalog}, warnings ${first.extra.warnings}`);
  console.log(
    `  baseline, read-excel-file alone:   ${cpuLine(baseline)}, ${perSecond(rows, baselineCpu)} rows/s, ` +
      `peak RSS ${rssRange(baseline)}`,
  );
  console.log(
    `  parse + build (buildCatalog):      ${cpuLine(build)}, ${perSecond(rows, buildCpu)} rows/s ` +
      `= ${(buildCpu / baselineCpu).toFixed(2)}x read-excel-file alone`,
  );
  const semiCpu = least(buildSemi);
  console.log(
    `  parse + build, as the job worker:  ${cpuLine(buildSemi)}, ${perSecond(rows, semiCpu)} rows/s ` +
      `= ${(semiCpu / baselineCpu).toFixed(2)}x read-excel-file alone (${SEMI.join(' ')})`,
  );
  console.log(
    `  memory: peak RSS of the build ${rssRange(build)} (young generation ` +
      `${mb(first.extra.youngGeneration as number)}), ${rssRange(buildSemi)} with ${SEMI.join(' ')}`,
  );
};

const main = async () => {
  if (step !== undefined) {
    const run = STEPS[step];
    if (run === undefined) throw new Error(`unknown step ${step}`);
    console.log(JSON.stringify(await run(stepFile)));
    return;
  }
  const [one, five, fifteen] = loadavg().map((n) => n.toFixed(2));
  console.log(`Node ${process.version}, load average ${one} ${five} ${fifteen} at the start`);
  const dir = mkdtempSync(join(tmpdir(), 'bench-catalog-'));
  try {
    if (only !== 'xlsx') await csvCase(dir);
    if (only !== 'csv') await xlsxCase(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const [one2, five2, fifteen2] = loadavg().map((n) => n.toFixed(2));
  console.log(`load average ${one2} ${five2} ${fifteen2} at the end`);
};

await main();
