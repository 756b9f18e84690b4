/**
 * Catalog parsing throughput and memory, measured in one run against baselines of the same run:
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
 * Each case runs in a child process of its own, so that its peak RSS is its own. Times are the process's CPU
 * time (user + system) for each step, and wall time beside it: on a machine shared with other work the
 * wall clock mostly measures the neighbours, CPU time what this code costs. Ratios are of CPU times.
 *
 *   npx tsx bench/parse-csv.ts [rows]            both cases
 *   npx tsx bench/parse-csv.ts [rows] csv|xlsx   one case, in this process
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { parse } from 'csv-parse';
import { buildCatalog, type CatalogJob } from '../lambdas/core/catalog/build-catalog';
import { csvParseOptions } from '../lambdas/core/catalog/sources/csv';
import { writeCatalogJson } from '../lambdas/core/catalog/writer';
import type { OutboundHttp } from '../lambdas/core/ports';

const rows = Number(process.argv[2] ?? 100_000);
const only = process.argv[3] as 'csv' | 'xlsx' | undefined;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const rate = (n: number, seconds: number) => `${Math.round(n / seconds).toLocaleString('en-US')} rows/s`;
const time = async <T>(run: () => Promise<T>): Promise<{ seconds: number; wall: number; value: T }> => {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const value = await run();
  const used = process.cpuUsage(cpu);
  return {
    seconds: (used.user + used.system) / 1e6,
    wall: Number(process.hrtime.bigint() - start) / 1e9,
    value,
  };
};
const secs = (t: { seconds: number; wall: number }) =>
  `${t.seconds.toFixed(3)} s CPU (${t.wall.toFixed(3)} s wall)`;

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

const csvCase = async (dir: string) => {
  const file = join(dir, 'menu.csv');
  const out = createWriteStream(file);
  out.write(`${HEADER.join(',')}\n`);
  for (const cells of menuRows(rows)) {
    if (!out.write(`${cells.map(csvCell).join(',')}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const size = statSync(file).size;

  const lines = await time(async () => {
    let count = 0;
    for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) count += 1;
    }
    return count;
  });
  const tokenise = await time(async () => {
    let count = 0;
    for await (const _record of createReadStream(file).pipe(parse(csvParseOptions(',')))) count += 1;
    return count;
  });
  const rssBefore = process.memoryUsage().rss;
  const built = await time(() =>
    buildCatalog({
      job: job(),
      sources: [file],
      open: async (source) => ({
        source,
        body: createReadStream(source),
        contentType: 'text/csv',
        name: source,
      }),
      http: noHttp,
      now: new Date(),
    }),
  );
  const heapAfterBuild = process.memoryUsage().heapUsed;
  const written = await time(() => writeCatalogJson(built.value.document, discard()));
  const { catalog, warning_count } = built.value.results;
  const items = written.value.itemCount;

  console.log(`CSV: ${rows.toLocaleString('en-US')} rows, ${mb(size)}`);
  console.log(`  catalog: ${JSON.stringify(catalog)}, warnings ${warning_count}`);
  console.log(`  baseline, stream + count lines:    ${secs(lines)}, ${rate(rows, lines.seconds)}`);
  console.log(
    `  baseline, csv-parse tokenising:    ${secs(tokenise)}, ${rate(tokenise.value, tokenise.seconds)}`,
  );
  console.log(
    `  parse + build (buildCatalog):      ${secs(built)}, ${rate(rows, built.seconds)} ` +
      `= ${(built.seconds / tokenise.seconds).toFixed(2)}x csv-parse tokenising alone`,
  );
  console.log(
    `  write JSON (writeCatalogJson):     ${secs(written)}, ${mb(written.value.sizeBytes)}, ` +
      `${Math.round(items / written.seconds).toLocaleString('en-US')} items/s`,
  );
  console.log(
    `  memory: RSS before build ${mb(rssBefore)}, heap after build ${mb(heapAfterBuild)}, ` +
      `peak RSS of the process ${mb(process.resourceUsage().maxRSS * 1024)}`,
  );
};

const xlsxCase = async (dir: string) => {
  // Imported here so that the CSV case's memory does not include them.
  const { default: ExcelJS } = await import('exceljs');
  const { default: readXlsxFile } = await import('read-excel-file/node');
  const file = join(dir, 'menu.xlsx');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file });
  const sheet = workbook.addWorksheet('Menu');
  sheet.addRow(HEADER).commit();
  for (const cells of menuRows(rows)) sheet.addRow(cells).commit();
  sheet.commit();
  await workbook.commit();
  const bytes = readFileSync(file);

  const baseline = await time(async () => {
    const sheets = await readXlsxFile(bytes);
    return sheets.reduce((n, s) => n + s.data.length, 0);
  });
  const built = await time(() =>
    buildCatalog({
      job: job(),
      sources: [file],
      open: async (source) => ({ source, body: Readable.from([bytes]), name: source }),
      http: noHttp,
      now: new Date(),
    }),
  );
  const { catalog, warning_count } = built.value.results;
  console.log(`XLSX: ${rows.toLocaleString('en-US')} rows, ${mb(bytes.length)}`);
  console.log(`  catalog: ${JSON.stringify(catalog)}, warnings ${warning_count}`);
  console.log(
    `  baseline, read-excel-file alone:   ${secs(baseline)}, ${rate(baseline.value, baseline.seconds)}`,
  );
  console.log(
    `  parse + build (buildCatalog):      ${secs(built)}, ${rate(rows, built.seconds)} ` +
      `= ${(built.seconds / baseline.seconds).toFixed(2)}x read-excel-file alone`,
  );
  console.log(`  memory: peak RSS of the process ${mb(process.resourceUsage().maxRSS * 1024)}`);
};

const main = async () => {
  if (only === undefined) {
    for (const which of ['csv', 'xlsx']) {
      const child = spawnSync(
        process.execPath,
        [...process.execArgv, process.argv[1] as string, String(rows), which],
        {
          stdio: 'inherit',
        },
      );
      if (child.status !== 0) process.exitCode = child.status ?? 1;
    }
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-catalog-'));
  try {
    await (only === 'csv' ? csvCase(dir) : xlsxCase(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

await main();
