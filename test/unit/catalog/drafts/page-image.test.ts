import type { OcrPage } from '../../../../lambdas/core/catalog';
import {
  FIRST_READ_PIXELS,
  firstReadScale,
  isWeakRead,
  MAX_UPSCALE,
  needsDecoding,
  orientationOf,
  readStrength,
  readsBetter,
  secondReadScale,
  TARGET_LINE_PX,
  textLineHeight,
  toPgm,
  turnedSize,
  worthStraightening,
} from '../../../../lambdas/core/catalog/drafts/page-image';

const words = (count: number, height: number, confidence = 0.9): OcrPage => ({
  width: 1000,
  height: 1000,
  words: Array.from({ length: count }, (_, i) => ({
    text: `Dish${i}`,
    x: 10,
    y: i * height * 1.5,
    width: 80,
    height,
    confidence,
    lineHeight: height,
  })),
});

describe('EXIF orientation', () => {
  it('turns 6 (a phone held upright) a quarter clockwise, 8 three quarters, 3 a half', () => {
    expect(orientationOf(6)).toEqual({ quarterTurns: 1, mirrored: false });
    expect(orientationOf(8)).toEqual({ quarterTurns: 3, mirrored: false });
    expect(orientationOf(3)).toEqual({ quarterTurns: 2, mirrored: false });
  });

  it('mirrors 2, 4, 5 and 7 (front cameras) and leaves 1, missing and nonsense values as stored', () => {
    expect([2, 4, 5, 7].map((tag) => orientationOf(tag).mirrored)).toEqual([true, true, true, true]);
    expect([2, 4, 5, 7].map((tag) => orientationOf(tag).quarterTurns)).toEqual([0, 2, 3, 1]);
    for (const tag of [1, undefined, 0, 9, 255])
      expect(orientationOf(tag)).toEqual({ quarterTurns: 0, mirrored: false });
  });

  it('swaps width and height for an odd number of quarter turns', () => {
    const stored = { width: 4032, height: 3024 };
    expect(turnedSize(stored, 1)).toEqual({ width: 3024, height: 4032 });
    expect(turnedSize(stored, 3)).toEqual({ width: 3024, height: 4032 });
    expect(turnedSize(stored, 2)).toEqual(stored);
    expect(turnedSize(stored, 0)).toEqual(stored);
  });
});

describe('which photos are decoded before OCR', () => {
  it('decodes a big photo, a turned one and a format Tesseract does not read; not a small upright JPEG', () => {
    expect(needsDecoding({ format: 'jpeg', pixels: 12e6 })).toBe(true);
    expect(needsDecoding({ format: 'jpeg', pixels: 1.9e6, orientation: 6 })).toBe(true);
    expect(needsDecoding({ format: 'jpeg', pixels: 1.9e6, orientation: 3 })).toBe(true);
    expect(needsDecoding({ format: 'heic', pixels: 1e6 })).toBe(true);
    expect(needsDecoding({ format: 'tiff', pixels: 1e6 })).toBe(true);
    expect(needsDecoding({ format: 'jpeg', pixels: 1.9e6, orientation: 1 })).toBe(false);
    expect(needsDecoding({ format: 'png', pixels: FIRST_READ_PIXELS })).toBe(false);
    expect(needsDecoding({ format: 'webp', pixels: 2e6 })).toBe(false);
  });

  it('decodes every photo for an engine that does not straighten an askew page itself', () => {
    expect(
      needsDecoding({ format: 'jpeg', pixels: 1.9e6, orientation: 1 }, { straightensItself: false }),
    ).toBe(true);
    expect(needsDecoding({ format: 'png', pixels: 0.3e6 }, { straightensItself: false })).toBe(true);
    expect(needsDecoding({ format: 'png', pixels: 0.3e6 }, { straightensItself: true })).toBe(false);
  });
});

