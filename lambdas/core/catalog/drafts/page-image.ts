import type { GrayImage, OcrPage, PhotoFormat, QuarterTurns } from './ports';
import { median } from './text-runs';

/**
 * The decisions taken on a photographed page before and between OCR reads (SPEC 5.2 drafts): which way up
 * its stored pixels are shown (EXIF orientation), at what size Tesseract reads it, whether a read is so weak
 * that the page is probably sideways or upside down, and which of two reads of one page to keep.
 *
 * Sizes: Tesseract reads best when a line of text is about 30 px high (x-height ~20 px, what 10 pt text
 * gives at 300 dpi); much smaller and letters merge or vanish, much larger and it slows down and splits
 * glyphs. A phone photo of a whole page is 12–50 MP, lines 40–100 px high: it is scaled down; a compressed
 * photo from a messaging app or a small screenshot is scaled up. Measured with `npm run bench:drafts`.
 */

/** Size of the first read: a letter or A4 page at ~300 dpi (a page photo usually fills the frame). */
export const FIRST_READ_PIXELS = 6_000_000;
/** Height of a text line (Tesseract's line box) the second read aims at, in pixels. */
export const TARGET_LINE_PX = 32;
/** Lines between these heights are read well enough: no second read. */
export const LINE_PX_READ_WELL: readonly [number, number] = [22, 56];
/** Upscaling past this blurs glyphs more than it helps. */
export const MAX_UPSCALE = 3;

/** How stored pixels become the picture as shown: mirrored left-right first, then turned clockwise. */
export interface Orientation {
  readonly quarterTurns: QuarterTurns;
  readonly mirrored: boolean;
}

/**
 * EXIF/TIFF Orientation (tag 0x0112, 1–8) as turns: 6 is what a phone held upright stores (pixels taken
 * landscape, shown turned 90° clockwise), 8 the other way, 3 upside down; 2, 4, 5 and 7 are mirrored
 * (front cameras). Anything else is 1 (as stored).
 */
export const orientationOf = (tag: number | undefined): Orientation => {
  switch (tag) {
    case 2:
      return { quarterTurns: 0, mirrored: true };
    case 3:
      return { quarterTurns: 2, mirrored: false };
    case 4:
      return { quarterTurns: 2, mirrored: true };
    case 5:
      return { quarterTurns: 3, mirrored: true };
    case 6:
      return { quarterTurns: 1, mirrored: false };
    case 7:
      return { quarterTurns: 1, mirrored: true };
    case 8:
      return { quarterTurns: 3, mirrored: false };
    default:
      return { quarterTurns: 0, mirrored: false };
  }
};

/** Formats Tesseract decodes itself (Leptonica): the bytes can go to the OCR as they are. */
export const OCR_NATIVE_FORMATS: readonly PhotoFormat[] = ['jpeg', 'png', 'webp'];

/**
 * Whether a photo must be decoded (and turned, scaled, straightened) before OCR, or goes to the engine as it
 * is: a format Tesseract does not read, an EXIF orientation other than upright (Tesseract ignores it), more
 * pixels than the first read takes (a 12 MP phone photo: read whole it takes twice the time and memory), or
 * an engine that does not straighten a slightly askew page itself (`straightensItself` false). A small
 * upright JPEG, PNG or WebP goes to Tesseract as it is: measured with `npm run bench:drafts`, Tesseract reads
 * those as well or better straight from the file (its own binarisation of the colour image).
 */
export const needsDecoding = (
  photo: {
    readonly format: PhotoFormat;
    readonly pixels: number;
    readonly orientation?: number;
  },
  engine: { readonly straightensItself?: boolean } = {},
): boolean =>
  engine.straightensItself === false ||
  !OCR_NATIVE_FORMATS.includes(photo.format) ||
  (photo.orientation !== undefined && photo.orientation !== 1) ||
  photo.pixels > FIRST_READ_PIXELS;

