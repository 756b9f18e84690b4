/**
 * `npm run bench:ocr-cold-start`: what the job worker's OCR costs on its first page after a cold start
 * (ONNX Runtime and the PaddleOCR models loaded, Tesseract's worker started for a language) against a warm
 * page, in this fresh process: a menu page drawn here (English, then German), read twice each.
 *
 *   npm run bench:ocr-cold-start
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { draftingAdapters } from '../lambdas/shared/drafting';

const root = process.cwd();
const fonts = join(
  createRequire(join(root, 'package.json')).resolve('dejavu-fonts-ttf/package.json'),
  '..',
  'ttf',
);
GlobalFonts.registerFromPath(join(fonts, 'DejaVuSans.ttf'), 'bench-sans');

const page = (lines: readonly string[]): Uint8Array => {
  const canvas = createCanvas(1275, 1650);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = '#111111';
  g.font = '28px bench-sans';
  g.textBaseline = 'top';
  lines.forEach((line, i) => {
    g.fillText(line, 100, 100 + i * 60);
  });
  return new Uint8Array(canvas.toBuffer('image/png'));
};

const english = page(
  Array.from({ length: 20 }, (_, i) => `Dish number ${i + 1} with a side salad   ${4 + i}.50`),
);
const german = page(
  Array.from({ length: 20 }, (_, i) => `Gericht ${i + 1} mit Röstkartoffeln   ${4 + i},50 €`),
);

const started = performance.now();
const { recognizer } = draftingAdapters(root);
const time = async (image: Uint8Array, languages: string[]): Promise<number> => {
  const t0 = performance.now();
  await recognizer.recognize(image, { languages, timeoutMs: 300_000 });
  return (performance.now() - t0) / 1000;
};
const rows = [
  ['English, cold (models load)', await time(english, ['eng'])],
  ['English, warm', await time(english, ['eng'])],
  ['German, cold (Tesseract worker starts)', await time(german, ['deu'])],
  ['German, warm', await time(german, ['deu'])],
] as const;
await recognizer.release();
for (const [what, seconds] of rows) console.log(`${what.padEnd(40)} ${seconds.toFixed(2)} s`);
console.log(
  `cold English page / warm: ×${(rows[0][1] / rows[1][1]).toFixed(2)}; total ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
