import {
  inkGaps,
  lineImage,
  normaliseLine,
  pageLines,
  sample,
} from '../../../lambdas/adapters/paddle/line-images';
import { decodeLines, recognitionBatch } from '../../../lambdas/adapters/paddle/line-recognition';
import { detectionInput, textBoxes } from '../../../lambdas/adapters/paddle/text-detection';
import { lineWords, parsePgm, wordGaps } from '../../../lambdas/adapters/paddle-recognizer';
import { toPgm } from '../../../lambdas/core/catalog/drafts/page-image';
import type { GrayImage } from '../../../lambdas/core/catalog/drafts/ports';

const gray = (width: number, height: number, at: (x: number, y: number) => number): GrayImage => {
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels[y * width + x] = at(x, y);
  return { width, height, pixels };
};

describe('Paddle text detection: boxes from the probability map (DB post-processing)', () => {
  const map = (
    width: number,
    height: number,
    regions: { x: number; y: number; w: number; h: number; p: number }[],
  ) => {
    const data = new Float32Array(width * height);
    for (const r of regions)
      for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) data[y * width + x] = r.p;
    return data;
  };

  it('gives one box per separate region, grown back by the unclip distance and scaled to the image', () => {
    // Two lines side by side (two columns) and one under them, on a map at half the image's size.
    const probabilities = map(64, 32, [
      { x: 4, y: 4, w: 20, h: 4, p: 0.9 },
      { x: 40, y: 4, w: 20, h: 4, p: 0.8 },
      { x: 4, y: 20, w: 30, h: 4, p: 0.95 },
    ]);
    const boxes = textBoxes(
      probabilities,
      { width: 64, height: 32, scaleX: 0.5, scaleY: 0.5 },
      { width: 128, height: 64 },
    );
    expect(boxes).toHaveLength(3);
    const [left, right, below] = boxes.sort((a, b) => a.y - b.y || a.x - b.x);
    // Unclip of a 20 × 4 region: 20 · 4 · 1.5 / (2 · 24) = 2.5 map pixels, 5 image pixels each side.
    expect(left).toMatchObject({ x: 3, y: 3, width: 50, height: 18 });
    expect(left!.score).toBeCloseTo(0.9);
    expect(right!.x).toBeGreaterThan(left!.x + left!.width);
    expect(below!.y).toBeGreaterThan(left!.y + left!.height - 1);
  });

  it('drops regions of low mean probability and specks thinner than three pixels', () => {
    const probabilities = map(64, 32, [
      { x: 4, y: 4, w: 20, h: 4, p: 0.45 },
      { x: 40, y: 4, w: 20, h: 2, p: 0.9 },
      { x: 4, y: 20, w: 30, h: 4, p: 0.9 },
    ]);
    const boxes = textBoxes(
      probabilities,
      { width: 64, height: 32, scaleX: 1, scaleY: 1 },
      { width: 64, height: 32 },
    );
    expect(boxes).toHaveLength(1);
    expect(boxes[0]!.y).toBeLessThan(20);
    expect(boxes[0]!.y + boxes[0]!.height).toBeGreaterThan(24);
  });

  it('scales the image to the pixel budget in multiples of 32, enlarging a small one at most as allowed', () => {
    const small = gray(100, 50, () => 255);
    const input = detectionInput(small, 1_000_000, 2);
    expect([input.width, input.height]).toEqual([192, 96]);
    expect(input.data).toHaveLength(192 * 96 * 3);
    // White, normalised by ImageNet's statistics per channel.
    expect(input.data[0]).toBeCloseTo((1 - 0.485) / 0.229);
    const large = detectionInput(
      gray(4000, 3000, () => 0),
      1_000_000,
      2,
    );
    expect(large.width * large.height).toBeLessThanOrEqual(1_100_000);
    expect(large.width % 32).toBe(0);
    expect(large.height % 32).toBe(0);
  });
});

