import { imageSize } from 'image-size';
import type { Language } from '../../schemas/job';
import { sniffPhotoFormat } from '../sources/signatures';
import type { DraftResult, DraftWarning } from './draft-result';
import { readDrawnLines } from './drawn-lines';
import { rebuildLines } from './layout';
import { readLinePrices } from './line-prices';
import { draftMenu } from './menu-draft';
import { ocrLanguages, ocrRuns } from './ocr';
import { rebuildPageLines } from './ocr-columns';
import { FIRST_READ_PIXELS, needsDecoding, OCR_NATIVE_FORMATS, toPgm } from './page-image';
import { openPdf } from './pdf-text';
import {
  type GrayImage,
  type ImageDecoder,
  OcrError,
  type OcrPage,
  type PageRasterizer,
  type PhotoFormat,
  type TextRecognizer,
} from './ports';
import { type PageReading, readPageImage } from './read-image';
import { type PageText, textLayerMissesInk } from './text-coverage';
import { median, type PageGeometry, type TextRun } from './text-runs';

/**
 * Reads a PDF menu or a photographed menu into drafted dishes (SPEC 5.2 "Drafts for the operations team"):
 * the PDF text layer where there is one, OCR for images and for pages without one (read-image.ts: turned
 * upright, straightened and scaled first), then the layout rebuild and the drafter. Work per source is
 * bounded: pages beyond `maxPages`, scanned pages beyond `maxOcrPages`, images over `maxImagePixels` and
 * pages OCR does not finish within `ocrPageTimeoutMs` are skipped with a warning that says so — never
 * silently.
 */

export interface DraftLimits {
  readonly maxPages: number;
  readonly maxOcrPages: number;
  /** Time budget of one page or image, every read of it together (turned, rescaled). */
  readonly ocrPageTimeoutMs: number;
  /**
   * Size of an image decoded (4 bytes a pixel while it is scaled down: a 50 MP phone photo takes 200 MB; a
   * 200 MP camera mode would take most of the worker's memory).
   */
  readonly maxImagePixels: number;
  /** Largest image handed to the OCR: a small photo is scaled up at most to this. */
  readonly maxOcrPixels: number;
  /** Size a scanned PDF page is drawn at for OCR (~300 dpi for a letter page, what the OCR's first read uses). */
  readonly rasterPixels: number;
}

export const DRAFT_LIMITS: DraftLimits = {
  maxPages: 40,
  maxOcrPages: 12,
  ocrPageTimeoutMs: 45_000,
  maxImagePixels: 100_000_000,
  maxOcrPixels: 16_000_000,
  rasterPixels: FIRST_READ_PIXELS,
};

export interface DraftDeps {
  /** Absent where no OCR engine runs: images and scanned pages are then left to a person, with a warning. */
  readonly recognizer?: TextRecognizer;
  readonly rasterizer?: PageRasterizer;
  /** Decodes, turns and scales photos for the OCR; absent, Tesseract reads JPEG, PNG and WebP as they are. */
  readonly decoder?: ImageDecoder;
}

export interface DraftSourceInput {
  readonly bytes: Uint8Array;
  readonly format: 'pdf' | 'image';
  /** The source as the job names it, and its position in `catalog_sources`. */
  readonly source: string;
  readonly sourceIndex: number;
  readonly language: Language;
  readonly currency: string;
}

/** A run set under this share of its page's usual text size is a superscript. */
const SUPERSCRIPT = 0.6;

/**
 * The runs without the superscript numbers set after dish names (allergens `1, 4, 7`, footnotes): tiny runs
 * of digits and commas, which would read as bare prices and, strewn across the page, keep its columns from
 * being told apart. Only on text pages (OCR gives no reliable size to tell them by).
 */
