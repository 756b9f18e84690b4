/**
 * `npm run bench:ocr-corpus`: the OCR stage alone on the real menus of `../shared/corpus/menus` (issue 23), so
 * that a lost dish is located: is it in the recognised text at all (OCR), or lost later (layout, drafting)?
 *
 * Every image, and every page of a PDF that OCR reads or should read (scanned pages, a page drawn as
 * outlines; only the pages `truth.json` transcribes), goes through each OCR engine named in `--engines`,
 * exactly as the job worker hands it over (a photo as read-image.ts does: decoded, turned, straightened,
 * scaled as the engine needs; a PDF page as drawn, read-draft.ts). Per file it
 * reports the share of the truth's dishes whose name appears in the recognised text (fuzzy, as the corpus'
 * score.mjs compares names: similarity ≥ 0.85 over a window of words of one line, or of two lines for a
 * wrapped name) and the share whose name and every price appear (the price as a number on the name's line
 * or within the two lines after it), and the seconds per page. Engines run one after the other on each file,
 * in the same run: the first is the baseline the others are compared with.
 *
 *   npm run bench:ocr-corpus                               table, every engine
 *   npm run bench:ocr-corpus -- --engines=tesseract,hybrid
 *   npm run bench:ocr-corpus -- --only=little_sicily_subs_en.png
 *   npm run bench:ocr-corpus -- --json                     one JSON document
 *   npm run bench:ocr-corpus -- --dump=.local/ocr-text     the recognised text of each file and engine
 *   npm run bench:ocr-corpus -- --timeout-s=300            a page's time limit (default: the job worker's)
 *
 * Skipped (with a message, exit 0) when `../shared/corpus/menus` is absent: a clone has no corpus.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { imageSize } from 'image-size';
import { CanvasImageDecoder } from '../lambdas/adapters/canvas-image-decoder';
import { PaddleRecognizer } from '../lambdas/adapters/paddle-recognizer';
import { PdfPageRasterizer } from '../lambdas/adapters/pdf-page-rasterizer';
import { TesseractRecognizer } from '../lambdas/adapters/tesseract-recognizer';
import { ocrLanguages } from '../lambdas/core/catalog/drafts/ocr';
import { needsDecoding, toPgm } from '../lambdas/core/catalog/drafts/page-image';
import type { GrayImage, OcrPage } from '../lambdas/core/catalog/drafts/ports';
import { DRAFT_LIMITS } from '../lambdas/core/catalog/drafts/read-draft';
import { type PageImageDeps, readPageImage } from '../lambdas/core/catalog/drafts/read-image';
import { currencyDecimals } from '../lambdas/core/catalog/money';
import { sniffPhotoFormat } from '../lambdas/core/catalog/sources/signatures';
import type { Language } from '../lambdas/core/schemas/job';
import { draftingAdapters } from '../lambdas/shared/drafting';

const MENUS = join(process.cwd(), '..', 'shared', 'corpus', 'menus');

interface TruthDish {
  readonly category: string;
  readonly name: string;
  readonly prices: readonly number[];
  readonly aliases?: readonly string[];
  readonly number?: string;
}

interface TruthFile {
  readonly kind: 'pdf' | 'image';
  readonly source_kind: string;
  readonly language: Language;
  readonly currency: string;
  readonly pages: number;
  readonly scored_pages?: readonly number[];
  readonly dishes: readonly TruthDish[];
}

interface Scorer {
  normalise(s: string): string;
  similarity(a: string, b: string): number;
}

interface EngineResult {
  readonly engine: string;
  readonly names: number;
  readonly dishes: number;
  readonly seconds: number;
  /** CPU time of the whole process (worker threads included): what the read costs whatever the load. */
  readonly cpuSeconds: number;
  readonly pages: number;
  readonly errors: readonly string[];
  readonly text: string;
}

interface FileResult {
  readonly file: string;
  readonly sourceKind: string;
  readonly language: string;
  readonly total: number;
  readonly engines: readonly EngineResult[];
}

