import { DomainError } from '../../errors';

/**
 * The ports of drafting (SPEC 5.2 "Drafts for the operations team"): OCR, photo decoding and PDF page
 * drawing. Only the drafters (this folder) use them; the adapters in lambdas/adapters implement them
 * (tesseract.js, @napi-rs/canvas, pdf.js) and reach them through the catalog's door (catalog/index.ts).
 */

/** Image formats of the four SPEC 5.2 accepts as image sources. */
export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp';

/** Formats a photographed menu may come in (SPEC 5.2 drafts), as far as the OCR's decoder reads them. */
export type PhotoFormat = ImageFormat | 'bmp' | 'tiff' | 'heic' | 'avif';

export type OcrFailure = 'timeout' | 'unreadable' | 'unavailable';

/** OCR could not read an image: too slow, not an image it can decode, or no engine in this runtime. */
export class OcrError extends DomainError {
  readonly code: `ocr_${OcrFailure}`;
  constructor(
    message: string,
    readonly reason: OcrFailure,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = `ocr_${reason}`;
  }
}

/**
 * One word read by OCR, in pixels of the image as it was read (after straightening a tilted photo). Its
 * vertical extent is its text row's, so that the words of one row line up whatever their letters.
 */
export interface OcrWord {
  readonly text: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  /** 0–1. */
  readonly confidence: number;
  /** Height of the word's text row: the OCR counterpart of a font size. */
  readonly lineHeight: number;
}

export interface OcrPage {
  readonly width: number;
  readonly height: number;
  readonly words: readonly OcrWord[];
}

/** An image in gray levels, one byte a pixel (0 black, 255 white), rows top to bottom. */
export interface GrayImage {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;
}

/** Clockwise quarter turns (0–3). */
export type QuarterTurns = 0 | 1 | 2 | 3;

/** Which way up a page is, as orientation detection sees it. */
export interface PageOrientation {
  /** Clockwise quarter turns that bring the page's text upright. */
  readonly quarterTurns: QuarterTurns;
  /** The detector's confidence (Tesseract OSD: about 0–30; under 2 it is guessing). */
  readonly confidence: number;
}

/** OCR (SPEC 5.2 drafts): reads the words of an image, with nothing fetched at run time. */
export interface TextRecognizer {
  /**
   * True when the engine brings each text line to the size it reads best by itself (it cuts the lines out
   * and scales them): a second read of the page at another scale gains nothing (read-image.ts).
   */
  readonly scalesItself?: boolean;
  /**
   * False when the engine reads a slightly askew page as it is: Tesseract finds its text lines at a small
   * tilt, but an engine that boxes a name and its far-right price apart (PaddleOCR) sees the price a line
   * higher or lower, so every photo goes through the image decoder to be straightened first (read-draft.ts).
   * Undefined is true.
   */
  readonly straightensItself?: boolean;
  /**
   * Reads one JPEG, PNG, WebP or PGM image in the given OCR languages (`eng`, `fra`: ocr-languages.ts).
   * Rejects with an `OcrError` (below) when it cannot, or when it takes longer than `timeoutMs`.
   */
  recognize(
    image: Uint8Array,
    options: { languages: readonly string[]; timeoutMs: number },
  ): Promise<OcrPage>;
  /**
   * Which way up the text of an image is (Tesseract OSD), for a page whose read found almost nothing.
   * Undefined when this runtime has no orientation data; rejects like `recognize`.
   */
  detectOrientation(image: Uint8Array, options: { timeoutMs: number }): Promise<PageOrientation | undefined>;
  /** Frees the engine (its worker thread and memory); the next `recognize` starts a new one. */
  release(): Promise<void>;
}

/**
 * A photo decoded for OCR, shown the way the camera held it (EXIF or HEIF orientation applied): `width` ×
 * `height` are its pixels as shown.
 */
export interface DecodedImage {
  readonly width: number;
  readonly height: number;
  /** Images in the file (a TIFF may hold several pages): this is the first. */
  readonly pages: number;
  /**
   * The picture in gray levels, scaled by `scale` and turned about its centre by `quarterTurns` × 90° and
   * then `degrees` more (clockwise), on a canvas just large enough to hold it all (white where the turned
   * picture leaves corners).
   */
  render(options: { scale: number; quarterTurns: QuarterTurns; degrees: number }): Promise<GrayImage>;
  /** Frees the decoded pixels. */
  close(): void;
}

/** Decodes photographed menus for OCR (SPEC 5.2 drafts: JPEG, PNG, WebP, HEIC, and what else it can). */
export interface ImageDecoder {
  /**
   * Undefined when this runtime cannot decode images of that format (no decoder installed); rejects with an
   * `OcrError` ('unreadable') when the bytes are not an image it can decode.
   */
  decode(image: Uint8Array, format: PhotoFormat): Promise<DecodedImage | undefined>;
}

/** Draws PDF pages as images, for pages that have no text layer (scans). */
export interface PageRasterizer {
  /**
   * The page in gray levels, at most `maxPixels` pixels large, or undefined when this runtime cannot draw PDF
   * pages. Rejects when the page cannot be drawn.
   */
  rasterize(pdf: Uint8Array, page: number, options: { maxPixels: number }): Promise<GrayImage | undefined>;
  /** Forgets the document drawn last (and the memory it holds). */
  release(): Promise<void>;
}
