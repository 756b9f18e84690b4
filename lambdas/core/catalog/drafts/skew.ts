import type { GrayImage } from './ports';

/**
 * How far a photographed page is tilted, from the text lines themselves (projection profiles): ink is
 * projected onto the vertical axis of the page turned by each candidate angle, and the angle whose profile
 * has the sharpest rows — text lines and the gaps between them — wins. Tesseract straightens a few degrees
 * itself; beyond about 6° its lines break up, which is what this is for (a menu photographed lying askew on
 * a table).
 */

/**
 * Math's functions as module constants: these loops run over millions of pixels, and where the code runs in
 * a vm context (Jest's test environment) each `Math` lookup in a loop goes through the context's global
 * object, 100 times slower than a constant (measured: 13 s instead of 0.45 s for a 6 MP detection input).
 */
const { floor, max, min, round } = Math;

export interface Skew {
  /** Clockwise tilt of the text lines, in degrees (turn the image by minus this to straighten it). */
  readonly degrees: number;
  /** How much sharper the rows are at that angle than at 0° (1: no better). */
  readonly gain: number;
}

/** Widest tilt looked for: beyond it a page is more likely turned by a quarter (orientation detection). */
export const MAX_SKEW_DEGREES = 20;

/** Most ink pixels used: an even sample of them is as good and keeps the search fast. */
const MAX_POINTS = 60_000;
/** Side of the square whose mean brightness a pixel is compared with (uneven light, a dark table). */
const WINDOW = 15;

/**
 * Ink: pixels clearly darker than their neighbourhood. Comparing with the local mean rather than one
 * threshold keeps shadows, a dark table around the page and pictures from counting as text.
 */
const inkPoints = (image: GrayImage): { xs: Float32Array; ys: Float32Array } => {
  const { width, height, pixels } = image;
  const integral = new Float64Array((width + 1) * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += pixels[y * width + x]!;
      integral[(y + 1) * (width + 1) + x + 1] = integral[y * (width + 1) + x + 1]! + row;
    }
  }
  const half = WINDOW >> 1;
  const ink: number[] = [];
  for (let y = 0; y < height; y++) {
    const top = max(0, y - half);
    const bottom = min(height, y + half + 1);
    for (let x = 0; x < width; x++) {
      const left = max(0, x - half);
      const right = min(width, x + half + 1);
      const sum =
        integral[bottom * (width + 1) + right]! -
        integral[top * (width + 1) + right]! -
        integral[bottom * (width + 1) + left]! +
        integral[top * (width + 1) + left]!;
      const mean = sum / ((bottom - top) * (right - left));
      if (pixels[y * width + x]! < mean * 0.8 - 8) ink.push(y * width + x);
    }
  }
  const step = max(1, ink.length / MAX_POINTS);
  const count = floor(ink.length / step);
  const xs = new Float32Array(count);
  const ys = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    const index = ink[floor(i * step)]!;
    xs[i] = (index % width) - width / 2;
    ys[i] = floor(index / width) - height / 2;
  }
  return { xs, ys };
};

/** Sharpness of the rows at `degrees`: the energy of the changes between neighbouring profile bins. */
const sharpness = (xs: Float32Array, ys: Float32Array, degrees: number, size: number): number => {
  const radians = (degrees * Math.PI) / 180;
  const sin = Math.sin(radians);
  const cos = Math.cos(radians);
  const bins = new Float64Array(size * 2 + 1);
  for (let i = 0; i < xs.length; i++) {
    const bin = round(ys[i]! * cos - xs[i]! * sin) + size;
    bins[bin]! += 1;
  }
  let energy = 0;
  for (let i = 1; i < bins.length; i++) energy += (bins[i]! - bins[i - 1]!) ** 2;
  return energy;
};

/**
 * The tilt of the text lines of a (small, gray) image of a page: a coarse search over ±MAX_SKEW_DEGREES in
 * 1° steps, refined to 0.1°. `gain` 1 with degrees 0 when the image has too little ink to tell.
 */
export const estimateSkew = (image: GrayImage): Skew => {
  const { xs, ys } = inkPoints(image);
  if (xs.length < 200) return { degrees: 0, gain: 1 };
  const size = Math.ceil(Math.hypot(image.width, image.height) / 2) + 1;
  const at = (degrees: number) => sharpness(xs, ys, degrees, size);
  const level = at(0);
  let best = { degrees: 0, score: level };
  for (let degrees = -MAX_SKEW_DEGREES; degrees <= MAX_SKEW_DEGREES; degrees += 1) {
    const score = at(degrees);
    if (score > best.score) best = { degrees, score };
  }
  const coarse = best.degrees;
  for (let degrees = coarse - 0.9; degrees <= coarse + 0.9; degrees += 0.1) {
    const score = at(degrees);
    if (score > best.score) best = { degrees: round(degrees * 10) / 10, score };
  }
  return { degrees: best.degrees, gain: level > 0 ? best.score / level : 1 };
};
