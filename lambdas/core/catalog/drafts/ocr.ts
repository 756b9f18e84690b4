import type { OcrPage } from '../../ports';
import type { TextRun } from './text-runs';

export type OcrFailure = 'timeout' | 'unreadable' | 'unavailable';

/** OCR could not read an image: too slow, not an image it can decode, or no engine in this runtime. */
export class OcrError extends Error {
  constructor(
    message: string,
    readonly reason: OcrFailure,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export { OCR_LANGUAGE_DATA, ocrLanguages } from './ocr-languages';

/** OCR words as text runs of one page (size: the word's row height; no weight or slant from OCR). */
export const ocrRuns = (ocr: OcrPage, page: number): TextRun[] =>
  ocr.words
    .filter((w) => w.text.trim() !== '' && w.width > 0 && w.height > 0)
    .map((w) => ({
      text: w.text,
      x: w.x,
      y: w.y,
      width: w.width,
      height: w.height,
      page,
      fontSize: w.lineHeight,
      bold: false,
      italic: false,
      confidence: w.confidence,
    }));
