/**
 * XML product feeds against the same feed as tab-separated text, measured in one run.
 *
 * A Google Merchant Center feed of `offers` offers (50,000 by default: 16,667 products in three sizes, a
 * CDATA description, image, price, brand, group and product type each) is written twice with the same
 * content: as TSV (the baseline: the CSV reader, streaming) and as RSS 2.0 XML with the g: namespace (the
 * XML reader: decoded whole, checked well-formed, parsed to a tree, then rows). Each build runs buildCatalog
 * in a child process of its own with the job worker's V8 flags, `--repeat` times (3 by default); the table
 * shows the least CPU time and the range of peak RSS, and the ratios XML / TSV.
 *
 *   npx tsx bench/parse-xml.ts [offers] [--repeat N]
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCatalog, type CatalogJob } from '../lambdas/core/catalog/build-catalog';
import type { OutboundHttp } from '../lambdas/core/ports';
import { CONSUMER_SEMI_SPACE_MB } from '../lib/resources';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const offers = Number(args.find((a, i) => /^\d+$/.test(a) && !args[i - 1]?.startsWith('--')) ?? 50_000);
const repeat = Number(flag('--repeat') ?? 3);
const step = flag('--step');
const stepFile = flag('--file') ?? '';

interface StepResult {
  readonly cpuSeconds: number;
  readonly peakRss: number;
  readonly items: number;
  readonly variants: number;
}

const SIZES = ['S', 'M', 'L'];
const offer = (i: number) => {
  const product = Math.floor(i / 3);
  return {
    id: `SKU-${i}`,
    title: `Organic cotton tee ${product}`,
    description: `<p>Heavyweight organic cotton jersey, garment dyed. Style ${product}.</p>`,
    link: `https://shop.example/products/tee-${product}`,
    image: `https://cdn.shop.example/img/tee-${product}.jpg`,
    price: `${(product % 90) + 10}.00 USD`,
    brand: `Brand ${product % 50}`,
    group: `TEE-${product}`,
    size: SIZES[i % 3] as string,
    type: `Apparel > Tops > Line ${product % 40}`,
  };
};

const writeFeeds = (dir: string): { tsv: string; xml: string } => {
  const tsv = [
    'id\ttitle\tdescription\tlink\timage_link\tavailability\tprice\tbrand\titem_group_id\tsize\tproduct_type',
  ];
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss xmlns:g="http://base.google.com/ns/1.0" version="2.0"><channel><title>Shop</title>',
  ];
  const escapeXml = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  for (let i = 0; i < offers; i += 1) {
    const o = offer(i);
    tsv.push(
      [
        o.id,
        o.title,
        o.description,
        o.link,
        o.image,
        'in_stock',
        o.price,
        o.brand,
        o.group,
        o.size,
        o.type,
      ].join('\t'),
    );
    xml.push(
      `<item><g:id>${o.id}</g:id><g:title>${o.title}</g:title><g:description><![CDATA[${o.description}]]></g:description>` +
        `<g:link>${o.link}</g:link><g:image_link>${o.image}</g:image_link><g:availability>in_stock</g:availability>` +
        `<g:price>${o.price}</g:price><g:brand>${o.brand}</g:brand><g:item_group_id>${o.group}</g:item_group_id>` +
        `<g:size>${o.size}</g:size><g:product_type>${escapeXml(o.type)}</g:product_type></item>`,
    );
  }
  xml.push('</channel></rss>');
  const files = { tsv: join(dir, 'feed.tsv'), xml: join(dir, 'feed.xml') };
  writeFileSync(files.tsv, `${tsv.join('\n')}\n`);
  writeFileSync(files.xml, `${xml.join('\n')}\n`);
  return files;
};

const noHttp: OutboundHttp = {
  request: async () => {
    throw new Error('no outbound requests in this bench');
  },
};

const runBuild = async (file: string): Promise<StepResult> => {
  const job = {
    id: '00000000-0000-4000-8000-000000000001',
    job_type: 'new_retail_catalog',
    job_data: { language: 'en_us' },
  } as unknown as CatalogJob;
  const name = file.split('/').pop() as string;
  const cpu = process.cpuUsage();
  const built = await buildCatalog({
    job,
    sources: [name],
    open: async () => ({
      source: name,
      body: createReadStream(file, { highWaterMark: 1 << 20 }),
      contentType: null,
      name,
    }),
    http: noHttp,
    now: new Date('2026-01-01T00:00:00Z'),
  });
  const used = process.cpuUsage(cpu);
  if (built.failures.length > 0) throw new Error(JSON.stringify(built.failures));
  return {
    cpuSeconds: (used.user + used.system) / 1e6,
    peakRss: process.resourceUsage().maxRSS * 1024,
    items: built.document.items.length,
    variants: built.document.items.reduce((n, item) => n + item.variants.length, 0),
  };
};

const runStep = (file: string): StepResult[] => {
  const v8Flags = [`--max-semi-space-size=${CONSUMER_SEMI_SPACE_MB['job-worker'] ?? 16}`];
  const results: StepResult[] = [];
  for (let i = 0; i < repeat; i += 1) {
    const child = spawnSync(
      process.execPath,
      [...v8Flags, ...process.execArgv, process.argv[1] as string, '--step', 'build', '--file', file],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    if (child.status !== 0) throw new Error(`build of ${file} failed with status ${child.status}`);
    results.push(JSON.parse(child.stdout.trim().split('\n').pop() as string) as StepResult);
  }
  return results;
};

if (step === 'build') {
  process.stdout.write(`${JSON.stringify(await runBuild(stepFile))}\n`);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'bench-xml-'));
  try {
    const files = writeFeeds(dir);
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
    console.log(
      `Node ${process.version}; ${offers} offers: TSV ${mb(statSync(files.tsv).size)}, XML ${mb(statSync(files.xml).size)}; ${repeat} runs each`,
    );
    const tsv = runStep(files.tsv);
    const xml = runStep(files.xml);
    const least = (runs: StepResult[]) => Math.min(...runs.map((r) => r.cpuSeconds));
    const rss = (runs: StepResult[]) =>
      `${mb(Math.min(...runs.map((r) => r.peakRss)))}–${mb(Math.max(...runs.map((r) => r.peakRss)))}`;
    for (const [name, runs] of [
      ['TSV (baseline)', tsv],
      ['RSS XML', xml],
    ] as const) {
      const r = runs[0] as StepResult;
      console.log(
        `${name.padEnd(16)} CPU ${least(runs).toFixed(2)} s  peak RSS ${rss(runs)}  ${r.items} items, ${r.variants} variants`,
      );
    }
    if (tsv[0]?.items !== xml[0]?.items || tsv[0]?.variants !== xml[0]?.variants)
      throw new Error('the two feeds built different catalogs');
    console.log(
      `XML / TSV: CPU ${(least(xml) / least(tsv)).toFixed(2)}x, peak RSS ${(Math.max(...xml.map((r) => r.peakRss)) / Math.max(...tsv.map((r) => r.peakRss))).toFixed(2)}x`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