describe('Paddle line images', () => {
  it('inverts light text on a dark ground and stretches the contrast to full range', () => {
    // A teal menu board: ground 60, letters 200 on a fifth of the pixels.
    const pixels = Uint8Array.from({ length: 100 }, (_, i) => (i % 5 === 0 ? 200 : 60));
    const { pixels: out, inverted } = normaliseLine(pixels);
    expect(inverted).toBe(true);
    expect(out[1]).toBe(255);
    expect(out[0]).toBe(0);
  });

  it('keeps dark text on light paper as it is, only stretched', () => {
    const pixels = Uint8Array.from({ length: 100 }, (_, i) => (i % 5 === 0 ? 90 : 180));
    const { pixels: out, inverted } = normaliseLine(pixels);
    expect(inverted).toBe(false);
    expect([out[0], out[1]]).toEqual([0, 255]);
  });

  it('cuts a box out at the recogniser height, its width in proportion, averaging when shrinking', () => {
    const page = gray(200, 100, (x) => (x < 100 ? 0 : 255));
    const line = lineImage(page, { x: 50, y: 10, width: 100, height: 20 }, 48, 2000);
    expect([line.width, line.height]).toEqual([240, 48]);
    const halves = sample(page, { x: 0, y: 0, width: 200, height: 100 }, 2, 1);
    expect([...halves]).toEqual([0, 255]);
    expect(lineImage(page, { x: 0, y: 0, width: 200, height: 4 }, 48, 300).width).toBe(300);
  });

  it("knows a page's line widths before cutting, and cuts each line once, when first asked for", () => {
    const page = gray(200, 100, (x, y) => (x + y) % 256);
    const boxes = [
      { x: 50, y: 10, width: 100, height: 20 },
      { x: 0, y: 0, width: 200, height: 4 },
    ];
    const lines = pageLines(page, boxes, 48, 300);
    expect(lines.count).toBe(2);
    expect([lines.width(0), lines.width(1)]).toEqual([240, 300]);
    const first = lines.image(0);
    expect(first).toEqual(lineImage(page, boxes[0]!, 48, 300));
    expect(lines.image(0)).toBe(first);
    expect(lines.image(1).width).toBe(lines.width(1));
  });
});

describe('Paddle recognition: CTC decoding', () => {
  const DICT = ['a', 'b', '4', '.', '5'];
  // Classes: 0 blank, 1..5 the dictionary, 6 space.
  const output = (steps: number[][], classes = 7) => {
    const data = new Float32Array(steps.length * classes);
    steps.forEach(([best, p], t) => {
      data[t * classes + best!] = p!;
    });
    return data;
  };

  it('drops blanks and repeats, keeps a letter repeated across a blank, reads the last class as a space', () => {
    const data = output([
      [1, 0.9],
      [1, 0.9],
      [0, 0.9],
      [1, 0.8],
      [6, 0.9],
      [3, 0.9],
      [4, 0.9],
      [5, 0.7],
    ]);
    const [line] = decodeLines(data, { steps: 8, classes: 7 }, DICT, [64], 64);
    expect(line!.chars.map((c) => c.char).join('')).toBe('aa 4.5');
    expect(line!.chars[0]!.at).toBeCloseTo(0.5 / 8);
    expect(line!.chars.at(-1)!.probability).toBeCloseTo(0.7);
  });

  it('ignores what the model emits over the padding of a shorter line in a batch', () => {
    const data = output([
      [1, 0.9],
      [2, 0.9],
      [3, 0.9],
      [4, 0.9],
    ]);
    const [line] = decodeLines(data, { steps: 4, classes: 7 }, DICT, [32], 64);
    expect(line!.chars.map((c) => c.char).join('')).toBe('ab');
  });

  it('pads a batch to its widest line with mid gray (0 once normalised)', () => {
    const batch = recognitionBatch([
      { width: 2, height: 48, pixels: new Uint8Array(96).fill(255) },
      { width: 1, height: 48, pixels: new Uint8Array(48).fill(0) },
    ]);
    expect(batch).toMatchObject({ width: 2, count: 2 });
    expect(batch.data[0]).toBe(1);
    const second = 3 * 48 * 2;
    expect([batch.data[second], batch.data[second + 1]]).toEqual([-1, 0]);
  });
});

describe('Paddle words placed in their line box', () => {
  const box = { x: 100, y: 50, width: 200, height: 30, score: 0.9 };
  const chars = (text: string, probability = 0.95) =>
    [...text].map((char, i) => ({ char, at: (i + 0.5) / text.length, probability }));

  it('splits the line at spaces and places each word along the box, with the line height', () => {
    const words = lineWords(box, { chars: chars('Soup 4.50') });
    expect(words.map((w) => w.text)).toEqual(['Soup', '4.50']);
    const [soup, price] = words;
    expect(soup!.x).toBeCloseTo(100);
    expect(price!.x + price!.width).toBeCloseTo(300);
    expect(price!.x).toBeGreaterThan(soup!.x + soup!.width - 1);
    expect(soup).toMatchObject({ y: 50, height: 30, lineHeight: 30 });
    expect(soup!.confidence).toBeCloseTo(0.95);
  });

  it('drops a line read with little confidence (a texture, a drawing)', () => {
    expect(lineWords(box, { chars: chars('xx%#', 0.3) })).toEqual([]);
    expect(lineWords(box, { chars: [] })).toEqual([]);
  });
});

