import type { GrayImage, PageRasterizer, TextRecognizer } from './ports';
import { backgroundLevel, drawPage, INK_CONTRAST, type PageText, textMask } from './text-coverage';
import { type Box, median, type TextRun } from './text-runs';

/**
 * Lines a text page draws but does not write (issue 23: "headings drawn as outlines make the page title
 * every dish's category"). A menu exported from a design tool often keeps its dishes as text and turns its
 * display-font headings into outlines: the text layer then holds every dish and none of the section
 * headings. The page is drawn, the ink outside the text layer's boxes is cut into bands shaped like lines of
 * text (as tall as a line of the page's text or a few times taller, wider than tall, as dense as letters
 * are), and each band alone is read by OCR. What OCR reads with confidence becomes a text run of the page,
 * so layout and drafting see the heading where it is drawn.
 *
 * Cheap where there is nothing to find: the drawing is one render of the page; OCR runs only on the bands
 * found, and a page with many bands (pictures, ornaments, a drawn page) is left as its text layer says.
 */

/** Size the page is drawn at to look for drawn lines (~100 dpi for a letter page: a line of text is ~15 px). */
export const SEARCH_PIXELS = 1_000_000;
/** Size the page is drawn at for OCR of the lines found (~200 dpi for a letter page). */
export const DRAWN_PIXELS = 4_000_000;
/** More candidate bands than this on a page: it is decorated or drawn, not a text page with a few headings. */
export const MAX_DRAWN_LINES = 12;
/** A band's height, in heights of the page's text lines: from a line of text to a display heading. */
const MIN_HEIGHT = 0.6;
const MAX_HEIGHT = 4;
/** Share of a band's box that is ink: letters are neither hairlines nor solid bars. */
const MIN_DENSITY = 0.05;
const MAX_DENSITY = 0.6;
/** Height of a line's ink as a share of its font size, with letters reaching below the line and without. */
const INK_WITH_DESCENDERS = 0.93;
const INK_CAPITALS_ONLY = 0.72;
/** OCR'd text kept only at this confidence or above (0–1), and only with letters in it. */
const MIN_CONFIDENCE = 0.7;

/**
 * Boxes (in pixels of `image`) of ink outside the text boxes of `text` that are shaped like lines of text
 * and share their rows with no text of the page nearby. Empty when there are more than MAX_DRAWN_LINES.
 */
export const drawnLineBoxes = (image: GrayImage, text: PageText): Box[] => {
  const { width, height, pixels } = image;
  if (text.runs.length === 0) return [];
  const sx = width / text.width;
  const sy = height / text.height;
  const lineHeight = median(text.runs.map((r) => r.height)) * sy;
  if (!(lineHeight > 0)) return [];
  const inText = textMask(image, text);
  const background = backgroundLevel(image);
  const outside = new Uint8Array(width * height);
  const rows = new Uint32Array(height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!inText[i] && Math.abs(pixels[i]! - background) >= INK_CONTRAST) {
        outside[i] = 1;
        rows[y]!++;
      }
    }
  }
  const bands = runsOf(rows, 2, Math.max(1, Math.round(lineHeight * 0.15)));
  const boxes: Box[] = [];
  for (const [y0, y1] of bands) {
    const bandHeight = y1 - y0;
    if (bandHeight < lineHeight * MIN_HEIGHT || bandHeight > lineHeight * MAX_HEIGHT) continue;
    const columns = new Uint32Array(width);
    for (let y = y0; y < y1; y++) for (let x = 0; x < width; x++) columns[x]! += outside[y * width + x]!;
    for (const [x0, x1] of runsOf(columns, 1, bandHeight)) {
      const box = tightBox(outside, width, x0, x1, y0, y1);
      if (!box) continue;
      const ink = countInk(outside, width, box);
      const density = ink / (box.width * box.height);
      if (box.height < lineHeight * MIN_HEIGHT || box.width < box.height * 1.2) continue;
      if (density < MIN_DENSITY || density > MAX_DENSITY) continue;
      if (sharesRowWithText(box, text, sx, sy)) continue;
      boxes.push(box);
      if (boxes.length > MAX_DRAWN_LINES) return [];
    }
  }
  return boxes;
};

/** Index ranges [start, end) where `counts` is at least `min`, joining ranges separated by `gap` or less. */
const runsOf = (counts: Uint32Array, min: number, gap: number): [number, number][] => {
  const runs: [number, number][] = [];
  let start = -1;
  let end = -1;
  for (let i = 0; i < counts.length; i++) {
    if (counts[i]! < min) continue;
    if (start >= 0 && i - end <= gap) end = i + 1;
    else {
      if (start >= 0) runs.push([start, end]);
      start = i;
      end = i + 1;
    }
  }
  if (start >= 0) runs.push([start, end]);
  return runs;
};