export const withoutMarks = (runs: readonly TextRun[]): TextRun[] => {
  const sizes = new Map<number, number[]>();
  for (const r of runs)
    if (r.confidence === undefined)
      (sizes.get(r.page) ?? sizes.set(r.page, []).get(r.page)!).push(r.fontSize);
  const usual = new Map([...sizes].map(([page, list]) => [page, median(list)]));
  return runs.filter(
    (r) =>
      r.confidence !== undefined ||
      !(r.fontSize < (usual.get(r.page) ?? 0) * SUPERSCRIPT && /^[\d\s,.;*]+$/.test(r.text.trim())),
  );
};

/** Copies of a run this close to it (in its font size) are the same text struck again. */
const OVERSTRIKE = 0.1;

/**
 * The runs of a text layer without the copies a design tool draws over a text, a little offset, to make it
 * look heavier (`Le Repaire` drawn three times: `LLLeee RRReeepppaaaiiirrreee` once joined); the run kept is
 * bold. OCR runs are left alone.
 */
export const withoutOverstrikes = (runs: readonly TextRun[]): TextRun[] => {
  const kept = new Map<string, TextRun[]>();
  const struck = new Set<TextRun>();
  const out: TextRun[] = [];
  for (const run of runs) {
    if (run.confidence !== undefined) {
      out.push(run);
      continue;
    }
    const key = `${run.page}\u0000${run.fontSize}\u0000${run.text}`;
    const same = kept.get(key) ?? kept.set(key, []).get(key)!;
    const near = run.fontSize * OVERSTRIKE;
    const original = same.find((k) => Math.abs(k.x - run.x) <= near && Math.abs(k.y - run.y) <= near);
    if (original) {
      struck.add(original);
      continue;
    }
    same.push(run);
    out.push(run);
  }
  return struck.size === 0 ? out : out.map((r) => (struck.has(r) ? { ...r, bold: true } : r));
};

/** Pages with fewer letters than this in their text layer are treated as scans. */
const MIN_TEXT_LETTERS = 12;

const letters = (runs: readonly TextRun[]): number =>
  runs.reduce((sum, r) => sum + r.text.replace(/[^\p{L}]/gu, '').length, 0);

/**
 * Whether a page's runs hold a price (a line ending in an amount with a currency, decimals or a leader). A
 * menu page whose text layer has letters and no price at all has its dishes drawn some other way (as
 * outlines, in a picture, with only the descriptions and a title as text): that page is read by OCR too,
 * and its text layer kept where OCR finds no price either (a cover, an about-us page).
 */
const holdsPrices = (runs: readonly TextRun[], currency: string): boolean =>
  rebuildLines(runs).some((line) => {
    const read = readLinePrices(line.text, currency);
    return read.prices.some((p) => p.price !== null) && !read.weak;
  });

const describeOcrFailure = (error: unknown, timeoutMs: number): string => {
  if (error instanceof OcrError && error.reason === 'timeout')
    return `OCR did not finish within ${timeoutMs / 1000} s`;
  if (error instanceof OcrError) return `OCR could not read it (${error.message})`;
  return 'OCR failed on it';
};