describe('PGM handed over by read-image.ts', () => {
  it('reads back what toPgm wrote, and nothing that is not a binary PGM', () => {
    const image = gray(3, 2, (x, y) => x * 10 + y);
    expect(parsePgm(toPgm(image))).toEqual(image);
    expect(parsePgm(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeUndefined();
    expect(parsePgm(new TextEncoder().encode('P5\n3 2\n255\n12'))).toBeUndefined();
  });
});

describe('Paddle words: spaces the recogniser did not emit', () => {
  /**
   * A line image 48 px high, white, with letters drawn as black bars over the x-height band (rows 20–35)
   * at the given [from, to) columns; `arms` are bars over the capital band only (rows 10–19), as a T's arm.
   */
  const line = (width: number, letters: [number, number][], arms: [number, number][] = []): GrayImage =>
    gray(width, 48, (x, y) => {
      const inBody = y >= 20 && y < 36 && letters.some(([a, b]) => x >= a && x < b);
      const inArm = y >= 10 && y < 20 && arms.some(([a, b]) => x >= a && x < b);
      return inBody || inArm ? 0 : 255;
    });
  /** Letters 8 px wide with 3 px between them, from `x`; returns their columns and the end. */
  const word = (x: number, count: number): [number, number][] =>
    Array.from({ length: count }, (_, i) => [x + i * 11, x + i * 11 + 8] as [number, number]);

  it('finds the blank runs between letters and keeps as word gaps only those wide against the x-height', () => {
    // Two words of 5 and 4 letters, 12 px apart (0.75 x-height; letters are 3 px apart).
    const image = line(200, [...word(10, 5), ...word(10 + 5 * 11 - 3 + 12, 4)]);
    const { gaps, bodyHeight } = inkGaps(image);
    expect(bodyHeight).toBe(16);
    expect(gaps).toHaveLength(8);
    expect(wordGaps(image)).toEqual([{ from: 62 / 200, to: 74 / 200 }]);
  });

  it('finds a narrower word gap in print whose letters nearly touch (a blurred photo, tight type)', () => {
    // Letters 1 px apart, words 6 px apart (0.375 x-height, 6 times the letters' gap).
    const tight = (x: number, count: number): [number, number][] =>
      Array.from({ length: count }, (_, i) => [x + i * 9, x + i * 9 + 8] as [number, number]);
    const image = line(200, [...tight(10, 5), ...tight(10 + 5 * 9 - 1 + 6, 5)]);
    expect(wordGaps(image)).toEqual([{ from: 54 / 200, to: 60 / 200 }]);
    // Letters evenly 4 px apart (0.25 x-height): no space.
    const even = line(
      200,
      Array.from({ length: 10 }, (_, i) => [10 + i * 12, 18 + i * 12] as [number, number]),
    );
    expect(wordGaps(even)).toEqual([]);
  });

  it("does not take a capital's arm over the next letter, nor evenly wide letter spacing, for a space", () => {
    // A T whose arm reaches 6 px over the 10 px it leaves before the next letter's body.
    const capital = line(120, [[14, 18], ...word(28, 4)], [[8, 34]]);
    expect(wordGaps(capital)).toEqual([]);
    // Digits spaced 8 px apart (0.5 x-height, as wide as all of the line's gaps): no word gap.
    const digits = line(
      120,
      Array.from({ length: 5 }, (_, i) => [4 + i * 16, 12 + i * 16] as [number, number]),
    );
    expect(wordGaps(digits)).toEqual([]);
  });

  it('splits the read letters at the word gaps between them, each word ending where its gap starts', () => {
    const box = { x: 0, y: 0, width: 100, height: 20, score: 0.9 };
    // "Calamari" and "Fritti" run together, the m read a step late (its pitch twice the others').
    const at = [0.02, 0.06, 0.1, 0.14, 0.22, 0.26, 0.3, 0.34, 0.46, 0.5, 0.54, 0.58, 0.62, 0.66];
    const chars = [...'CalamariFritti'].map((char, i) => ({ char, at: at[i]!, probability: 0.9 }));
    const words = lineWords(box, { chars }, [{ from: 0.37, to: 0.43 }]);
    expect(words.map((w) => w.text)).toEqual(['Calamari', 'Fritti']);
    expect(words[0]!.x + words[0]!.width).toBeCloseTo(37);
    expect(words[1]!.x).toBeCloseTo(43);
    // Without a gap in the image the uneven steps are no space: one word.
    expect(lineWords(box, { chars }).map((w) => w.text)).toEqual(['CalamariFritti']);
  });

  it('keeps the spaces the recogniser read where the image shows no gap', () => {
    const box = { x: 0, y: 0, width: 100, height: 20, score: 0.9 };
    const chars = [...'du jour'].map((char, i) => ({ char, at: (i + 0.5) / 7, probability: 0.9 }));
    expect(lineWords(box, { chars }, []).map((w) => w.text)).toEqual(['du', 'jour']);
  });
});