/** The size of a picture of `width` × `height` stored pixels once turned by `quarterTurns`. */
export const turnedSize = (
  size: { readonly width: number; readonly height: number },
  quarterTurns: QuarterTurns,
): { width: number; height: number } =>
  quarterTurns % 2 === 1
    ? { width: size.height, height: size.width }
    : { width: size.width, height: size.height };

/** The scale of the first read: big photos down to FIRST_READ_PIXELS, small ones as they are. */
export const firstReadScale = (size: { readonly width: number; readonly height: number }): number =>
  Math.min(1, Math.sqrt(FIRST_READ_PIXELS / Math.max(1, size.width * size.height)));

const letterCount = (text: string): number => text.replace(/[^\p{L}\p{N}]/gu, '').length;

/**
 * The height of the page's text lines as read, in pixels of the image read: the median line box of the
 * words read with some confidence. Undefined when too few were read to tell.
 */
export const textLineHeight = (page: OcrPage): number | undefined => {
  const heights = page.words
    .filter((w) => w.confidence >= 0.6 && letterCount(w.text) >= 2)
    .map((w) => w.height);
  return heights.length >= 5 ? median(heights) : undefined;
};

/**
 * The scale of a second read, when the first one's lines were outside LINE_PX_READ_WELL: the one that brings
 * them to TARGET_LINE_PX, within MAX_UPSCALE of the image's own size and `maxPixels`. Undefined when the
 * first read was at a good size, or when the better size is not within reach (or hardly different).
 */
export const secondReadScale = (
  size: { readonly width: number; readonly height: number },
  firstScale: number,
  lineHeight: number | undefined,
  maxPixels: number,
): number | undefined => {
  if (lineHeight === undefined || lineHeight <= 0) return undefined;
  if (lineHeight >= LINE_PX_READ_WELL[0] && lineHeight <= LINE_PX_READ_WELL[1]) return undefined;
  const ceiling = Math.min(MAX_UPSCALE, Math.sqrt(maxPixels / Math.max(1, size.width * size.height)));
  const scale = Math.min(ceiling, (firstScale * TARGET_LINE_PX) / lineHeight);
  const ratio = scale / firstScale;
  return ratio > 1.25 || ratio < 0.8 ? scale : undefined;
};

/** How much of a read is text the engine is sure of: letters and digits, all and with confidence ≥ 0.75. */
export interface ReadStrength {
  readonly letters: number;
  readonly confident: number;
}

export const readStrength = (page: OcrPage): ReadStrength => {
  let letters = 0;
  let confident = 0;
  for (const word of page.words) {
    const count = letterCount(word.text);
    letters += count;
    if (word.confidence >= 0.75) confident += count;
  }
  return { letters, confident };
};

/**
 * A read that found almost nothing it is sure of: a page read sideways gives a few scattered glyphs, upside
 * down a lot of text of little confidence. Such a page is worth an orientation check.
 */
export const isWeakRead = (strength: ReadStrength): boolean =>
  strength.confident < 40 || strength.confident < strength.letters * 0.3;

/** True when `candidate` read more text with confidence than `current` (ties keep `current`). */
export const readsBetter = (candidate: ReadStrength, current: ReadStrength, margin = 1): boolean =>
  candidate.confident > current.confident * margin;

/** Skews smaller than this are left to Tesseract, which straightens them itself. */
export const MIN_DESKEW_DEGREES = 0.5;
/** How much sharper the text rows must be at the found angle than level for the angle to be trusted. */
export const MIN_DESKEW_GAIN = 1.3;

/** Whether a found tilt is worth straightening before OCR. */
export const worthStraightening = (skew: { degrees: number; gain: number }): boolean =>
  Math.abs(skew.degrees) >= MIN_DESKEW_DEGREES && skew.gain >= MIN_DESKEW_GAIN;

/** A gray image as PGM (binary netpbm): what Tesseract's Leptonica reads fastest, nothing to compress. */
export const toPgm = (image: GrayImage): Uint8Array => {
  const header = new TextEncoder().encode(`P5\n${image.width} ${image.height}\n255\n`);
  const bytes = new Uint8Array(header.length + image.pixels.length);
  bytes.set(header);
  bytes.set(image.pixels, header.length);
  return bytes;
};
