import type { GrayImage } from '../../core/catalog';
import { sample } from './line-images';

/**
 * Text detection with PaddleOCR's DB model (PP-OCRv4 det): the model gives each pixel the probability that
 * it is text, shrunk to the core of each text line; the post-processing here (PaddleOCR's DBPostProcess,
 * with axis-parallel boxes: the page is straightened before it is read) finds the connected regions above
 * BINARY_THRESHOLD, keeps those whose mean probability is at least BOX_THRESHOLD and grows each back by the
 * shrink the model was trained with (UNCLIP_RATIO). A box is one run of text of one line: words close
 * enough to be one phrase share a box, columns apart do not.
 */

/** A text line segment, in pixels of the image read. */
export interface TextBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  /** Mean text probability inside the region (0–1). */
  readonly score: number;
}

/** The detector's input as the model wants it: sides multiples of 32, the image scaled by `scale`. */
export interface DetectionInput {
  readonly data: Float32Array;
  readonly width: number;
  readonly height: number;
  /** Model pixels per image pixel, across and down. */
  readonly scaleX: number;
  readonly scaleY: number;
}

const BINARY_THRESHOLD = 0.3;
const BOX_THRESHOLD = 0.6;
const UNCLIP_RATIO = 1.5;
/** Regions thinner than this (model pixels) are specks. */
const MIN_SIDE = 3;
// ImageNet statistics the detector was trained with, per channel (the image is gray: the same value thrice).
const MEAN = [0.485, 0.456, 0.406] as const;
const STD = [0.229, 0.224, 0.225] as const;

/**
 * The image scaled for detection: to about `pixels` pixels (small images up to `maxUpscale` times, so that
 * small print is found), each side rounded to a multiple of 32.
 */
export const detectionInput = (image: GrayImage, pixels: number, maxUpscale: number): DetectionInput => {
  const scale = Math.min(maxUpscale, Math.sqrt(pixels / Math.max(1, image.width * image.height)));
  const width = Math.max(32, Math.round((image.width * scale) / 32) * 32);
  const height = Math.max(32, Math.round((image.height * scale) / 32) * 32);
  const plane = width * height;
  const data = new Float32Array(plane * 3);
  const gray = sample(image, { x: 0, y: 0, width: image.width, height: image.height }, width, height);
  // Each channel's value of each gray level, worked out once (2.5 million pixels a page).
  const levels = [0, 1, 2].map((c) =>
    Float32Array.from({ length: 256 }, (_, v) => (v / 255 - MEAN[c]!) / STD[c]!),
  );
  const [red, green, blue] = levels as [Float32Array, Float32Array, Float32Array];
  for (let i = 0; i < plane; i++) {
    const v = gray[i]!;
    data[i] = red[v]!;
    data[plane + i] = green[v]!;
    data[2 * plane + i] = blue[v]!;
  }
  return { data, width, height, scaleX: width / image.width, scaleY: height / image.height };
};

/**
 * The text boxes of a probability map (`width` × `height`, 0–1), in pixels of the image the input was
 * made from. Regions are 4-connected; each is grown by distance = area × UNCLIP_RATIO / perimeter, as
 * PaddleOCR's unclip does for a rectangle.
 */
export const textBoxes = (
  map: Float32Array,
  input: Pick<DetectionInput, 'width' | 'height' | 'scaleX' | 'scaleY'>,
  image: { readonly width: number; readonly height: number },
): TextBox[] => {
  const { width, height } = input;
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const boxes: TextBox[] = [];
  for (let start = 0; start < map.length; start++) {
    if (seen[start] || map[start]! <= BINARY_THRESHOLD) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let minX = width;
    let minY = height;
    let maxX = -1;
    let maxY = -1;
    let sum = 0;
    let count = 0;
    while (top > 0) {
      const i = stack[--top]!;
      const x = i % width;
      const y = (i - x) / width;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      sum += map[i]!;
      count++;
      if (x > 0 && !seen[i - 1] && map[i - 1]! > BINARY_THRESHOLD) {
        seen[i - 1] = 1;
        stack[top++] = i - 1;
      }
      if (x < width - 1 && !seen[i + 1] && map[i + 1]! > BINARY_THRESHOLD) {
        seen[i + 1] = 1;
        stack[top++] = i + 1;
      }
      if (y > 0 && !seen[i - width] && map[i - width]! > BINARY_THRESHOLD) {
        seen[i - width] = 1;
        stack[top++] = i - width;
      }
      if (y < height - 1 && !seen[i + width] && map[i + width]! > BINARY_THRESHOLD) {
        seen[i + width] = 1;
        stack[top++] = i + width;
      }
    }
    const w = maxX - minX + 1;
    const h = maxY - minY + 1;
    if (Math.min(w, h) < MIN_SIDE) continue;
    const score = sum / count;
    if (score < BOX_THRESHOLD) continue;
    const grow = (w * h * UNCLIP_RATIO) / (2 * (w + h));
    const x0 = Math.max(0, (minX - grow) / input.scaleX);
    const y0 = Math.max(0, (minY - grow) / input.scaleY);
    const x1 = Math.min(image.width, (maxX + 1 + grow) / input.scaleX);
    const y1 = Math.min(image.height, (maxY + 1 + grow) / input.scaleY);
    if (x1 - x0 < 2 || y1 - y0 < 2) continue;
    boxes.push({ x: x0, y: y0, width: x1 - x0, height: y1 - y0, score });
  }
  return boxes;
};