/** Drafts the dishes of one PDF or image source. Never throws for content it cannot read: it warns. */
export const draftSource = async (
  input: DraftSourceInput,
  deps: DraftDeps,
  limits: DraftLimits = DRAFT_LIMITS,
): Promise<DraftResult> => {
  const warnings: DraftWarning[] = [];
  const pages: PageGeometry[] = [];
  const runs: TextRun[] = [];
  const { languages, exact } = ocrLanguages(input.language);
  const ocr = async (image: Uint8Array, photo: Photo): Promise<PageReading> => {
    if (!deps.recognizer) throw new OcrError('no OCR engine in this runtime', 'unavailable');
    return readPageImage(
      image,
      photo.format,
      { recognizer: deps.recognizer, decoder: deps.decoder },
      {
        languages,
        timeoutMs: limits.ocrPageTimeoutMs,
        maxOcrPixels: limits.maxOcrPixels,
        decode: needsDecoding(photo, deps.recognizer),
      },
    );
  };
  /**
   * A PDF page drawn here goes to the OCR as it was drawn, whatever the engine: its skew is the scan's, and
   * reading it as a photo would also read a weak page (a cover with three words) turned every other way —
   * for Paddle, three more reads of a 6 MP page (measured +0.65 s a page on a scanned PDF, no dish gained).
   */
  const ocrPage = async (image: GrayImage): Promise<OcrPage> => {
    if (!deps.recognizer) throw new OcrError('no OCR engine in this runtime', 'unavailable');
    return deps.recognizer.recognize(toPgm(image), { languages, timeoutMs: limits.ocrPageTimeoutMs });
  };
  let usedOcr = false;
  if (input.format === 'image') {
    const photo = photoSize(input.bytes);
    if (photo === undefined || (!deps.decoder && !OCR_NATIVE_FORMATS.includes(photo.format))) {
      warnings.push({
        page: 1,
        code: 'source_unreadable',
        message: `the image is in a format the OCR cannot decode (${deps.decoder ? 'JPEG, PNG, WebP, HEIC, GIF, BMP, TIFF and AVIF' : 'JPEG, PNG and WebP'} are read): export it as JPEG`,
      });
    } else if (photo.pixels > limits.maxImagePixels) {
      warnings.push({
        page: 1,
        code: 'source_unreadable',
        message: `the image has ${(photo.pixels / 1e6).toFixed(0)} megapixels, over the ${limits.maxImagePixels / 1e6} read by OCR`,
      });
    } else {
      try {
        const { page: read, view, pages: images } = await ocr(input.bytes, photo);
        usedOcr = true;
        pages.push({
          page: 1,
          width: read.width,
          height: read.height,
          method: 'ocr',
          ...(view ? { view } : {}),
        });
        runs.push(...ocrRuns(read, 1));
        if (images > 1)
          warnings.push({
            page: null,
            code: 'source_unreadable',
            message: `only the first of the image's ${images} pages was read`,
          });
      } catch (error) {
        warnings.push({
          page: 1,
          code: 'source_unreadable',
          message: `the image was not read: ${describeOcrFailure(error, limits.ocrPageTimeoutMs)}`,
        });
      }
    }
  } else {
    // Lines a text page draws but does not write (headings turned into outlines), read by OCR band by band.
    const drawn = async (page: number, text: PageText): Promise<TextRun[]> => {
      const found = await readDrawnLines(input.bytes, page, text, deps, {
        languages,
        timeoutMs: limits.ocrPageTimeoutMs,
      });
      if (found.length > 0) usedOcr = true;
      return found;
    };
    usedOcr = (await readPdf(input, limits, ocrPage, deps, { pages, runs, warnings }, drawn)) || usedOcr;
  }
  if (usedOcr && !exact) {
    warnings.push({
      page: null,
      code: 'source_unreadable',
      message: `no OCR data for ${input.language}: the text was read as English`,
    });
  }
  const drafted = draftMenu(rebuildPageLines(withoutMarks(withoutOverstrikes(runs)), pages, input.currency), {
    source: input.source,
    sourceIndex: input.sourceIndex,
    currency: input.currency,
    pages,
    language: input.language,
  });
  return {
    items: drafted.items,
    warnings: [...warnings, ...drafted.warnings],
    pages: pages.map((p) => ({ page: p.page, method: p.method })),
  };
};

/**
 * A photo's format and its size in pixels (from its header: nothing decoded yet); undefined when it is no
 * image the OCR reads or its header cannot be read.
 */
interface Photo {
  readonly format: PhotoFormat;
  readonly pixels: number;
  /** EXIF Orientation (JPEG), 1–8. */
  readonly orientation?: number;
}

const photoSize = (bytes: Uint8Array): Photo | undefined => {
  const format = sniffPhotoFormat(bytes);
  if (!format) return undefined;
  try {
    const size = imageSize(bytes);
    const pixels = (size.width ?? 0) * (size.height ?? 0);
    return pixels > 0 ? { format, pixels, orientation: size.orientation } : undefined;
  } catch {
    return undefined;
  }
};