describe('the size a photo is read at', () => {
  it('scales a 12 MP phone photo, and a 50 MP one, down to the first read size before any OCR', () => {
    for (const [width, height] of [
      [3024, 4032],
      [6120, 8160],
    ] as const) {
      const scale = firstReadScale({ width, height });
      expect(scale).toBeLessThan(1);
      const pixels = Math.round(width * scale) * Math.round(height * scale);
      expect(pixels).toBeLessThanOrEqual(FIRST_READ_PIXELS * 1.001);
      expect(pixels).toBeGreaterThan(FIRST_READ_PIXELS * 0.99);
    }
  });

  it('leaves a small photo at its own size for the first read', () => {
    expect(firstReadScale({ width: 1200, height: 1600 })).toBe(1);
    expect(firstReadScale({ width: 0, height: 0 })).toBe(1);
  });

  it('reads again only when the lines were too small or too large, aiming at the target line height', () => {
    const size = { width: 3024, height: 4032 };
    const first = firstReadScale(size);
    expect(secondReadScale(size, first, 32, 16e6)).toBeUndefined();
    expect(secondReadScale(size, first, undefined, 16e6)).toBeUndefined();
    // Lines of 80 px: read again smaller, at the scale that makes them TARGET_LINE_PX.
    expect(secondReadScale(size, first, 80, 16e6)).toBeCloseTo((first * TARGET_LINE_PX) / 80, 6);
    // Lines of 12 px on a small photo: larger, but never more than MAX_UPSCALE of its own size.
    const small = { width: 600, height: 800 };
    expect(secondReadScale(small, 1, 12, 16e6)).toBeCloseTo(Math.min(MAX_UPSCALE, TARGET_LINE_PX / 12), 6);
    expect(secondReadScale(small, 1, 4, 16e6)).toBe(MAX_UPSCALE);
  });

  it('never asks for more pixels than the OCR limit, and skips a second read that would hardly differ', () => {
    const size = { width: 3024, height: 4032 };
    const scale = secondReadScale(size, 0.7, 12, 16e6)!;
    expect(size.width * scale * size.height * scale).toBeLessThanOrEqual(16e6 * 1.0001);
    // The limit leaves no room to grow: no second read at all.
    expect(secondReadScale(size, 0.7, 20, size.width * size.height * 0.5)).toBeUndefined();
  });

  it('measures the line height from confident words only, and not from a handful', () => {
    expect(textLineHeight(words(10, 40))).toBe(40);
    expect(textLineHeight(words(4, 40))).toBeUndefined();
    expect(textLineHeight(words(10, 40, 0.3))).toBeUndefined();
  });
});

describe('telling a page read the wrong way up', () => {
  it('calls a read weak when little is confident, and a clearly better read better', () => {
    const strong = readStrength(words(20, 30, 0.95));
    const weak = readStrength(words(20, 30, 0.4));
    expect(strong.confident).toBe(strong.letters);
    expect(isWeakRead(strong)).toBe(false);
    expect(isWeakRead(weak)).toBe(true);
    expect(isWeakRead(readStrength(words(3, 30, 0.95)))).toBe(true);
    expect(readsBetter(strong, weak)).toBe(true);
    expect(readsBetter(weak, strong)).toBe(false);
    expect(readsBetter(strong, strong)).toBe(false);
    expect(readsBetter(strong, strong, 0.9)).toBe(true);
  });

  it('straightens only a tilt that is both large enough and clearly found', () => {
    expect(worthStraightening({ degrees: 4, gain: 2 })).toBe(true);
    expect(worthStraightening({ degrees: -4, gain: 2 })).toBe(true);
    expect(worthStraightening({ degrees: 0.2, gain: 2 })).toBe(false);
    expect(worthStraightening({ degrees: 4, gain: 1.05 })).toBe(false);
  });
});

it('writes a gray image as binary PGM', () => {
  const pgm = toPgm({ width: 2, height: 1, pixels: Uint8Array.from([0, 255]) });
  expect(Buffer.from(pgm).toString('latin1')).toBe('P5\n2 1\n255\n\x00\xff');
});
