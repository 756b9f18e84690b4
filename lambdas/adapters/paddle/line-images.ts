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
 * covers when shrinking (no aliasing of thin strokes), bilinear when growing. Where each column and row
 * samples from is worked out once, not for every pixel (a page's lines are 10 million pixels).
 */
export const sample = (image: GrayImage, region: Region, width: number, height: number): Uint8Array => {
  const out = new Uint8Array(width * height);
  const fx = region.width / width;
  const fy = region.height / height;
  const p = image.pixels;
  const w = image.width;
  if (fx > 1 || fy > 1) {
    const xa = new Int32Array(width);
    const xb = new Int32Array(width);
    for (let x = 0; x < width; x++) {
      const sx0 = region.x + x * fx;
      xa[x] = max(0, floor(sx0));
      xb[x] = min(image.width, max(xa[x]! + 1, ceil(sx0 + fx)));
    }
    for (let y = 0; y < height; y++) {
      const sy0 = region.y + y * fy;
      const ya = max(0, floor(sy0));
      const yb = min(image.height, max(ya + 1, ceil(sy0 + fy)));
      for (let x = 0; x < width; x++) {
        const from = xa[x]!;
        const to = xb[x]!;
        let sum = 0;
        for (let yy = ya; yy < yb; yy++) for (let xx = from; xx < to; xx++) sum += p[yy * w + xx]!;
        const count = max(0, yb - ya) * max(0, to - from);
        out[y * width + x] = count ? sum / count : 255;
      }
    }
    return out;
  }
  const x0s = new Int32Array(width);
  const x1s = new Int32Array(width);
  const axs = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    const sx = max(0, min(image.width - 1, region.x + x * fx + fx / 2 - 0.5));
    x0s[x] = floor(sx);
    x1s[x] = min(image.width - 1, x0s[x]! + 1);
    axs[x] = sx - x0s[x]!;
  }
  for (let y = 0; y < height; y++) {
    const sy = max(0, min(image.height - 1, region.y + y * fy + fy / 2 - 0.5));
    const y0 = floor(sy);
    const y1 = min(image.height - 1, y0 + 1);
    const ay = sy - y0;
    const row0 = y0 * w;
    const row1 = y1 * w;
    for (let x = 0; x < width; x++) {
      const x0 = x0s[x]!;
      const x1 = x1s[x]!;
      const ax = axs[x]!;
      const top = p[row0 + x0]! * (1 - ax) + p[row0 + x1]! * ax;
      const bottom = p[row1 + x0]! * (1 - ax) + p[row1 + x1]! * ax;
      out[y * width + x] = top * (1 - ay) + bottom * ay;
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
  const level = new Uint8Array(256);
  for (let v = 0; v < 256; v++) {
    const stretched = max(0, min(255, ((v - low) * 255) / span));
    level[v] = inverted ? 255 - stretched : stretched;
  }
  const out = new Uint8Array(pixels.length);
  for (let i = 0; i < pixels.length; i++) out[i] = level[pixels[i]!]!;
  return { pixels: out, inverted };
};

/** The width of a text box cut out at `height` pixels high: in proportion, at most `maxWidth`. */
const lineWidth = (box: Region, height: number, maxWidth: number): number =>
  max(1, min(maxWidth, round((box.width * height) / max(1, box.height))));

/** A text box cut out at `height` pixels high (its width in proportion, at most `maxWidth`), normalised. */
export const lineImage = (image: GrayImage, box: Region, height: number, maxWidth: number): GrayImage => {
  const width = lineWidth(box, height, maxWidth);
  return { width, height, pixels: normaliseLine(sample(image, box, width, height)).pixels };
};

/** The line images of a page, each known by its width before it is cut. */
export interface LineImages {
  readonly count: number;
  width(line: number): number;
  image(line: number): GrayImage;
}

/**
 * The line images of `boxes` in `image` (lineImage), each cut when first asked for and kept: a page's lines
 * are cut as the readers take them, so the second reader starts on its first line at once instead of
 * waiting for the page's 500 to be cut (issue 23: seconds per page).
 */
export const pageLines = (
  image: GrayImage,
  boxes: readonly Region[],
  height: number,
  maxWidth: number,
): LineImages => {
  const cut: (GrayImage | undefined)[] = new Array(boxes.length);
  return {
    count: boxes.length,
    width: (i) => lineWidth(boxes[i]!, height, maxWidth),
    image: (i) => {
      cut[i] ??= lineImage(image, boxes[i]!, height, maxWidth);
      return cut[i];
    },
  };
};

/** Line images already cut, as LineImages. */
export const cutLines = (images: readonly GrayImage[]): LineImages => ({
  count: images.length,
  width: (i) => images[i]!.width,
  image: (i) => images[i]!,
});

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
