import {
  firstReadScale,
  isWeakRead,
  OCR_NATIVE_FORMATS,
  type ReadStrength,
  readStrength,
  readsBetter,
  secondReadScale,
  textLineHeight,
  toPgm,
  turnedSize,
  worthStraightening,
} from './page-image';
import {
  type ImageDecoder,
  OcrError,
  type OcrPage,
  type PhotoFormat,
  type QuarterTurns,
  type TextRecognizer,
} from './ports';
import { estimateSkew } from './skew';
import type { PageView } from './text-runs';

/**
 * Reads one photographed page (or a scanned PDF page drawn as an image) with OCR, the way a person would
 * hold it (SPEC 5.2 drafts): decoded with its EXIF orientation applied, straightened when tilted, scaled so
 * that its text lines are the height Tesseract reads best, and — when the first read finds almost nothing it
 * is sure of — turned the way orientation detection says (or every way) and read again. Every read after the
 * first happens only while the page's time budget lasts; the best read is kept.
 */

export interface PageImageDeps {
  /** Absent, or without a decoder for this runtime: the bytes go to the OCR as they are. */
  readonly decoder?: ImageDecoder;
  readonly recognizer: TextRecognizer;
}

export interface PageImageOptions {
  readonly languages: readonly string[];
  /** Time budget of the page, all reads together. */
  readonly timeoutMs: number;
  /** Largest image handed to the OCR (memory and time of one read). */
  readonly maxOcrPixels: number;
  /** False: the bytes go to the OCR as they are, decoder or not (page-image.ts `needsDecoding`). */
  readonly decode?: boolean;
}

export interface PageReading {
  /** The words, in pixels of the image read. */
  readonly page: OcrPage;
  /** How that image maps back onto the picture as shown (absent when it was read as it came). */
  readonly view?: PageView;
  /** Images in the file; only the first was read. */
  readonly pages: number;
}

/** Size of the copy the tilt is measured on: enough to resolve text lines, fast to scan. */
const SKEW_SAMPLE_PIXELS = 1_000_000;
/** OSD confidence from which its answer is taken (Tesseract's own scale; under ~2 it is guessing). */
const MIN_ORIENTATION_CONFIDENCE = 2;
/** A read after the first starts only if this much of the budget is left, relative to the first's time. */
const RETRY_TIME_FACTOR = 1.5;

interface Attempt {
  readonly page: OcrPage;
  readonly image: Uint8Array;
  readonly strength: ReadStrength;
  readonly scale: number;
  readonly quarterTurns: QuarterTurns;
  /** Straightening turn (degrees clockwise) applied on top of the quarter turns. */
  readonly straighten: number;
}

export const readPageImage = async (
  image: Uint8Array,
  format: PhotoFormat,
  deps: PageImageDeps,
  options: PageImageOptions,
): Promise<PageReading> => {
  const started = Date.now();
  const remaining = () => options.timeoutMs - (Date.now() - started);
  const recognize = (bytes: Uint8Array) => {
    const timeoutMs = remaining();
    if (timeoutMs <= 0) throw new OcrError('time limit reached', 'timeout');
    return deps.recognizer.recognize(bytes, { languages: options.languages, timeoutMs });
  };
  const decoded = options.decode === false ? undefined : await deps.decoder?.decode(image, format);
  if (!decoded) {
    if (!OCR_NATIVE_FORMATS.includes(format))
      throw new OcrError(
        `${format.toUpperCase()} images cannot be decoded here: export the photo as JPEG (or PNG) and send that`,
        'unavailable',
      );
    return { page: await recognize(image), pages: 1 };
  }
  try {
    const skews = new Map<QuarterTurns, number>();
    const readAt = async (scale: number, quarterTurns: QuarterTurns): Promise<Attempt> => {
      let straighten = skews.get(quarterTurns);
      if (straighten === undefined) {
        const sample = Math.min(1, Math.sqrt(SKEW_SAMPLE_PIXELS / (decoded.width * decoded.height)));
        const skew = estimateSkew(await decoded.render({ scale: sample, quarterTurns, degrees: 0 }));
        straighten = worthStraightening(skew) ? -skew.degrees : 0;
        skews.set(quarterTurns, straighten);
      }
      const pgm = toPgm(await decoded.render({ scale, quarterTurns, degrees: straighten }));
      const page = await recognize(pgm);
      return { page, image: pgm, strength: readStrength(page), scale, quarterTurns, straighten };
    };
    const firstStarted = Date.now();
    let best = await readAt(firstReadScale(decoded), 0);
    const firstTook = Date.now() - firstStarted;
    const timeForAnother = () => remaining() > firstTook * RETRY_TIME_FACTOR;

    if (isWeakRead(best.strength) && timeForAnother()) {
      for (const turns of await turnsToTry(deps.recognizer, best.image, remaining())) {
        if (!timeForAnother()) break;
        const turned = await readAt(best.scale, turns);
        if (readsBetter(turned.strength, best.strength, 1.5)) best = turned;
        if (!isWeakRead(best.strength)) break;
      }
    }

    const size = turnedSize(decoded, best.quarterTurns);
    const rescale = secondReadScale(size, best.scale, textLineHeight(best.page), options.maxOcrPixels);
    if (rescale !== undefined && !deps.recognizer.scalesItself && timeForAnother()) {
      // The first read's size was a guess; this one is measured. Kept unless it reads clearly less.
      const rescaled = await readAt(rescale, best.quarterTurns);
      if (readsBetter(rescaled.strength, best.strength, 0.9)) best = rescaled;
    }
    return {
      page: best.page,
      pages: decoded.pages,
      view: {
        width: decoded.width,
        height: decoded.height,
        degrees: best.quarterTurns * 90 + best.straighten,
        scale: best.scale,
      },
    };
  } finally {
    decoded.close();
  }
};

/**
 * The turns worth a read for a page read weakly: the one orientation detection is sure of, none when it is
 * sure the page is upright, every other one when it cannot tell (or there is no detector).
 */
const turnsToTry = async (
  recognizer: TextRecognizer,
  image: Uint8Array,
  timeoutMs: number,
): Promise<QuarterTurns[]> => {
  const detected = await recognizer.detectOrientation(image, { timeoutMs }).catch(() => undefined);
  if (detected && detected.confidence >= MIN_ORIENTATION_CONFIDENCE)
    return detected.quarterTurns === 0 ? [] : [detected.quarterTurns];
  return [1, 3, 2];
};