/** The engines compared: how each one is wired (the job worker's is in lambdas/shared/drafting.ts). */
const ENGINES = {
  /** tesseract.js, its LSTM data for the job language; the page decoded only when read-image.ts says so. */
  tesseract: (root: string): PageImageDeps => ({
    recognizer: new TesseractRecognizer({ moduleRoot: root }),
    decoder: new CanvasImageDecoder(),
  }),
  /** PaddleOCR PP-OCRv4 detection and recognition on ONNX Runtime; Tesseract's OSD for orientation. */
  paddle: (root: string): PageImageDeps => {
    const decoder = new CanvasImageDecoder();
    return {
      recognizer: new PaddleRecognizer({
        moduleRoot: root,
        decoder,
        orientation: new TesseractRecognizer({ moduleRoot: root }),
      }),
      decoder,
    };
  },
  /** Paddle's detection; the lines it finds read by Tesseract in the job's language, stacked in one page. */
  hybrid: (root: string): PageImageDeps => {
    const decoder = new CanvasImageDecoder();
    const tesseract = new TesseractRecognizer({ moduleRoot: root });
    return {
      recognizer: new PaddleRecognizer({
        moduleRoot: root,
        decoder,
        orientation: tesseract,
        lineReader: { reader: tesseract, for: () => true },
      }),
      decoder,
    };
  },
  /** What the job worker runs (lambdas/shared/drafting.ts). */
  worker: (root: string): PageImageDeps => draftingAdapters(root),
} satisfies Record<string, (root: string) => PageImageDeps>;
type OcrEngineName = keyof typeof ENGINES;

const args = process.argv.slice(2);
const option = (name: string): string | undefined =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const flag = (name: string): boolean => args.includes(`--${name}`);
/**
 * Time limit of a page: the job worker's by default; `--timeout-s=300` on a loaded machine, so that the
 * figures say what each engine reads rather than what it reads before the limit.
 */
const TIMEOUT_MS = Number(option('timeout-s') ?? DRAFT_LIMITS.ocrPageTimeoutMs / 1000) * 1000;

/** The OCR text of a page as lines: words of one text row (same line box) in reading order. */
export const pageLines = (page: OcrPage): string[] => {
  const rows: { y: number; height: number; words: { x: number; text: string }[] }[] = [];
  for (const word of page.words) {
    if (word.text.trim() === '') continue;
    const row = rows.find(
      (r) => Math.abs(r.y - word.y) < Math.max(2, r.height * 0.25) && Math.abs(r.height - word.height) < 2,
    );
    if (row) row.words.push({ x: word.x, text: word.text });
    else rows.push({ y: word.y, height: word.height, words: [{ x: word.x, text: word.text }] });
  }
  return rows.map((r) =>
    r.words
      .sort((a, b) => a.x - b.x)
      .map((w) => w.text)
      .join(' '),
  );
};

/** The ways a price in minor units can be written on a menu: 1050 → 10.50, 10,50; 900 → 9, 9.00, 9,00. */
const priceForms = (minor: number, currency: string): RegExp => {
  const decimals = currencyDecimals(currency);
  const major = Math.floor(minor / 10 ** decimals);
  const fraction = decimals > 0 ? String(minor % 10 ** decimals).padStart(decimals, '0') : '';
  const thousands =
    major >= 1000 ? [`${Math.floor(major / 1000)}[.,' ]${String(major % 1000).padStart(3, '0')}`] : [];
  const whole = [String(major), ...thousands];
  const forms =
    fraction === '' || /^0+$/.test(fraction)
      ? whole.map((w) => `${w}(?:[.,]0{1,2}|[.,]-)?`)
      : [
          ...whole.map((w) => `${w}[.,]${fraction}`),
          ...(fraction.endsWith('0') ? whole.map((w) => `${w}[.,]${fraction.slice(0, -1)}`) : []),
        ];
  return new RegExp(`(?<![\\d.,])(?:${forms.join('|')})(?![\\d]|[.,]\\d)`);
};

/** Whether `name` is found in `line` (a window of its words, ±2 words, similar enough). */
const nameIn = (scorer: Scorer, line: string, name: string): boolean => {
  const target = scorer.normalise(name);
  if (target === '') return false;
  const words = scorer.normalise(line).split(' ').filter(Boolean);
  const size = target.split(' ').length;
  for (let length = Math.max(1, size - 2); length <= size + 2; length++)
    for (let start = 0; start + length <= words.length; start++)
      if (scorer.similarity(words.slice(start, start + length).join(' '), target) >= 0.85) return true;
  return false;
};

