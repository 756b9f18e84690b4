import { PdfPageRasterizer } from '../adapters/pdf-page-rasterizer';
import { TesseractRecognizer } from '../adapters/tesseract-recognizer';
import type { PageRasterizer, TextRecognizer } from '../core/ports';

/**
 * The OCR engine and the PDF page renderer of the job worker (SPEC 5.2 drafts), reading their packages and
 * language data from `moduleRoot` (config.ts). Created idle: the engine starts on the first image.
 */
export const draftingAdapters = (
  moduleRoot: string,
): { readonly recognizer: TextRecognizer; readonly rasterizer: PageRasterizer } => ({
  recognizer: new TesseractRecognizer({ moduleRoot }),
  rasterizer: new PdfPageRasterizer(),
});
