/**
 * `npm run bench:drafts`: how well menus are drafted from text PDFs and photos (SPEC 5.2 drafts, issue 12).
 *
 * Generates the corpus of test/fixtures/drafts/corpus.ts as text PDFs, clean photos (PNG, no tilt or noise)
 * and rough photos (JPEG, 1.5° tilt, noise), drafts each through the same code the job worker runs
 * (draftSource with the tesseract.js and pdf.js adapters), and reports the share of dishes drafted with the
 * right name and every price right, and the seconds per page. Goals: ≥ 90 % from text PDFs, ≥ 75 % from
 * clean photos, ≤ 5 s per page. Also: the share of dishes filed under their own section's heading.
 *
 *   npm run bench:drafts              table
 *   npm run bench:drafts -- --json    one JSON document
 *   npm run bench:drafts -- --only=pdf,clean   some of the kinds (pdf, clean, rough)
 *   npm run bench:drafts -- --verbose the dishes each draft missed
 */
import { PdfPageRasterizer } from '../lambdas/adapters/pdf-page-rasterizer';
import { TesseractRecognizer } from '../lambdas/adapters/tesseract-recognizer';
import type { DraftItem } from '../lambdas/core/catalog/drafts/draft-item';
import { draftSource } from '../lambdas/core/catalog/drafts/read-draft';
import { defaultCurrency } from '../lambdas/core/catalog/money';
import { CORPUS } from '../test/fixtures/drafts/corpus';
import { expectedDishes, type MenuSpec, menuPdf, menuPhoto } from '../test/fixtures/drafts/menus';

type Kind = 'pdf' | 'clean' | 'rough';

interface Row {
  readonly menu: string;
  readonly kind: Kind;
  readonly dishes: number;
  readonly right: number;
  /** Dishes found under exactly their section's heading. */
  readonly categorised: number;
  readonly extra: number;
  readonly pages: number;
  readonly seconds: number;
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

const main = async (): Promise<void> => {
  const asJson = process.argv.includes('--json');
  const verbose = process.argv.includes('--verbose');
  const only = process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice(7)
    .split(',') as Kind[] | undefined;
  const kinds: Kind[] = only ?? ['pdf', 'clean', 'rough'];
  const recognizer = new TesseractRecognizer({ moduleRoot: process.cwd() });
  const rasterizer = new PdfPageRasterizer();
  const rows: Row[] = [];
  try {
    for (const [index, spec] of CORPUS.entries()) {
      for (const kind of kinds) {
        const bytes =
          kind === 'pdf'
            ? await menuPdf(spec)
            : await menuPhoto(
                spec,
                kind === 'clean' ? { format: 'png' } : { rotation: 1.5, noise: 50, seed: index + 1 },
              );
        const started = performance.now();
        const draft = await draftSource(
          {
            bytes,
            format: kind === 'pdf' ? 'pdf' : 'image',
            source: `${spec.id}.${kind}`,
            sourceIndex: 0,
            language: spec.language,
            currency: defaultCurrency(spec.language),
          },
          { recognizer, rasterizer },
        );
        const seconds = (performance.now() - started) / 1000;
        rows.push({
          menu: spec.id,
          kind,
          pages: Math.max(1, draft.pages.length),
          seconds,
          ...score(spec, draft.items),
        });
        if (!asJson) process.stderr.write('.');
      }
    }
  } finally {
    await recognizer.release();
    await rasterizer.release();
  }
  const totals = kinds.map((kind) => {
    const of = rows.filter((r) => r.kind === kind);
    const dishes = of.reduce((s, r) => s + r.dishes, 0);
    const right = of.reduce((s, r) => s + r.right, 0);
    const pages = of.reduce((s, r) => s + r.pages, 0);
    const seconds = of.reduce((s, r) => s + r.seconds, 0);
    return {
      kind,
      menus: of.length,
      dishes,
      right,
      share: right / dishes,
      categorised: of.reduce((s, r) => s + r.categorised, 0) / dishes,
      extra: of.reduce((s, r) => s + r.extra, 0),
      pages,
      secondsPerPage: seconds / pages,
      slowestPage: Math.max(...of.map((r) => r.seconds / r.pages)),
    };
  });
  if (asJson) {
    console.log(JSON.stringify({ rows, totals }, null, 2));
    return;
  }
  console.log('\n');
  console.log('menu                        kind    right/dishes  extra  pages  s/page');
  for (const r of rows) {
    console.log(
      `${r.menu.padEnd(28)}${r.kind.padEnd(8)}${`${r.right}/${r.dishes}`.padStart(12)}${String(r.extra).padStart(7)}${String(r.pages).padStart(7)}${(r.seconds / r.pages).toFixed(2).padStart(8)}`,
    );
    if (verbose) for (const m of r.missed) console.log(`    missed: ${m}`);
  }
  console.log('\nkind    menus  dishes right   share  category  extra  s/page  slowest page');
  for (const t of totals) {
    console.log(
      `${t.kind.padEnd(8)}${String(t.menus).padStart(5)}${String(t.dishes).padStart(8)}${String(t.right).padStart(6)}${`${(t.share * 100).toFixed(1)}%`.padStart(8)}${`${(t.categorised * 100).toFixed(1)}%`.padStart(10)}${String(t.extra).padStart(7)}${t.secondsPerPage.toFixed(2).padStart(8)}${t.slowestPage.toFixed(2).padStart(13)}`,
    );
  }
};

await main();