const dishNames = (dish: TruthDish): string[] => {
  const names = [dish.name, ...(dish.aliases ?? [])];
  return dish.number === undefined ? names : [...names, ...names.map((n) => `${dish.number} ${n}`)];
};

/** How many dishes are named in the lines, and how many are named with every price near the name. */
export const scoreLines = (
  scorer: Scorer,
  lines: readonly string[],
  dishes: readonly TruthDish[],
  currency: string,
): { names: number; dishes: number } => {
  let names = 0;
  let both = 0;
  for (const dish of dishes) {
    const prices = dish.prices.map((p) => priceForms(p, currency));
    let named = false;
    let priced = false;
    for (let i = 0; i < lines.length && !priced; i++) {
      const here = [lines[i]!, `${lines[i]!} ${lines[i + 1] ?? ''}`];
      if (!dishNames(dish).some((n) => here.some((l) => nameIn(scorer, l, n)))) continue;
      named = true;
      const near = lines.slice(i, i + 3).join(' ');
      priced = prices.every((p) => p.test(near));
    }
    if (named) names++;
    if (priced) both++;
  }
  return { names, dishes: both };
};

/** A photo as sent, or a PDF page as drawn (which the job worker hands to the engine as it is: read-draft.ts). */
type OcrInput = { image: Uint8Array; format: 'png' | 'jpeg' | 'webp' } | { page: GrayImage };

/** The pages OCR reads in a file: the image itself, or the PDF's pages that truth.json scores. */
const ocrInputs = async (
  bytes: Uint8Array,
  truth: TruthFile,
  rasterizer: PdfPageRasterizer,
): Promise<OcrInput[]> => {
  if (truth.kind === 'image') {
    const format = sniffPhotoFormat(bytes);
    if (format !== 'png' && format !== 'jpeg' && format !== 'webp') throw new Error(`unexpected ${format}`);
    return [{ image: bytes, format }];
  }
  const pages = truth.scored_pages ?? Array.from({ length: truth.pages }, (_, i) => i + 1);
  const images: OcrInput[] = [];
  for (const page of pages) {
    const drawn = await rasterizer.rasterize(bytes, page, { maxPixels: DRAFT_LIMITS.rasterPixels });
    if (!drawn) throw new Error('no canvas to draw PDF pages');
    images.push({ page: drawn });
  }
  await rasterizer.release();
  return images;
};