const tightBox = (
  mask: Uint8Array,
  width: number,
  x0: number,
  x1: number,
  y0: number,
  y1: number,
): Box | undefined => {
  let top = -1;
  let bottom = -1;
  for (let y = y0; y < y1; y++) {
    let any = false;
    for (let x = x0; x < x1 && !any; x++) any = mask[y * width + x] === 1;
    if (!any) continue;
    if (top < 0) top = y;
    bottom = y + 1;
  }
  return top < 0 ? undefined : { x: x0, y: top, width: x1 - x0, height: bottom - top };
};

const countInk = (mask: Uint8Array, width: number, box: Box): number => {
  let ink = 0;
  for (let y = box.y; y < box.y + box.height; y++)
    for (let x = box.x; x < box.x + box.width; x++) ink += mask[y * width + x]!;
  return ink;
};

/** True when a text run of the page sits on the box's rows near it (within three of its heights aside). */
const sharesRowWithText = (box: Box, text: PageText, sx: number, sy: number): boolean => {
  const top = (box.y + box.height * 0.2) / sy;
  const bottom = (box.y + box.height * 0.8) / sy;
  const left = (box.x - box.height * 3) / sx;
  const right = (box.x + box.width + box.height * 3) / sx;
  // Marks set beside a drawn heading (`Salate*`'s asterisk, a superscript number) do not count.
  return text.runs.some(
    (r) =>
      r.y < bottom &&
      r.y + r.height > top &&
      r.x < right &&
      r.x + r.width > left &&
      r.text.replace(/[^\p{L}\p{N}]/gu, '').length >= 2,
  );
};

/** The box of `image` (with a margin of half its height) as a binary PGM, which every recognizer reads. */
export const cropAsPgm = (image: GrayImage, box: Box): Uint8Array => {
  const margin = Math.round(box.height / 2);
  const x0 = Math.max(0, box.x - margin);
  const y0 = Math.max(0, box.y - margin);
  const x1 = Math.min(image.width, box.x + box.width + margin);
  const y1 = Math.min(image.height, box.y + box.height + margin);
  const header = new TextEncoder().encode(`P5\n${x1 - x0} ${y1 - y0}\n255\n`);
  const out = new Uint8Array(header.length + (x1 - x0) * (y1 - y0));
  out.set(header);
  for (let y = y0; y < y1; y++)
    out.set(
      image.pixels.subarray(y * image.width + x0, y * image.width + x1),
      header.length + (y - y0) * (x1 - x0),
    );
  return out;
};

export interface DrawnLineDeps {
  readonly rasterizer?: PageRasterizer;
  readonly recognizer?: TextRecognizer;
}

/**
 * The lines page `page` of `pdf` draws outside its text layer `text`, read by OCR, as text runs in the
 * page's units (an empty list when this runtime cannot draw or read, or nothing is found). A band
 * OCR cannot read, or reads without confidence, is left out: this only adds what the text layer lacks.
 */
export const readDrawnLines = async (
  pdf: Uint8Array,
  page: number,
  text: PageText,
  deps: DrawnLineDeps,
  options: { readonly languages: readonly string[]; readonly timeoutMs: number },
): Promise<TextRun[]> => {
  const { recognizer } = deps;
  if (!recognizer) return [];
  // Looked for on a small drawing (most pages have nothing to find), read on a larger one.
  const small = await drawPage(pdf, page, SEARCH_PIXELS, deps);
  if (!small) return [];
  const found = drawnLineBoxes(small, text);
  if (found.length === 0) return [];
  const image = await drawPage(pdf, page, DRAWN_PIXELS, deps);
  if (!image) return [];
  const grow = image.width / small.width;
  const sx = image.width / text.width;
  const sy = image.height / text.height;
  const runs: TextRun[] = [];
  for (const candidate of found) {
    const box = {
      x: Math.floor(candidate.x * grow),
      y: Math.floor(candidate.y * grow),
      width: Math.ceil(candidate.width * grow),
      height: Math.ceil(candidate.height * grow),
    };
    const read = await recognizer
      .recognize(cropAsPgm(image, box), { languages: options.languages, timeoutMs: options.timeoutMs })
      .catch(() => undefined);
    // Strokes read as `|` or `-` beside the letters are not words.
    const words = (read?.words ?? []).filter((w) => /[\p{L}\p{N}]/u.test(w.text));
    if (words.length === 0) continue;
    const said = [...words]
      .sort((a, b) => a.x - b.x)
      .map((w) => w.text.trim())
      .join(' ');
    const confidence = Math.min(...words.map((w) => w.confidence));
    if (confidence < MIN_CONFIDENCE || !/\p{L}{2}/u.test(said)) continue;
    // The ink's height is the letters' (capitals to descenders), not the font size: measured so, headings of
    // one size drawn with and without descenders (`Suppen`, `Salate`) come out one size.
    const size = box.height / (/[gjpqyßµ,;]/u.test(said) ? INK_WITH_DESCENDERS : INK_CAPITALS_ONLY);
    runs.push({
      text: said,
      x: box.x / sx,
      y: box.y / sy,
      width: box.width / sx,
      height: box.height / sy,
      page,
      fontSize: size / sy,
      bold: false,
      italic: false,
      confidence,
    });
  }
  return runs;
};
