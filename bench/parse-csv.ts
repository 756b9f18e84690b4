/**
 * CSV catalog throughput and memory: generates a menu CSV (100,000 rows by default), then measures in one
 * run
 *   1. baselines: streaming the same file and counting lines (the cost of reading the bytes at all), and
 *      readCsv alone (CSV tokenising by csv-parse, no catalog);
 *   2. parse + build: CatalogBuilder.addCsv over a file stream, then build();
 *   3. writing the built document as JSON with writeCatalogJson (to a discarding stream).
 * Prints rows/s for each, the ratio to the baseline, and peak RSS.
 *
 *   npx tsx bench/parse-csv.ts [rows]
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { CatalogBuilder } from '../lambdas/core/catalog/builder';
import { readCsv } from '../lambdas/core/catalog/csv';
import { writeCatalogJson } from '../lambdas/core/catalog/writer';

const rows = Number(process.argv[2] ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'bench-csv-'));
const file = join(dir, 'menu.csv');

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 5);
sampler.unref();
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const generate = async () => {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(
    'category,name,price,description,sku,size,calories,tags,image_url,modifier_group,modifier,modifier_price\n',
  );
  let item = 0;
  for (let row = 0; row < rows; row += 1) {
    // Four rows in five are items; the fifth adds a modifier to the item before it.
    if (row % 5 === 4) {
      await write(
        `Category ${(item - 1) % 50},"Dish ${item - 1}, house style",,,,,,,,Size,Large ${row},1.50\n`,
      );
    } else {
      await write(
        `Category ${item % 50},"Dish ${item}, house style",$${(item % 40) + 1}.${item % 100},"A ""fine"" dish; with sauce",SKU-${item},12",${item % 900},vegan|spicy,https://cdn.example.com/img/${item}.jpg,,,\n`,
      );
      item += 1;
    }
  }
  out.end();
  await once(out, 'finish');
};

const time = async <T>(run: () => Promise<T>): Promise<{ seconds: number; value: T }> => {
  const start = process.hrtime.bigint();
  const value = await run();
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, value };
};

const main = async () => {
  await generate();
  const size = statSync(file).size;
  const rssBefore = process.memoryUsage().rss;
  peakRss = rssBefore;

  const baseline = await time(async () => {
    let lines = 0;
    for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
    }
    return lines;
  });

  const tokenise = await time(async () => {
    let count = 0;
    for await (const _row of (await readCsv(createReadStream(file))).rows) count += 1;
    return count;
  });

  const job = {
    id: randomUUID(),
    job_type: 'new_menu' as const,
    job_data: { merchant_name: 'Bench', language: 'en_us' as const },
  };
  const parsed = await time(async () => {
    const builder = new CatalogBuilder(job);
    await builder.addCsv(file, createReadStream(file));
    return builder.build(new Date());
  });
  const afterBuild = process.memoryUsage();
  const peakParse = peakRss;

  const written = await time(() =>
    writeCatalogJson(
      parsed.value.document,
      new Writable({
        write(_chunk, _encoding, callback) {
          callback();
        },
      }),
    ),
  );

  clearInterval(sampler);
  const maxRss = process.resourceUsage().maxRSS * 1024;
  const { catalog, warning_count } = parsed.value.results;
  const rate = (n: number, seconds: number) => `${Math.round(n / seconds).toLocaleString('en-US')} rows/s`;
  console.log(`file: ${rows.toLocaleString('en-US')} rows, ${mb(size)} (${file})`);
  console.log(`catalog: ${JSON.stringify(catalog)}, warnings ${warning_count}`);
  console.log(
    `baseline (stream + count lines): ${baseline.seconds.toFixed(3)} s, ${rate(rows, baseline.seconds)}`,
  );
  console.log(
    `baseline (readCsv rows only):    ${tokenise.seconds.toFixed(3)} s, ${rate(tokenise.value, tokenise.seconds)}`,
  );
  console.log(
    `parse + build:                   ${parsed.seconds.toFixed(3)} s, ${rate(rows, parsed.seconds)} ` +
      `(${(parsed.seconds / baseline.seconds).toFixed(0)}x line counting, ` +
      `${(parsed.seconds / tokenise.seconds).toFixed(1)}x CSV tokenising alone)`,
  );
  console.log(
    `write JSON:                      ${written.seconds.toFixed(3)} s, ${mb(written.value.sizeBytes)}, ` +
      `${rate(written.value.itemCount, written.seconds)}`,
  );
  console.log(
    `memory: RSS before ${mb(rssBefore)}, peak during parse ${mb(peakParse)}, heap after build ${mb(afterBuild.heapUsed)}, ` +
      `process peak RSS (maxRSS) ${mb(maxRss)}`,
  );
  rmSync(dir, { recursive: true, force: true });
};

await main();
