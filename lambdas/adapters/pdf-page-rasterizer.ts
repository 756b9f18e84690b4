import { createIsomorphicCanvasFactory, getDocumentProxy } from 'unpdf';
import type { GrayImage, PageRasterizer } from '../core/catalog';
import { loadPdfJs, pdfJsDataOptions } from '../core/catalog';
import { grayOf } from './canvas-gray';

type Canvas = typeof import('@napi-rs/canvas');

/**
 * Draws scanned PDF pages for OCR with pdf.js (bundled in unpdf) on @napi-rs/canvas (Skia, a prebuilt
 * binary from npm), and hands over the canvas's pixels in gray levels: encoded as a PNG and decoded again,
 * a 6 MP page took 0.45 s more (issue 23, measured). Where the canvas binary cannot load (a platform without
 * one), `rasterize` answers undefined and the page is reported as not drawable instead of failing the job.
 */
export class PdfPageRasterizer implements PageRasterizer {
  private canvas: Promise<Canvas | undefined> | undefined;
  private document: { bytes: Uint8Array; proxy: ReturnType<typeof getDocumentProxy> } | undefined;

  async rasterize(
    pdf: Uint8Array,
    page: number,
    options: { maxPixels: number },
  ): Promise<GrayImage | undefined> {
    const canvas = await this.loadCanvas();
    if (!canvas) return undefined;
    await loadPdfJs();
    // unpdf's factory for Node: canvases from @napi-rs/canvas, and the constructors pdf.js draws with.
    const CanvasFactory = await createIsomorphicCanvasFactory(async () => canvas);
    // Consecutive pages of one source share the parsed document.
    if (this.document?.bytes !== pdf) {
      await this.release();
      const options = {
        isEvalSupported: false,
        verbosity: 0,
        CanvasFactory,
        ...pdfJsDataOptions(),
      } as Parameters<typeof getDocumentProxy>[1];
      this.document = { bytes: pdf, proxy: getDocumentProxy(new Uint8Array(pdf), options) };
    }
    const document = await this.document.proxy;
    const drawn = await document.getPage(page);
    const size = drawn.getViewport({ scale: 1 });
    const viewport = drawn.getViewport({
      scale: Math.sqrt(options.maxPixels / (size.width * size.height)),
    });
    const factory = new CanvasFactory();
    const drawing = factory.create(viewport.width, viewport.height);
    try {
      await drawn.render({ canvas: drawing.canvas, canvasContext: drawing.context, viewport }).promise;
      const { width, height } = drawing.canvas as { width: number; height: number };
      return grayOf(drawing.context.getImageData(0, 0, width, height).data, width, height);
    } finally {
      factory.destroy(drawing);
    }
  }

  /** Forgets the last document (its memory goes with it). */
  async release(): Promise<void> {
    const current = this.document;
    this.document = undefined;
    if (current) await (await current.proxy.catch(() => undefined))?.loadingTask.destroy();
  }

  private loadCanvas(): Promise<Canvas | undefined> {
    this.canvas ??= import('@napi-rs/canvas').then(
      (module) => ((module as Canvas & { default?: Canvas }).default ?? module) as Canvas,
      () => undefined,
    );
    return this.canvas;
  }
}
