import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import type { InferenceSession } from 'onnxruntime-node';
import { CanvasImageDecoder } from '../../lambdas/adapters/canvas-image-decoder';
import { RecognitionThread } from '../../lambdas/adapters/paddle/recognition-thread';
import { PaddleRecognizer } from '../../lambdas/adapters/paddle-recognizer';
import { inStacksOf, TesseractRecognizer } from '../../lambdas/adapters/tesseract-recognizer';
import type { GrayImage, OcrPage } from '../../lambdas/core/catalog/drafts/ports';
import { OCR_ASSETS } from '../fixtures/onnx-models';

// Reading a page's lines on two threads at once (issue 23: seconds per page), with the real engines.
jest.setTimeout(180_000);

const root = process.cwd();
const require_ = createRequire(join(root, 'package.json'));
GlobalFonts.registerFromPath(
  join(dirname(require_.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans.ttf'),
  'line-readers-sans',
);
const sharing = availableParallelism() > 1;

/** A page of `rows` dish lines in two columns, black on white. */
const menuPage = (rows: readonly string[]): Uint8Array => {
  const canvas = createCanvas(1000, 60 + 34 * Math.ceil(rows.length / 2));
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.font = '17px line-readers-sans';
  g.textBaseline = 'top';
  g.fillStyle = '#111111';
  rows.forEach((text, i) => {
    g.fillText(text, i % 2 === 0 ? 30 : 530, 30 + 34 * Math.floor(i / 2));
  });
  return new Uint8Array(canvas.toBuffer('image/png'));
};

/** The page's words as text lines, top to bottom, left column first. */
const lineTexts = (page: OcrPage): string[] => {
  const rows = new Map<string, { x: number; y: number; text: string }[]>();
  for (const w of page.words) {
    const key = `${Math.round(w.y / 10)}:${w.x < 500 ? 0 : 1}`;
    rows.set(key, [...(rows.get(key) ?? []), w]);
  }
  return [...rows.values()]
    .map((r) => r.sort((a, b) => a.x - b.x))
    .sort((a, b) => a[0]!.y - b[0]!.y || a[0]!.x - b[0]!.x)
    .map((r) => r.map((w) => w.text).join(' '));
};

const english = Array.from(
  { length: 24 },
  (_, i) => `Dish number ${i + 1} with rice  ${(4 + i * 0.25).toFixed(2)}`,
);
const german = Array.from(
  { length: 30 },
  (_, i) =>
    `${['Käsespätzle', 'Weißwurst', 'Rösti', 'Grüner Salat'][i % 4]} Nr. ${i + 1}  ${(8 + i).toFixed(0)},50 €`,
);

describe('RecognitionThread: the recognition model on a worker thread', () => {
  const ortPath = require_.resolve('onnxruntime-node');
  const modelPath = join(OCR_ASSETS, 'ch_PP-OCRv4_rec_infer.onnx');
  const options = { graphOptimizationLevel: 'all', intraOpNumThreads: 1 } as const;

  it('gives what the same model gives on this thread, for each of several inputs', async () => {
    const ort = (await import(ortPath)) as typeof import('onnxruntime-node');
    const here = await ort.InferenceSession.create(modelPath, options as InferenceSession.SessionOptions);
    const thread = new RecognitionThread({ ortPath, model: modelPath, sessionOptions: options });
    try {
      for (const width of [96, 320]) {
        const input = Float32Array.from({ length: 3 * 48 * width }, (_, i) => Math.sin(i / 7) * 0.8);
        const expected = await here.run({
          [here.inputNames[0]!]: new ort.Tensor('float32', input.slice(), [1, 3, 48, width]),
        });
        const want = expected[here.outputNames[0]!]!;
        const outputs = await thread.run({ data: input, dims: [1, 3, 48, width] });
        expect(Object.keys(outputs)).toEqual(here.outputNames);
        const got = outputs[here.outputNames[0]!]!;
        expect(got.dims).toEqual(want.dims);
        const values = want.data as Float32Array;
        let largest = 0;
        for (let i = 0; i < values.length; i++)
          largest = Math.max(largest, Math.abs(values[i]! - got.data[i]!));
        expect(largest).toBeLessThan(1e-4);
      }
    } finally {
      await thread.terminate();
      await here.release();
    }
  });

  it('fails every run, and says it is broken, when its model cannot load; stopping it fails what waits', async () => {
    const thread = new RecognitionThread({
      ortPath,
      model: join(OCR_ASSETS, 'missing.onnx'),
      sessionOptions: options,
    });
    await expect(thread.run({ data: new Float32Array(3 * 48 * 32), dims: [1, 3, 48, 32] })).rejects.toThrow();
    expect(thread.broken).toBe(true);
    await expect(thread.run({ data: new Float32Array(3 * 48 * 32), dims: [1, 3, 48, 32] })).rejects.toThrow();
    await thread.terminate();

    const stopped = new RecognitionThread({ ortPath, model: modelPath, sessionOptions: options });
    const waiting = stopped.run({ data: new Float32Array(3 * 48 * 64), dims: [1, 3, 48, 64] });
    const stoppedRun = expect(waiting).rejects.toThrow(/stopped|exited/);
    await stopped.terminate();
    await stoppedRun;
  });
});

describe('PaddleRecognizer: a page of many lines read on two threads', () => {
  const read = async (patch?: () => jest.SpyInstance): Promise<{ lines: string[]; calls: number }> => {
    const spy = patch?.();
    const recognizer = new PaddleRecognizer({ moduleRoot: root, decoder: new CanvasImageDecoder() });
    try {
      const page = await recognizer.recognize(menuPage(english), { languages: ['eng'], timeoutMs: 120_000 });
      return { lines: lineTexts(page), calls: spy?.mock.calls.length ?? 0 };
    } finally {
      spy?.mockRestore();
      await recognizer.release();
    }
  };

  it('reads every line, whichever thread read it, and the same when the second thread fails', async () => {
    const shared = await read();
    expect(shared.lines).toHaveLength(24);
    for (const text of english) expect(shared.lines).toContainEqual(text.replace(/ {2}/, ' '));

    const failing = await read(() =>
      jest.spyOn(RecognitionThread.prototype, 'run').mockRejectedValue(new Error('the thread crashed')),
    );
    expect(failing.calls > 0).toBe(sharing);
    expect(failing.lines).toEqual(shared.lines);
  });
});

describe('TesseractRecognizer: many lines shared out between two workers', () => {
  /** One line image per text, dark on white, the way Paddle's detector hands lines over. */
  const lineImages = (rows: readonly string[]): GrayImage[] =>
    rows.map((row) => {
      const canvas = createCanvas(520, 34);
      const g = canvas.getContext('2d');
      g.fillStyle = '#ffffff';
      g.fillRect(0, 0, canvas.width, canvas.height);
      g.font = '18px line-readers-sans';
      g.textBaseline = 'middle';
      g.fillStyle = '#111111';
      g.fillText(row, 6, 17);
      const rgba = g.getImageData(0, 0, canvas.width, canvas.height).data;
      const pixels = new Uint8Array(canvas.width * canvas.height);
      for (let i = 0; i < pixels.length; i++) pixels[i] = rgba[i * 4]!;
      return { width: canvas.width, height: canvas.height, pixels };
    });
  const text = (line: { chars: readonly { char: string }[] }) =>
    line.chars
      .map((c) => c.char)
      .join('')
      .trim();

  it('stacks consecutive lines, as many a stack as the limit allows and as even in count as they can be', () => {
    const lines = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ width: i + 1, height: 1, pixels: new Uint8Array(i + 1) }));
    const counts = (n: number, size: number) => inStacksOf(lines(n), size).map((stack) => stack.length);
    expect(counts(100, 24)).toEqual([20, 20, 20, 20, 20]);
    expect(counts(25, 24)).toEqual([13, 12]);
    expect(counts(24, 24)).toEqual([24]);
    expect(counts(0, 24)).toEqual([]);
    expect(
      inStacksOf(lines(7), 3)
        .flat()
        .map((l) => l.width),
    ).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('reads each line back to its own place, and all of them when the second worker fails', async () => {
    const lines = lineImages(german);
    const tesseract = new TesseractRecognizer({ moduleRoot: root });
    try {
      const read = await tesseract.read(lines, { languages: ['deu'], timeoutMs: 120_000 });
      expect(read).toHaveLength(german.length);
      // Each line's own number and price, in its own place (30 lines: two stacks).
      read.forEach((line, i) => {
        expect(text(line)).toMatch(new RegExp(`Nr\\. ?${i + 1}\\b.*\\b${8 + i},50`));
      });
      expect(read.map(text).join(' ')).toMatch(/Käsespätzle.*Weißwurst.*Rösti.*Grüner Salat/);

      const failingWorker = {
        recognize: () => Promise.reject(new Error('the worker crashed')),
        terminate: async () => 0,
      };
      const helper = jest
        .spyOn(TesseractRecognizer.prototype as unknown as { helperFor: () => unknown }, 'helperFor')
        .mockReturnValue(Promise.resolve(failingWorker));
      try {
        const again = await tesseract.read(lines, { languages: ['deu'], timeoutMs: 120_000 });
        expect(helper).toHaveBeenCalled();
        expect(again.map(text)).toEqual(read.map(text));
      } finally {
        helper.mockRestore();
      }
    } finally {
      await tesseract.release();
    }
  });
});
