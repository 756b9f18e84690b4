import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import * as ort from 'onnxruntime-node';
import { CanvasImageDecoder } from '../../lambdas/adapters/canvas-image-decoder';
import { PaddleRecognizer } from '../../lambdas/adapters/paddle-recognizer';
import { TesseractRecognizer } from '../../lambdas/adapters/tesseract-recognizer';
import type { OcrPage } from '../../lambdas/core/catalog/drafts/ports';
import { draftingAdapters } from '../../lambdas/shared/drafting';

// The real engine on pictures drawn here: PaddleOCR's models on ONNX Runtime, Tesseract for other languages.
jest.setTimeout(120_000);

const root = process.cwd();
const fonts = join(
  createRequire(join(root, 'package.json')).resolve('dejavu-fonts-ttf/package.json'),
  '..',
  'ttf',
);
GlobalFonts.registerFromPath(join(fonts, 'DejaVuSans.ttf'), 'ocr-test-sans');

/** A small, low-resolution menu image: two columns, a light-on-dark banner (what a phone screenshot gives). */
const menuImage = (
  lines: { text: string; x: number; y: number; light?: boolean }[],
  width = 640,
  height = 320,
) => {
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#f4f1ea';
  g.fillRect(0, 0, width, height);
  g.font = '15px ocr-test-sans';
  g.textBaseline = 'top';
  for (const line of lines) {
    if (line.light) {
      g.fillStyle = '#163c3c';
      g.fillRect(line.x - 8, line.y - 6, g.measureText(line.text).width + 16, 28);
    }
    g.fillStyle = line.light ? '#f0f0f0' : '#1d1d1d';
    g.fillText(line.text, line.x, line.y);
  }
  return new Uint8Array(canvas.toBuffer('image/png'));
};

const lineTexts = (page: OcrPage): string[] => {
  const rows = new Map<string, { x: number; text: string }[]>();
  for (const w of page.words) {
    const key = `${Math.round(w.y)}:${Math.round(w.x / 320)}`;
    rows.set(key, [...(rows.get(key) ?? []), { x: w.x, text: w.text }]);
  }
  return [...rows.values()].map((r) =>
    r
      .sort((a, b) => a.x - b.x)
      .map((w) => w.text)
      .join(' '),
  );
};

