import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Box } from './highlight';
import { Highlight } from './highlight';

type PdfJs = typeof import('./pdfjs');

/** Pages rendered at most (a menu is a few pages; a 300-page catalog is browsed elsewhere). */
const MAX_PAGES = 40;

/** Zoom steps, as a share of the pane's width (1: the page fits the pane). */
export const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4] as const;
const FIT = ZOOM_STEPS.indexOf(1);

interface PdfViewProps {
  readonly bytes: ArrayBuffer;
  readonly label: string;
  /** Page (1-based) and box to highlight, from an item's provenance. */
  readonly highlight?: { readonly page: number; readonly box: Box | null } | null;
}

/**
 * A PDF rendered in the page by pdf.js (bundled; its worker is served from the same origin, so the CSP's
 * `worker-src 'self'` allows it). Each page is a canvas in a figure; the highlight box is placed in
 * fractions of the page, as the service's provenance gives it.
 */
export const PdfView = ({ bytes, label, highlight }: PdfViewProps) => {
  const container = useRef<HTMLElement>(null);
  const [pdf, setPdf] = useState<{ document: PDFDocumentProxy; lib: PdfJs } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [zoom, setZoom] = useState<number>(FIT);
  const rendering = useRef<Promise<void>>(Promise.resolve());

  useEffect(() => {
    let cancelled = false;
    let opened: PDFDocumentProxy | undefined;
    setPdf(null);
    setError(null);
    (async () => {
      const lib = await import('./pdfjs');
      opened = await lib.openPdf(bytes.slice(0));
      if (cancelled) return void opened.loadingTask.destroy();
      setPdf({ document: opened, lib });
    })().catch((e: unknown) => {
      if (!cancelled) setError(e instanceof Error ? e.message : String(e));
    });
    return () => {
      cancelled = true;
      void opened?.loadingTask.destroy();
    };
  }, [bytes]);

  // Once the figures exist, draw each page into its canvas, one after the other.
  useEffect(() => {
    if (!pdf) return;
    let cancelled = false;
    container.current?.setAttribute('data-rendered', 'false');
    // One drawing at a time: pdf.js refuses a second render into a canvas still being drawn (a zoom clicked
    // twice), so each waits for the one before, which stops early once cancelled.
    rendering.current = rendering.current
      .then(async () => {
        // Small print is read by zooming in: the pages are drawn again at that width (the pane scrolls).
        const fit = Math.max((container.current?.clientWidth ?? 600) - 16, 300);
        const width = Math.round(fit * ZOOM_STEPS[zoom]!);
        for (let n = 1; n <= Math.min(pdf.document.numPages, MAX_PAGES) && !cancelled; n += 1) {
          const canvas = container.current?.querySelector<HTMLCanvasElement>(`canvas[data-page="${n}"]`);
          if (canvas) await pdf.lib.renderPage(pdf.document, n, canvas, width);
        }
        if (!cancelled) container.current?.setAttribute('data-rendered', 'true');
      })
      .catch((e: unknown) => {
        if (!cancelled) setError(e instanceof Error ? e.message : String(e));
      });
    return () => {
      cancelled = true;
    };
  }, [pdf, zoom]);

  useEffect(() => {
    if (!highlight) return;
    container.current
      ?.querySelector(`[data-figure="${highlight.page}"]`)
      ?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [highlight]);

  if (error) return <p class="error">This PDF could not be shown: {error}</p>;
  const pages = pdf?.document.numPages ?? null;
  return (
    <section
      class="pdf-source"
      ref={container}
      aria-label={label}
      aria-busy={pages === null ? 'true' : 'false'}
    >
      {pages === null && <p class="muted">Rendering the PDF…</p>}
      {pages !== null && (
        <fieldset class="zoom">
          <legend class="visually-hidden">Zoom</legend>
          <button
            type="button"
            aria-label="Zoom out"
            disabled={zoom === 0}
            onClick={() => setZoom((z) => Math.max(0, z - 1))}
          >
            −
          </button>
          <output aria-live="polite">{Math.round(ZOOM_STEPS[zoom]! * 100)}%</output>
          <button
            type="button"
            aria-label="Zoom in"
            disabled={zoom === ZOOM_STEPS.length - 1}
            onClick={() => setZoom((z) => Math.min(ZOOM_STEPS.length - 1, z + 1))}
          >
            +
          </button>
          <button type="button" disabled={zoom === FIT} onClick={() => setZoom(FIT)}>
            Fit width
          </button>
        </fieldset>
      )}
      {pages !== null &&
        Array.from({ length: Math.min(pages, MAX_PAGES) }, (_, i) => i + 1).map((n) => (
          <figure key={n} data-figure={n} class="page">
            <div class="page-frame">
              <canvas data-page={n} role="img" aria-label={`Page ${n} of ${pages}`} />
              {highlight?.page === n && highlight.box && <Highlight box={highlight.box} />}
            </div>
            <figcaption>
              Page {n} of {pages}
            </figcaption>
          </figure>
        ))}
      {pages !== null && pages > MAX_PAGES && (
        <p class="muted">Only the first {MAX_PAGES} pages are shown.</p>
      )}
    </section>
  );
};
