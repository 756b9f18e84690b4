import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { WebPageRef } from '../api/types';
import type { Outline } from './page-outline';
import { splitWebPages, type WebPageText } from './web-pages';

/** Where a drafted item was read on a web page: no box, the page and the element's path. */
export interface WebFocus {
  readonly page: number;
  readonly url: string | null;
  readonly locator: string | null;
}

interface HtmlViewProps {
  readonly bytes: ArrayBuffer;
  readonly label: string;
  readonly pages: readonly WebPageRef[] | null | undefined;
  readonly focus: WebFocus | null;
}

/** Lines of page text shown at most, and characters of markup (a reviewer compares; the service reads all). */
const MAX_LINES = 5000;
const MAX_SOURCE_CHARS = 512 * 1024;

/**
 * A web page the service read, shown as text — its blocks in reading order (page-outline.ts), or its
 * markup — and never as HTML: merchant pages do not run, style or fetch anything in the console's origin.
 * A drafted item is shown by its element (a page has no fixed layout, so no box): the lines of that
 * element are marked and scrolled to.
 */
export const HtmlView = ({ bytes, label, pages, focus }: HtmlViewProps) => {
  const texts = useMemo(() => splitWebPages(new Uint8Array(bytes), pages), [bytes, pages]);
  const [selected, setSelected] = useState(0);
  const [mode, setMode] = useState<'text' | 'markup'>('text');
  useEffect(() => {
    const index = focus ? texts.findIndex((t) => t.page === focus.page) : -1;
    if (index >= 0) setSelected(index);
    if (focus) setMode('text');
  }, [focus, texts]);
  const current: WebPageText | undefined = texts[selected] ?? texts[0];
  return (
    <section class="web-source" aria-label={label}>
      {texts.length > 1 && (
        <fieldset class="source-tabs">
          <legend class="visually-hidden">Pages</legend>
          {texts.map((t, i) => (
            <button
              key={t.page}
              type="button"
              aria-pressed={i === selected ? 'true' : 'false'}
              onClick={() => setSelected(i)}
            >
              Page {t.page}
            </button>
          ))}
        </fieldset>
      )}
      <p class="source-name">
        {current?.url ? (
          <>
            Web page <span class="break">{current.url}</span>
          </>
        ) : (
          'Uploaded web page'
        )}
        , shown as text (the page itself never runs here).
      </p>
      <fieldset class="source-tabs">
        <legend class="visually-hidden">Show</legend>
        <button
          type="button"
          aria-pressed={mode === 'text' ? 'true' : 'false'}
          onClick={() => setMode('text')}
        >
          Page text
        </button>
        <button
          type="button"
          aria-pressed={mode === 'markup' ? 'true' : 'false'}
          onClick={() => setMode('markup')}
        >
          HTML source
        </button>
      </fieldset>
      {current && mode === 'text' && (
        <PageText
          html={current.html}
          label={`${label}, page ${current.page}`}
          locator={focus && focus.page === current.page ? focus.locator : null}
        />
      )}
      {current && mode === 'markup' && (
        <section aria-label={`${label}, page ${current.page}, HTML source`}>
          <pre class="text-source">{current.html.slice(0, MAX_SOURCE_CHARS)}</pre>
        </section>
      )}
    </section>
  );
};

const PageText = ({ html, label, locator }: { html: string; label: string; locator: string | null }) => {
  const container = useRef<HTMLElement>(null);
  const [outline, setOutline] = useState<Outline | null>(null);
  const [error, setError] = useState<string | null>(null);

  // The HTML parser is loaded with the first web page shown (as pdf.js with the first PDF).
  useEffect(() => {
    let cancelled = false;
    import('./page-outline')
      .then((lib) => !cancelled && setOutline(lib.outlineOf(html, locator, MAX_LINES)))
      .catch((e: unknown) => !cancelled && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      cancelled = true;
    };
  }, [html, locator]);

  useEffect(() => {
    container.current?.querySelector('.located')?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [outline]);

  if (error) return <p class="error">This page could not be shown as text: {error}</p>;
  if (!outline) return <p class="muted">Reading the page…</p>;
  return (
    <>
      {locator && (
        <p class="locator" role="status">
          Element <code>{locator}</code>
          {outline.found ? ' is marked below.' : ' was not found on this page.'}
        </p>
      )}
      <section class="page-text" ref={container} aria-label={label}>
        {outline.lines.length === 0 && <p class="muted">This page has no text.</p>}
        {outline.lines.map((line, i) => (
          <p
            key={i}
            class={`${line.heading ? 'page-heading' : ''}${line.marked ? ' located' : ''}`}
            data-located={line.marked ? 'true' : undefined}
          >
            {line.text}
          </p>
        ))}
        {outline.truncated && <p class="muted">Only the first {MAX_LINES} blocks of text are shown.</p>}
      </section>
    </>
  );
};