interface Collected {
  readonly pages: PageGeometry[];
  readonly runs: TextRun[];
  readonly warnings: DraftWarning[];
}

const readPdf = async (
  input: DraftSourceInput,
  limits: DraftLimits,
  ocr: (image: GrayImage) => Promise<OcrPage>,
  { rasterizer }: Pick<DraftDeps, 'rasterizer'>,
  out: Collected,
  drawn: (page: number, text: PageText) => Promise<TextRun[]>,
): Promise<boolean> => {
  const pdf = await openPdf(input.bytes).catch((error: unknown) => {
    out.warnings.push({
      page: null,
      code: 'source_unreadable',
      message: `the PDF could not be opened (${error instanceof Error ? error.message : 'damaged or protected'})`,
    });
    return undefined;
  });
  if (!pdf) return false;
  let ocrPages = 0;
  try {
    const last = Math.min(pdf.pageCount, limits.maxPages);
    if (pdf.pageCount > last) {
      out.warnings.push({
        page: null,
        code: 'source_unreadable',
        message: `only the first ${last} of ${pdf.pageCount} pages were read`,
      });
    }
    for (let page = 1; page <= last; page++) {
      const text = await pdf.readText(page);
      const hasText = letters(text.runs) >= MIN_TEXT_LETTERS;
      const keepText = async (): Promise<boolean> => {
        if (!hasText) return false;
        out.pages.push({ page, width: text.width, height: text.height, method: 'text' });
        out.runs.push(...(await text.styledRuns()));
        return true;
      };
      if (
        hasText &&
        holdsPrices(text.runs, input.currency) &&
        !(await textLayerMissesInk(input.bytes, page, text, { rasterizer }))
      ) {
        await keepText();
        out.runs.push(...(await drawn(page, text)));
        continue;
      }
      if (ocrPages >= limits.maxOcrPages) {
        if (await keepText()) continue;
        out.warnings.push({
          page,
          code: 'source_unreadable',
          message: `page ${page} has no text layer and is over the ${limits.maxOcrPages} scanned pages read by OCR`,
        });
        continue;
      }
      const image = await rasterizer
        ?.rasterize(input.bytes, page, { maxPixels: limits.rasterPixels })
        .catch(() => undefined);
      if (!image) {
        if (await keepText()) continue;
        out.warnings.push({
          page,
          code: 'source_unreadable',
          message: `page ${page} has no text layer and could not be drawn for OCR`,
        });
        continue;
      }
      ocrPages++;
      try {
        const read = await ocr(image);
        // Back to the page's own units (points), so that sizes compare with the text pages of the same PDF.
        const scale = text.width / read.width;
        const ocrRead = ocrRuns(read, page);
        if (hasText && !holdsPrices(ocrRead, input.currency) && (await keepText())) continue;
        out.pages.push({ page, width: read.width * scale, height: read.height * scale, method: 'ocr' });
        out.runs.push(
          ...ocrRead.map((r) => ({
            ...r,
            x: r.x * scale,
            y: r.y * scale,
            width: r.width * scale,
            height: r.height * scale,
            fontSize: r.fontSize * scale,
          })),
        );
      } catch (error) {
        if (await keepText()) {
          out.warnings.push({
            page,
            code: 'source_unreadable',
            message: `page ${page} has text but no price in its text layer (dishes drawn as outlines or in a picture?) and OCR did not read it: ${describeOcrFailure(error, limits.ocrPageTimeoutMs)}`,
          });
          continue;
        }
        out.warnings.push({
          page,
          code: 'source_unreadable',
          message: `page ${page} was not read: ${describeOcrFailure(error, limits.ocrPageTimeoutMs)}`,
        });
        // A page sent to OCR because its text layer missed most of it keeps what that layer has.
        if (letters(text.runs) >= MIN_TEXT_LETTERS) {
          out.pages.push({ page, width: text.width, height: text.height, method: 'text' });
          out.runs.push(...(await text.styledRuns()));
        }
      }
    }
  } finally {
    await pdf.close();
  }
  return ocrPages > 0;
};
