import { getDocumentProxy, renderPageAsImage } from 'unpdf';
import type { PageRasterizer } from '../core/catalog';
import { loadPdfJs, pdfJsDataOptions } from '../core/catalog';

type Canvas = typeof import('@napi-rs/canvas');

/**
 * Draws scanned PDF pages for OCR with pdf.js (bundled in unpdf) on @napi-rs/canvas (Skia, a prebuilt
 * binary from npm). Where the canvas binary cannot load (a platform without one), `rasterize` answers
 * undefined and the page is reported as not drawable instead of failing the job.
 */
export class PdfPageRasterizer implements PageRasterizer {
  private canvas: Promise<Canvas | undefined> | undefined;
  private document: { bytes: Uint8Array; proxy: ReturnType<typeof getDocumentProxy> } | undefined;

  async rasterize(
    pdf: Uint8Array,
    page: number,
    options: { maxPixels: number },
  ): Promise<Uint8Array | undefined> {
    const canvas = await this.loadCanvas();
    if (!canvas) return undefined;
    await loadPdfJs();
    // Consecutive pages of one source share the parsed document.
    if (this.document?.bytes !== pdf) {
      await this.release();
      const options = { isEvalSupported: false, verbosity: 0, ...pdfJsDataOptions() } as Parameters<
        typeof getDocumentProxy
      >[1];
      this.document = { bytes: pdf, proxy: getDocumentProxy(new Uint8Array(pdf), options) };
    }
    const document = await this.document.proxy;
    const viewport = (await document.getPage(page)).getViewport({ scale: 1 });
    const scale = Math.sqrt(options.maxPixels / (viewport.width * viewport.height));
    const png = await renderPageAsImage(document, page, { canvasImport: async () => canvas, scale });
    return new Uint8Array(png);
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