describe('PaddleRecognizer (PP-OCRv4 on ONNX Runtime)', () => {
  const adapters = draftingAdapters(root);
  afterAll(() => adapters.recognizer.release());

  it('reads an English menu line by line, each column apart, prices with their decimal point, a light-on-dark heading', async () => {
    const image = menuImage([
      { text: 'STARTERS', x: 40, y: 30, light: true },
      { text: 'Tomato Soup  $4.50', x: 40, y: 90 },
      { text: 'Fish and Chips  $10.50', x: 360, y: 90 },
      { text: 'Green Salad  $6.25', x: 40, y: 150 },
      { text: 'Cheeseburger  $9.75', x: 360, y: 150 },
    ]);
    const page = await adapters.recognizer.recognize(image, { languages: ['eng'], timeoutMs: 60_000 });
    expect(page).toMatchObject({ width: 640, height: 320 });
    const text = lineTexts(page).join('\n');
    expect(text).toMatch(/STARTERS/);
    expect(text).toMatch(/Tomato Soup \$?4\.50/);
    expect(text).toMatch(/Fish and Chips \$?10\.50/);
    expect(text).toMatch(/Cheeseburger \$?9\.75/);
    // The two columns are not one line: every word of the right column starts right of the left column.
    const fish = page.words.find((w) => w.text === 'Fish')!;
    const tomato = page.words.find((w) => w.text === 'Tomato')!;
    expect(fish.x).toBeGreaterThan(300);
    expect(tomato.x).toBeLessThan(100);
    expect(Math.abs(fish.y - tomato.y)).toBeLessThan(10);
    for (const w of page.words) {
      expect(w.confidence).toBeGreaterThan(0);
      expect(w.confidence).toBeLessThanOrEqual(1);
      expect(w.x + w.width).toBeLessThanOrEqual(640.5);
    }
  });

  it("reads a German menu with Tesseract's German data on the lines Paddle finds: umlauts and ß, prices with a comma", async () => {
    const image = menuImage([
      { text: 'Käsespätzle mit Röstzwiebeln  12,50 €', x: 40, y: 60 },
      { text: 'Weißwurst mit süßem Senf  8,90 €', x: 40, y: 120 },
    ]);
    const page = await adapters.recognizer.recognize(image, { languages: ['deu'], timeoutMs: 60_000 });
    const text = lineTexts(page).join('\n');
    expect(text).toMatch(/Käsespätzle/);
    expect(text).toMatch(/Röstzwiebeln/);
    expect(text).toMatch(/12,50/);
    expect(text).toMatch(/Weißwurst/);
    expect(text).toMatch(/8,90/);
  });

  it("reads again with Paddle's recogniser the lines the language's reader doubts, keeping those it is sure of", async () => {
    const image = menuImage([
      { text: 'STARTERS', x: 40, y: 30, light: true },
      { text: 'Tomato Soup  $4.50', x: 40, y: 90 },
    ]);
    /** A reader doubtful of the first line (the heading: lines come top to bottom), sure of the others. */
    const reader = {
      read: async (lines: readonly unknown[]) =>
        lines.map((_, i) =>
          i > 0
            ? { chars: [...'Zuppa'].map((char, n) => ({ char, at: (n + 0.5) / 5, probability: 0.9 })) }
            : { chars: [{ char: '#', at: 0.5, probability: 0.2 }] },
        ),
      release: async () => undefined,
    };
    const recognizer = new PaddleRecognizer({
      moduleRoot: root,
      decoder: new CanvasImageDecoder(),
      lineReader: { reader, for: () => true },
    });
    try {
      const text = lineTexts(
        await recognizer.recognize(image, { languages: ['ita'], timeoutMs: 60_000 }),
      ).join('\n');
      expect(text).toMatch(/STARTERS/);
      // The sure reader's letters (placed along the line at its ink gaps), not Paddle's.
      expect(text.replace(/\s/g, '')).toMatch(/Zuppa/);
      expect(text).not.toMatch(/Tomato|#/);
    } finally {
      await recognizer.release();
    }
  });

  it('loads the models once for recognizers one after the other (the jobs of one process)', async () => {
    const image = menuImage([{ text: 'Tomato Soup  $4.50', x: 40, y: 60 }]);
    const first = new PaddleRecognizer({ moduleRoot: root, decoder: new CanvasImageDecoder() });
    await first.recognize(image, { languages: ['eng'], timeoutMs: 60_000 });
    await first.release();
    const create = jest.spyOn(ort.InferenceSession, 'create');
    const second = new PaddleRecognizer({ moduleRoot: root, decoder: new CanvasImageDecoder() });
    try {
      const page = await second.recognize(image, { languages: ['eng'], timeoutMs: 60_000 });
      expect(lineTexts(page).join(' ')).toMatch(/Tomato Soup \$?4\.50/);
      expect(create).not.toHaveBeenCalled();
    } finally {
      create.mockRestore();
      await second.release();
    }
  });

  it('reads whole pages with its fallback where ONNX Runtime cannot load', async () => {
    const tesseract = new TesseractRecognizer({ moduleRoot: root });
    const broken = new PaddleRecognizer({
      moduleRoot: '/nonexistent',
      decoder: new CanvasImageDecoder(),
      fallback: tesseract,
    });
    try {
      const page = await broken.recognize(menuImage([{ text: 'Tomato Soup  4.50', x: 40, y: 60 }]), {
        languages: ['eng'],
        timeoutMs: 60_000,
      });
      expect(lineTexts(page).join(' ')).toMatch(/Tomato/);
    } finally {
      await broken.release();
    }
  });

  it('fails as an unavailable engine, with no fallback, where the models cannot load', async () => {
    const broken = new PaddleRecognizer({ moduleRoot: '/nonexistent', decoder: new CanvasImageDecoder() });
    await expect(
      broken.recognize(menuImage([{ text: 'Soup', x: 40, y: 60 }]), {
        languages: ['eng'],
        timeoutMs: 10_000,
      }),
    ).rejects.toMatchObject({ name: 'OcrError', reason: 'unavailable' });
  });
});