const runEngine = async (
  name: OcrEngineName,
  inputs: readonly OcrInput[],
  truth: TruthFile,
  scorer: Scorer,
): Promise<EngineResult> => {
  const deps = ENGINES[name](process.cwd());
  const languages = ocrLanguages(truth.language).languages;
  const lines: string[] = [];
  const errors: string[] = [];
  const started = performance.now();
  const cpu = process.cpuUsage();
  try {
    for (const input of inputs) {
      try {
        if ('page' in input) {
          const page = await deps.recognizer.recognize(toPgm(input.page), {
            languages,
            timeoutMs: TIMEOUT_MS,
          });
          lines.push(...pageLines(page));
          continue;
        }
        const { image, format } = input;
        const size = imageSize(image);
        const reading = await readPageImage(image, format, deps, {
          languages,
          timeoutMs: TIMEOUT_MS,
          maxOcrPixels: DRAFT_LIMITS.maxOcrPixels,
          // As the job worker decides (read-draft.ts): an engine that does not straighten gets every photo so.
          decode: needsDecoding(
            {
              format,
              pixels: (size.width ?? 0) * (size.height ?? 0),
              orientation: size.orientation,
            },
            deps.recognizer,
          ),
        });
        lines.push(...pageLines(reading.page));
      } catch (error) {
        errors.push(error instanceof Error ? error.message : String(error));
      }
    }
  } finally {
    await deps.recognizer.release();
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  const score = scoreLines(scorer, lines, truth.dishes, truth.currency);
  return {
    engine: name,
    ...score,
    seconds,
    cpuSeconds,
    pages: inputs.length,
    errors,
    text: lines.join('\n'),
  };
};

const pct = (a: number, b: number): string => (b ? `${Math.round((100 * a) / b)}%` : 'n/a');

const main = async (): Promise<void> => {
  if (!existsSync(join(MENUS, 'truth.json'))) {
    console.log(`bench:ocr-corpus skipped: no corpus at ${MENUS}`);
    return;
  }
  const scorer = (await import(pathToFileURL(join(MENUS, 'score.mjs')).href)) as Scorer;
  const truthAll = JSON.parse(readFileSync(join(MENUS, 'truth.json'), 'utf8')) as Record<string, TruthFile>;
  const engines = (option('engines') ?? Object.keys(ENGINES).join(',')).split(',') as OcrEngineName[];
  const only = option('only')?.split(',');
  const dump = option('dump');
  if (dump) mkdirSync(dump, { recursive: true });
  const rasterizer = new PdfPageRasterizer();
  const results: FileResult[] = [];
  for (const [file, truth] of Object.entries(truthAll)) {
    // OCR's files: images, scans, and PDFs whose dishes are drawn as outlines (no text to take).
    if (truth.kind === 'pdf' && truth.source_kind === 'text PDF') continue;
    if (only && !only.includes(file)) continue;
    const bytes = new Uint8Array(readFileSync(join(MENUS, 'fixtures', file)));
    const inputs = await ocrInputs(bytes, truth, rasterizer);
    const perEngine: EngineResult[] = [];
    for (const name of engines) {
      const result = await runEngine(name, inputs, truth, scorer);
      perEngine.push(result);
      if (dump) writeFileSync(join(dump, `${file}.${name}.txt`), `${result.text}\n`);
      if (!flag('json'))
        console.error(
          `${file} ${name}: names ${result.names}/${truth.dishes.length}, dishes ${result.dishes}/${truth.dishes.length}, ${(result.seconds / result.pages).toFixed(1)} s/page (CPU ${(result.cpuSeconds / result.pages).toFixed(1)} s)${result.errors.length ? ` errors: ${result.errors.join('; ')}` : ''}`,
        );
    }
    results.push({
      file,
      sourceKind: truth.source_kind,
      language: truth.language,
      total: truth.dishes.length,
      engines: perEngine,
    });
  }
  if (flag('json')) {
    console.log(
      JSON.stringify(
        results.map((r) => ({ ...r, engines: r.engines.map(({ text: _, ...e }) => e) })),
        null,
        1,
      ),
    );
    return;
  }
  const header = `| file | lang | dishes | ${engines.map((e) => `${e}: name / name+price / s per page (CPU s)`).join(' | ')} |`;
  console.log(header);
  console.log(
    `|${header
      .split('|')
      .slice(1, -1)
      .map(() => '---')
      .join('|')}|`,
  );
  for (const r of results)
    console.log(
      `| ${r.file} | ${r.language} | ${r.total} | ${r.engines
        .map(
          (e) =>
            `${pct(e.names, r.total)} / ${pct(e.dishes, r.total)} / ${(e.seconds / e.pages).toFixed(1)} (${(e.cpuSeconds / e.pages).toFixed(1)})`,
        )
        .join(' | ')} |`,
    );
  const total = results.reduce((s, r) => s + r.total, 0);
  const totals = engines.map((name) => {
    const of = results.map((r) => r.engines.find((e) => e.engine === name)!);
    const pages = of.reduce((s, e) => s + e.pages, 0);
    return {
      names: of.reduce((s, e) => s + e.names, 0),
      dishes: of.reduce((s, e) => s + e.dishes, 0),
      seconds: of.reduce((s, e) => s + e.seconds, 0) / Math.max(1, pages),
      cpuSeconds: of.reduce((s, e) => s + e.cpuSeconds, 0) / Math.max(1, pages),
    };
  });
  console.log(
    `| all | | ${total} | ${totals.map((t) => `${t.names}/${total} / ${t.dishes}/${total} / ${t.seconds.toFixed(1)} (${t.cpuSeconds.toFixed(1)})`).join(' | ')} |`,
  );
  const base = totals[0]!;
  for (const [i, t] of totals.entries())
    if (i > 0)
      console.log(
        `${engines[i]} vs ${engines[0]}: dishes (name + price) ${t.dishes} vs ${base.dishes} (×${(t.dishes / Math.max(1, base.dishes)).toFixed(2)}), seconds per page ×${(t.seconds / base.seconds).toFixed(2)}, CPU seconds per page ×${(t.cpuSeconds / base.cpuSeconds).toFixed(2)}`,
      );
};

await main();
