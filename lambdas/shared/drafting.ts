import { CanvasImageDecoder } from '../adapters/canvas-image-decoder';
import { PaddleRecognizer } from '../adapters/paddle-recognizer';
import { PdfPageRasterizer } from '../adapters/pdf-page-rasterizer';
import { TesseractRecognizer } from '../adapters/tesseract-recognizer';
import {
  type ImageDecoder,
  PADDLE_LANGUAGES,
  type PageRasterizer,
  type TextRecognizer,
} from '../core/catalog';

/**
 * The OCR engine, the PDF page renderer and the photo decoder of the job worker (SPEC 5.2 drafts), reading
 * their packages, models and language data from `moduleRoot` (config.ts). Created idle: the engine starts
 * on the first image.
 *
 * The engine (chosen with `npm run bench:ocr-corpus`, issue 23): PaddleOCR's PP-OCRv4 text detection finds
 * the lines; Paddle's recogniser reads them in the languages it was trained on (English, Chinese) and in the
 * Latin-script fallback, Tesseract reads them with the job language's own data otherwise (ocr-languages.ts).
 * Tesseract also detects a page's orientation, and reads whole pages where ONNX Runtime cannot load.
 */
export const draftingAdapters = (
  moduleRoot: string,
): {
  readonly recognizer: TextRecognizer;
  readonly rasterizer: PageRasterizer;
  readonly decoder: ImageDecoder;
} => {
  const decoder = new CanvasImageDecoder();
  const tesseract = new TesseractRecognizer({ moduleRoot });
  return {
    recognizer: new PaddleRecognizer({
      moduleRoot,
      decoder,
      orientation: tesseract,
      lineReader: { reader: tesseract, for: ([language]) => !PADDLE_LANGUAGES.includes(language ?? 'eng') },
      fallback: tesseract,
    }),
    rasterizer: new PdfPageRasterizer(),
    decoder,
  };
};
