import { CanvasImageDecoder } from '../adapters/canvas-image-decoder';
import { PdfPageRasterizer } from '../adapters/pdf-page-rasterizer';
import { TesseractRecognizer } from '../adapters/tesseract-recognizer';
import type { ImageDecoder, PageRasterizer, TextRecognizer } from '../core/catalog';

/**
 * The OCR engine, the PDF page renderer and the photo decoder of the job worker (SPEC 5.2 drafts), reading
 * their packages and language data from `moduleRoot` (config.ts). Created idle: the engine starts on the
 * first image.
 */
export const draftingAdapters = (
  moduleRoot: string,
): {
  readonly recognizer: TextRecognizer;
  readonly rasterizer: PageRasterizer;
  readonly decoder: ImageDecoder;
} => ({
  recognizer: new TesseractRecognizer({ moduleRoot }),
  rasterizer: new PdfPageRasterizer(),
  decoder: new CanvasImageDecoder(),
});
