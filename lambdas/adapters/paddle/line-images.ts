import type { GrayImage } from '../../core/catalog';

/**
 * Line images cut out of a page for recognition: each detected text box scaled to the height the recogniser
 * reads, dark text on a light ground whatever the menu printed (light on dark: a blackboard, a screen), its
 * contrast stretched so that faded print and a photo's grey paper read like ink on white.
 */

/**
 * Math's functions as module constants: these loops run over millions of pixels, and where the code runs in
 * a vm context (Jest's test environment) each `Math` lookup in a loop goes through the context's global
 * object, 100 times slower than a constant (measured: 13 s instead of 0.45 s for a 6 MP detection input).
 */
const { ceil, floor, max, min, round } = Math;

export interface Region {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * `region` of `image` resampled to `width` × `height`: each output pixel the mean of the source pixels it
 * covers when shrinking (no aliasing of thin strokes), bilinear when growing.
 */
export const sample = (image: GrayImage, region: Region, width: number, height: number): Uint8Array => {
  const out = new Uint8Array(width * height);
  const fx = region.width / width;
  const fy = region.height / height;
  const p = image.pixels;
  const w = image.width;
  for (let y = 0; y < height; y++) {
    const sy0 = region.y + y * fy;
    for (let x = 0; x < width; x++) {
      const sx0 = region.x + x * fx;
      let value: number;
      if (fx > 1 || fy > 1) {
        const xa = max(0, floor(sx0));
        const ya = max(0, floor(sy0));
        const xb = min(image.width, max(xa + 1, ceil(sx0 + fx)));
        const yb = min(image.height, max(ya + 1, ceil(sy0 + fy)));
        let sum = 0;
        let count = 0;
        for (let yy = ya; yy < yb; yy++)
          for (let xx = xa; xx < xb; xx++) {
            sum += p[yy * w + xx]!;
            count++;
          }
        value = count ? sum / count : 255;
      } else {
        const sx = max(0, min(image.width - 1, sx0 + fx / 2 - 0.5));
        const sy = max(0, min(image.height - 1, sy0 + fy / 2 - 0.5));
        const x0 = floor(sx);
        const y0 = floor(sy);
        const x1 = min(image.width - 1, x0 + 1);
        const y1 = min(image.height - 1, y0 + 1);
        const ax = sx - x0;
        const ay = sy - y0;
        const top = p[y0 * w + x0]! * (1 - ax) + p[y0 * w + x1]! * ax;
        const bottom = p[y1 * w + x0]! * (1 - ax) + p[y1 * w + x1]! * ax;
        value = top * (1 - ay) + bottom * ay;
      }
      out[y * width + x] = value;
    }
  }
  return out;
};

/** Ranks of the darkest and lightest pixels that set the stretch: specks and glare do not. */
const LOW_RANK = 0.02;
const HIGH_RANK = 0.98;

/**
 * Dark on light, full contrast. The ground is what most of a line image is (text covers well under half of
 * its box): when the median is darker than the midpoint of the darkest and lightest pixels, the text is
 * light on a dark ground and the image is inverted. Then the 2nd–98th percentile range is stretched to 0–255.
 */
export const normaliseLine = (pixels: Uint8Array): { pixels: Uint8Array; inverted: boolean } => {
  const histogram = new Uint32Array(256);
  for (const v of pixels) histogram[v]!++;
  const rank = (share: number): number => {
    const target = share * pixels.length;
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += histogram[v]!;
      if (seen > target) return v;
    }
    return 255;
  };
  const low = rank(LOW_RANK);
  const high = rank(HIGH_RANK);
  const median = rank(0.5);
  const inverted = median < (low + high) / 2;
  const span = max(1, high - low);
  const out = new Uint8Array(pixels.length);
  for (let i = 0; i < pixels.length; i++) {
    const stretched = max(0, min(255, ((pixels[i]! - low) * 255) / span));
    out[i] = inverted ? 255 - stretched : stretched;
  }
  return { pixels: out, inverted };
};

/** A text box cut out at `height` pixels high (its width in proportion, at most `maxWidth`), normalised. */
export const lineImage = (image: GrayImage, box: Region, height: number, maxWidth: number): GrayImage => {
  const width = max(1, min(maxWidth, round((box.width * height) / max(1, box.height))));
  return { width, height, pixels: normaliseLine(sample(image, box, width, height)).pixels };
};

/** A line image's pixels darker than this are ink (it is normalised: dark text on white). */
const INK_LEVEL = 128;
/** A column or row holds ink when at least this many of its pixels are ink (one is a speck of noise). */
const MIN_INK_PIXELS = 2;
/** Rows holding at least this share of the busiest row's ink are the text's body (its x-height band). */
const BODY_ROW_SHARE = 0.35;
/** How far above the body (in body heights) the columns are looked at: capitals and ascenders. */
const ASCENDER_SHARE = 0.5;

/** A run of blank columns between two inked ones, 0–1 of the line image's width. */
export interface InkGap {
  readonly from: number;
  readonly to: number;
}

/**
 * The blank column runs between a line's letters (its ink gaps) and the height of its letters' body (the
 * x-height, in the image's pixels: the rows holding a good share of the ink). Only the body rows and half
 * a body above them are looked at, so that a neighbouring line's descenders cut into the box do not fill a
 * gap, while a capital's arm over the next letter does.
 */
export const inkGaps = (line: GrayImage): { gaps: InkGap[]; bodyHeight: number } => {
  const { width, height, pixels } = line;
  const rows = new Uint32Array(height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) if (pixels[y * width + x]! < INK_LEVEL) rows[y]!++;
  const busiest = max(0, ...rows);
  if (busiest < MIN_INK_PIXELS) return { gaps: [], bodyHeight: 0 };
  // The body: the band of consecutive busy rows around the busiest row.
  const peak = rows.indexOf(busiest);
  let top = peak;
  let bottom = peak;
  while (top > 0 && rows[top - 1]! >= busiest * BODY_ROW_SHARE) top--;
  while (bottom < height - 1 && rows[bottom + 1]! >= busiest * BODY_ROW_SHARE) bottom++;
  const body = bottom - top + 1;
  // Columns are looked at from half a body above it (a T's arm, an f's hook overhang the next letter's body).
  const from = max(0, top - round(body * ASCENDER_SHARE));
  const gaps: InkGap[] = [];
  let lastInk = -1;
  for (let x = 0; x < width; x++) {
    let ink = 0;
    for (let y = from; y <= bottom && ink < MIN_INK_PIXELS; y++)
      if (pixels[y * width + x]! < INK_LEVEL) ink++;
    if (ink < MIN_INK_PIXELS) continue;
    if (lastInk >= 0 && x - lastInk > 1) gaps.push({ from: (lastInk + 1) / width, to: x / width });
    lastInk = x;
  }
  return { gaps, bodyHeight: body };
};
