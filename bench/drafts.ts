/**
 * `npm run bench:drafts`: how well menus are drafted from text PDFs and photos (SPEC 5.2 drafts, issue 12).
 *
 * Generates the corpus of test/fixtures/drafts/corpus.ts as text PDFs, clean photos (PNG, no tilt or noise),
 * rough photos (JPEG, 1.5° tilt, noise) and phone photos (test/fixtures/drafts/phone-photos.ts: the page on
 * a table, uneven light, defocus, a 12 MP frame stored landscape with an EXIF Orientation; askew, seen at
 * an angle, sideways with no tag, small and compressed, HEIC), drafts each through the same code the job
 * worker runs (draftSource with the tesseract.js, pdf.js and canvas adapters), and reports the share of
 * dishes drafted with the right name and every price right, and the seconds per page. Each photo is read
 * twice in the same run: `after`, with the image decoder (orientation, straightening, scaling, HEIC), and
 * `before`, without it (the bytes straight to Tesseract, as before the decoder existed; HEIC unreadable).
 * Goals: ≥ 90 % from text PDFs, ≥ 75 % from clean photos, ≤ 5 s per page. Also: the share of dishes filed
 * under their own section's heading, and the OCR reads per page (orientation detection counted as one).
 *
 *   npm run bench:drafts                          table
 *   npm run bench:drafts -- --json                one JSON document
 *   npm run bench:drafts -- --only=pdf,exif6      some of the kinds (KINDS below)
 *   npm run bench:drafts -- --menus=3             the first menus of the corpus only
 *   npm run bench:drafts -- --modes=after         one way of reading photos (before, after)
 *   npm run bench:drafts -- --verbose             the dishes each draft missed
 *   npm run bench:drafts -- --ocr=job-worker      the job worker's OCR (PaddleOCR, Tesseract for languages
 *                                                 Paddle cannot spell; shared/drafting.ts) instead of
 *                                                 Tesseract alone, the figures quoted before it
 *
 * Generated phone photos are kept in .local/bench-photos/ (they take seconds each to make). The HEIC kind
 * needs `heif-enc` (Debian: apt-get install libheif-examples) to make its files; without it it is skipped.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasImageDecoder } from '../lambdas/adapters/canvas-image-decoder';
import { PdfPageRasterizer } from '../lambdas/adapters/pdf-page-rasterizer';
import { TesseractRecognizer } from '../lambdas/adapters/tesseract-recognizer';
import type { DraftItem, TextRecognizer } from '../lambdas/core/catalog';
import { draftSource } from '../lambdas/core/catalog/drafts/read-draft';
import { defaultCurrency } from '../lambdas/core/catalog/money';
import { draftingAdapters } from '../lambdas/shared/drafting';
import { CORPUS } from '../test/fixtures/drafts/corpus';
import { expectedDishes, type MenuSpec, menuPdf, menuPhoto } from '../test/fixtures/drafts/menus';
import { type PhonePhotoOptions, phonePhoto } from '../test/fixtures/drafts/phone-photos';

type Mode = 'before' | 'after';

interface Kind {
  readonly name: string;
  readonly what: string;
  readonly make: (spec: MenuSpec, index: number) => Promise<Buffer | undefined>;
  readonly format: 'pdf' | 'image';
}

const CACHE = join(process.cwd(), '.local', 'bench-photos');

/** A phone photo of the menu, made once and kept in CACHE (JPEG, or HEIC through heif-enc). */
const phone =
  (name: string, options: PhonePhotoOptions, heic = false) =>
  async (spec: MenuSpec, index: number): Promise<Buffer | undefined> => {
    mkdirSync(CACHE, { recursive: true });
    const file = join(CACHE, `${spec.id}.${name}.${heic ? 'heic' : 'jpg'}`);
    if (existsSync(file)) return readFileSync(file);
    const jpeg = await phonePhoto(spec, { seed: index + 1, ...options });
    if (!heic) {
      writeFileSync(file, jpeg);
      return jpeg;
    }
    const source = join(CACHE, `${spec.id}.${name}.source.jpg`);
    writeFileSync(source, jpeg);
    try {
      // Quality 50: about what an iPhone writes (2–3 MB for 12 MP).
      execFileSync('heif-enc', ['-q', '50', '-o', file, source], { stdio: 'ignore' });
    } catch {
      return undefined;
    }
    return readFileSync(file);
  };

