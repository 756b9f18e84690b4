import { fixOcrWords } from './ocr-words';
import type { OcrPage } from './ports';
import type { TextRun } from './text-runs';

export { OCR_LANGUAGE_DATA, ocrLanguages } from './ocr-languages';

/**
 * OCR words as text runs of one page (size: the word's row height; no weight or slant from OCR), with the
 * fixes the page's own evidence allows (ocr-words.ts: glued prices, `S` for `$`, lost decimal points).
 */
export const ocrRuns = (ocr: OcrPage, page: number): TextRun[] =>
  fixOcrWords(
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
      })),
  );
