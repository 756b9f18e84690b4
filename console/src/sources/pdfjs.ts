import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

/**
 * pdf.js, loaded only when a PDF is shown (its own chunk). The worker is a file of this build, served from
 * the console's origin; nothing is fetched from elsewhere (no CMaps, fonts or wasm from a CDN: fonts a PDF
 * does not embed are drawn with the browser's own).
 */
GlobalWorkerOptions.workerSrc = workerUrl;

export const openPdf = (data: ArrayBuffer): Promise<PDFDocumentProxy> =>
  getDocument({ data, useSystemFonts: true, isOffscreenCanvasSupported: true, enableXfa: false }).promise;

/** Renders page `n` into `canvas`, `width` CSS pixels wide, sharp on high-density screens. */
export const renderPage = async (
  document: PDFDocumentProxy,
  n: number,
  canvas: HTMLCanvasElement,
  width: number,
): Promise<void> => {
  const page = await document.getPage(n);
  const unscaled = page.getViewport({ scale: 1 });
  const scale = width / unscaled.width;
  const ratio = window.devicePixelRatio || 1;
  const viewport = page.getViewport({ scale: scale * ratio });
  canvas.width = Math.floor(viewport.width);
  canvas.height = Math.floor(viewport.height);
  canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
  canvas.style.height = `${Math.floor(viewport.height / ratio)}px`;
  await page.render({ canvas, viewport }).promise;
  page.cleanup();
};