const KINDS: readonly Kind[] = [
  { name: 'pdf', what: 'text PDF', format: 'pdf', make: (spec) => menuPdf(spec) },
  {
    name: 'clean',
    what: 'PNG at 144 dpi, straight, no noise',
    format: 'image',
    make: (spec) => menuPhoto(spec, { format: 'png' }),
  },
  {
    name: 'rough',
    what: 'JPEG at 144 dpi, 1.5° tilt, noise',
    format: 'image',
    make: (spec, index) => menuPhoto(spec, { rotation: 1.5, noise: 50, seed: index + 1 }),
  },
  {
    name: 'upright12',
    what: '12 MP phone photo stored as shown (no EXIF tag), 1° askew',
    format: 'image',
    make: phone('upright12', { tilt: 1 }),
  },
  {
    name: 'exif6',
    what: '12 MP, stored landscape, EXIF 6 (Android, II), 2° askew',
    format: 'image',
    make: phone('exif6', { orientation: 6, byteOrder: 'II', tilt: 2 }),
  },
  {
    name: 'exif8',
    what: '12 MP, stored landscape, EXIF 8 (iPhone, MM), 1.5° askew the other way',
    format: 'image',
    make: phone('exif8', { orientation: 8, byteOrder: 'MM', tilt: -1.5 }),
  },
  {
    name: 'exif3',
    what: '12 MP, stored upside down, EXIF 3 (II)',
    format: 'image',
    make: phone('exif3', { orientation: 3, byteOrder: 'II', tilt: 0.5 }),
  },
  {
    name: 'askew',
    what: '12 MP, EXIF 6, the page lying 9° askew',
    format: 'image',
    make: phone('askew', { orientation: 6, tilt: 9 }),
  },
  {
    name: 'perspective',
    what: '12 MP, EXIF 6, seen at an angle (far edge 12% narrower), 2° askew',
    format: 'image',
    make: phone('perspective', { orientation: 6, keystone: 0.12, tilt: 2 }),
  },
  {
    name: 'sideways',
    what: '12 MP stored sideways with no EXIF tag (a site that stripped it)',
    format: 'image',
    make: phone('sideways', { untoldTurns: 1, tilt: 1 }),
  },
  {
    name: 'small',
    what: '1.9 MP (1200 × 1600), JPEG quality 70: a messaging app, 1° askew',
    format: 'image',
    make: phone('small', { megapixels: 1.9, quality: 70, tilt: 1, blur: 0.8 }),
  },
  {
    name: 'heic',
    what: '12 MP HEIC (heif-enc from the exif6-like frame, stored as shown)',
    format: 'image',
    make: phone('heic', { tilt: 2 }, true),
  },
];

interface Row {
  readonly menu: string;
  readonly kind: string;
  readonly mode: Mode;
  readonly dishes: number;
  readonly right: number;
  /** Dishes found under exactly their section's heading. */
  readonly categorised: number;
  readonly extra: number;
  readonly pages: number;
  readonly seconds: number;
  /** OCR reads, orientation detections included. */
  readonly reads: number;
  readonly missed: string[];
}

