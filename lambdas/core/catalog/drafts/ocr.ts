import type { Language } from '../../schemas/job';
import type { OcrPage } from './ports';
import type { TextRun } from './text-runs';

/**
 * Tesseract language data shipped with the service (npm `@tesseract.js-data/*`), by the language part of
 * the job's `language`. Other languages are read with English data, and the draft says so.
 */
export const OCR_LANGUAGE_DATA: Readonly<Record<string, string>> = { en: 'eng', fr: 'fra' };

/** The Tesseract languages for a job language, and whether they are the job's own (false: English instead). */
export const ocrLanguages = (language: Language): { languages: string[]; exact: boolean } => {
  const data = OCR_LANGUAGE_DATA[language.slice(0, 2)];
  return data ? { languages: [data], exact: true } : { languages: ['eng'], exact: false };
};

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
