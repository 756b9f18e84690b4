import type { GrayImage, PageRasterizer } from './ports';
import type { TextRun } from './text-runs';

/**
 * Whether a PDF page's text layer holds what the page shows (issue 23: the text layer is not trusted
 * blindly). A menu exported with its dishes drawn as outlines keeps a few real words (the restaurant's name
 * and address) and draws everything else: the text layer has enough letters to pass for a text page, and
 * the dishes are never read. Such a page is drawn small, and its ink compared with the text layer's boxes:
 * when most of it lies outside them, the page is read by OCR instead.
 *
 * Only pages whose text covers little of the page are drawn (a page full of text is what it says), so a
 * text PDF costs no drawing at all.
 */

/** Pages whose text boxes cover less than this share of the page are checked. */
export const SPARSE_TEXT_AREA = 0.06;
/** Size of the drawing the ink is measured on: enough to see lines of small print, fast to draw. */
export const COVERAGE_PIXELS = 1_000_000;
/** The text layer misses the page when this share of the page's ink (or more) lies outside its boxes… */
export const MISSED_INK_SHARE = 0.75;
/** …and that ink covers at least this share of the page (a logo or a rule is not a menu). */
export const MISSED_INK_AREA = 0.02;
/** Text boxes are widened by this much of their height (ascenders, descenders, anti-aliasing). */
const BOX_PADDING = 0.35;

export interface PageText {
  readonly runs: readonly TextRun[];
  readonly width: number;
  readonly height: number;
}

/** How much of a drawn page is ink, and how much of that ink lies outside the text layer's boxes. */
export interface InkCoverage {
  /** Share of the page's pixels that are ink. */
  readonly ink: number;
  /** Share of the ink outside every text box. */
  readonly outside: number;
}

/**
 * The ink of `image` (the page drawn, any size) against the text boxes of `text` (in page units). Ink is
 * what differs clearly from the page's background (its median gray), so that light text on a dark page
 * counts too.
 */
export const inkCoverage = (image: GrayImage, text: PageText): InkCoverage => {
  const { pixels } = image;
  const inText = textMask(image, text);
  const background = backgroundLevel(image);
  let ink = 0;
  let outside = 0;
  for (let i = 0; i < pixels.length; i++) {
    if (Math.abs(pixels[i]! - background) < INK_CONTRAST) continue;
    ink++;
    if (!inText[i]) outside++;
  }
  return { ink: ink / Math.max(1, pixels.length), outside: ink === 0 ? 0 : outside / ink };
};

/** A pixel is ink when its gray differs from the page's background by this much or more. */
export const INK_CONTRAST = 80;

/** One byte a pixel of `image`: 1 inside a text run's box (widened a little), else 0. */
export const textMask = (image: GrayImage, text: PageText): Uint8Array => {
  const { width, height } = image;
  const sx = width / text.width;
  const sy = height / text.height;
  const inText = new Uint8Array(width * height);
  for (const run of text.runs) {
    const pad = run.height * BOX_PADDING;
    const x0 = Math.max(0, Math.floor((run.x - pad) * sx));
    const x1 = Math.min(width, Math.ceil((run.x + run.width + pad) * sx));
    const y0 = Math.max(0, Math.floor((run.y - pad) * sy));
    const y1 = Math.min(height, Math.ceil((run.y + run.height + pad) * sy));
    for (let y = y0; y < y1; y++) inText.fill(1, y * width + x0, y * width + x1);
  }
  return inText;
};

/** The page's background gray: its median (light text on a dark page has a dark background). */
export const backgroundLevel = (image: GrayImage): number => {
  const histogram = new Uint32Array(256);
  for (const p of image.pixels) histogram[p]!++;
  let background = 0;
  for (
    let seen = 0;
    background < 255 && seen + histogram[background]! < image.pixels.length / 2;
    background++
  )
    seen += histogram[background]!;
  return background;
};

/**
 * Page `page` of `pdf` drawn at most `maxPixels` large, in gray levels; undefined when this runtime cannot
 * draw it (or the page cannot be drawn).
 */
export const drawPage = (
  pdf: Uint8Array,
  page: number,
  maxPixels: number,
  deps: { readonly rasterizer?: PageRasterizer },
): Promise<GrayImage | undefined> =>
  deps.rasterizer?.rasterize(pdf, page, { maxPixels }).catch(() => undefined) ?? Promise.resolve(undefined);

/** Share of the page its text runs' boxes cover. */
const textArea = (text: PageText): number =>
  text.runs.reduce((sum, r) => sum + r.width * r.height, 0) / Math.max(1, text.width * text.height);

/**
 * True when the page's text layer misses most of what is drawn (dishes drawn as outlines): the page should
 * be read by OCR. False when its text covers the page, or when it cannot be drawn here.
 */
export const textLayerMissesInk = async (
  pdf: Uint8Array,
  page: number,
  text: PageText,
  deps: { readonly rasterizer?: PageRasterizer },
): Promise<boolean> => {
  if (textArea(text) >= SPARSE_TEXT_AREA) return false;
  const image = await drawPage(pdf, page, COVERAGE_PIXELS, deps);
  if (!image) return false;
  const coverage = inkCoverage(image, text);
  return coverage.outside >= MISSED_INK_SHARE && coverage.ink * coverage.outside >= MISSED_INK_AREA;
};