const normalise = (name: string): string =>
  name.normalize('NFC').toLowerCase().replace(/[’']/g, "'").replace(/\s+/g, ' ').trim();

/** A dish is right when a drafted item has its name and, variant by variant, its amounts. */
const score = (spec: MenuSpec, items: readonly DraftItem[]) => {
  const expected = expectedDishes(spec);
  const byName = new Map(items.map((i) => [normalise(i.name), i]));
  const missed: string[] = [];
  let right = 0;
  let categorised = 0;
  for (const dish of expected) {
    const item = byName.get(normalise(dish.name));
    if (item && normalise(item.categoryPath.join(' > ')) === normalise(dish.category)) categorised++;
    const amounts = item?.variants.map((v) =>
      v.pricing === 'variable' ? null : (v.price?.amount ?? 'none'),
    );
    if (item && JSON.stringify(amounts) === JSON.stringify(dish.amounts)) right++;
    else
      missed.push(
        `${dish.name} ${JSON.stringify(dish.amounts)} → ${item ? JSON.stringify(amounts) : 'not found'}`,
      );
  }
  const names = new Set(expected.map((d) => normalise(d.name)));
  return {
    right,
    categorised,
    dishes: expected.length,
    extra: items.filter((i) => !names.has(normalise(i.name))).length,
    missed,
  };
};

/** The recognizer, counting what is asked of it. */
const counting = (inner: TextRecognizer): TextRecognizer & { reads: number } => {
  const counted = {
    reads: 0,
    // What the engine does itself decides how pages are prepared for it (read-image.ts).
    ...(inner.scalesItself === undefined ? {} : { scalesItself: inner.scalesItself }),
    ...(inner.straightensItself === undefined ? {} : { straightensItself: inner.straightensItself }),
    recognize: (image: Uint8Array, options: Parameters<TextRecognizer['recognize']>[1]) => {
      counted.reads++;
      return inner.recognize(image, options);
    },
    detectOrientation: (image: Uint8Array, options: { timeoutMs: number }) => {
      counted.reads++;
      return inner.detectOrientation(image, options);
    },
    release: () => inner.release(),
  };
  return counted;
};

const option = (name: string): string[] | undefined =>
  process.argv
    .find((a) => a.startsWith(`--${name}=`))
    ?.slice(name.length + 3)
    .split(',');

const main = async (): Promise<void> => {
  const asJson = process.argv.includes('--json');
  const verbose = process.argv.includes('--verbose');
  const only = option('only');
  const kinds = KINDS.filter((k) => !only || only.includes(k.name));
  const modes = (option('modes') ?? ['after', 'before']) as Mode[];
  const menus = CORPUS.slice(0, Number(option('menus')?.[0] ?? CORPUS.length));
  const recognizer = counting(
    option('ocr')?.[0] === 'job-worker'
      ? draftingAdapters(process.cwd()).recognizer
      : new TesseractRecognizer({ moduleRoot: process.cwd() }),
  );
  const rasterizer = new PdfPageRasterizer();
  const decoder = new CanvasImageDecoder();
  const rows: Row[] = [];
  const skipped = new Set<string>();
  try {
    for (const [index, spec] of menus.entries()) {
      for (const kind of kinds) {
        const bytes = await kind.make(spec, index);
        if (!bytes) {
          skipped.add(kind.name);
          continue;
        }
        for (const mode of kind.format === 'pdf' ? (['after'] as Mode[]) : modes) {
          const readsBefore = recognizer.reads;
          const started = performance.now();
          const draft = await draftSource(
            {
              bytes,
              format: kind.format,
              source: `${spec.id}.${kind.name}`,
              sourceIndex: 0,
              language: spec.language,
              currency: defaultCurrency(spec.language),
            },
            mode === 'after' ? { recognizer, rasterizer, decoder } : { recognizer, rasterizer },
          );
          const seconds = (performance.now() - started) / 1000;
          rows.push({
            menu: spec.id,
            kind: kind.name,
            mode,
            pages: Math.max(1, draft.pages.length),
            seconds,
            reads: recognizer.reads - readsBefore,
            ...score(spec, draft.items),
          });
          if (!asJson) process.stderr.write('.');
        }
      }
    }
  } finally {
    await recognizer.release();
    await rasterizer.release();
  }
  const totals = kinds.flatMap((kind) =>
    modes.flatMap((mode) => {
      const of = rows.filter((r) => r.kind === kind.name && r.mode === mode);
      if (of.length === 0) return [];
      const dishes = of.reduce((s, r) => s + r.dishes, 0);
      const right = of.reduce((s, r) => s + r.right, 0);
      const pages = of.reduce((s, r) => s + r.pages, 0);
      const seconds = of.reduce((s, r) => s + r.seconds, 0);
      return [
        {
          kind: kind.name,
          mode: kind.format === 'pdf' ? ('text' as const) : mode,
          what: kind.what,
          menus: of.length,
          dishes,
          right,
          share: right / dishes,
          categorised: of.reduce((s, r) => s + r.categorised, 0) / dishes,
          extra: of.reduce((s, r) => s + r.extra, 0),
          pages,
          secondsPerPage: seconds / pages,
          slowestPage: Math.max(...of.map((r) => r.seconds / r.pages)),
          readsPerPage: of.reduce((s, r) => s + r.reads, 0) / pages,
        },
      ];
    }),
  );
  if (asJson) {
    console.log(JSON.stringify({ rows, totals, skipped: [...skipped] }, null, 2));
    return;
  }
  console.log('\n');
  console.log('menu                        kind         mode    right/dishes  extra  reads  s/page');
  for (const r of rows) {
    console.log(
      `${r.menu.padEnd(28)}${r.kind.padEnd(13)}${r.mode.padEnd(8)}${`${r.right}/${r.dishes}`.padStart(12)}${String(r.extra).padStart(7)}${String(r.reads).padStart(7)}${(r.seconds / r.pages).toFixed(2).padStart(8)}`,
    );
    if (verbose) for (const m of r.missed) console.log(`    missed: ${m}`);
  }
  console.log(
    '\nkind         mode    menus  dishes right   share  category  extra  reads/page  s/page  slowest page',
  );
  for (const t of totals) {
    console.log(
      `${t.kind.padEnd(13)}${t.mode.padEnd(8)}${String(t.menus).padStart(5)}${String(t.dishes).padStart(8)}${String(t.right).padStart(6)}${`${(t.share * 100).toFixed(1)}%`.padStart(8)}${`${(t.categorised * 100).toFixed(1)}%`.padStart(10)}${String(t.extra).padStart(7)}${t.readsPerPage.toFixed(1).padStart(12)}${t.secondsPerPage.toFixed(2).padStart(8)}${t.slowestPage.toFixed(2).padStart(14)}`,
    );
  }
  console.log('\nkinds:');
  for (const kind of kinds) console.log(`  ${kind.name.padEnd(12)} ${kind.what}`);
  for (const kind of skipped) console.log(`skipped ${kind}: heif-enc is not installed (libheif-examples)`);
};

await main();
