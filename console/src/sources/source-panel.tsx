import { useEffect, useMemo, useState } from 'preact/hooks';
import type { OpsApi, SourceBytes } from '../api/client';
import { type Results, type SourceView, sourceName } from '../api/types';
import { type Box, Highlight } from './highlight';
import { HtmlView, type WebFocus } from './html-view';
import { PdfView } from './pdf-view';
import { decodeText, kindOf } from './source-kind';
import { TableView } from './table-view';

/**
 * What to show in the sources: an item's provenance (its page and box; a web page's element) or a warning's
 * place (its row in a table, its page in a PDF).
 */
export interface SourceFocus {
  readonly source_index?: number | null;
  readonly page?: number | null;
  readonly box?: Box | null;
  readonly method?: string;
  readonly url?: string | null;
  readonly locator?: string | null;
  /** A row as the service counts it (a spreadsheet's row number, header included). */
  readonly row?: number | null;
}

interface SourcePanelProps {
  readonly api: OpsApi;
  readonly sources: readonly SourceView[];
  /** How the service read each source (`results.sources[n]`): its text encoding, for one. */
  readonly results?: Results | null;
  /** What to show: its source is selected, and its page, box, row or element marked. */
  readonly focus: SourceFocus | null;
}

type Loaded =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'ready'; source: SourceBytes };

/** The job's sources beside the draft: one at a time, chosen with buttons, shown as the page can. */
export const SourcePanel = ({ api, sources, results, focus }: SourcePanelProps) => {
  const [selected, setSelected] = useState(0);
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const current = sources[selected];

  useEffect(() => {
    if (focus?.source_index !== undefined && focus.source_index !== null && sources[focus.source_index]) {
      setSelected(focus.source_index);
    }
  }, [focus]);

  useEffect(() => {
    if (!current) return;
    if (current.viewable === false) {
      setLoaded({ state: 'error', message: 'The service kept no copy of this source to show.' });
      return;
    }
    let cancelled = false;
    setLoaded({ state: 'loading' });
    api.source(current.view_path).then(
      (source) => !cancelled && setLoaded({ state: 'ready', source }),
      (error: unknown) =>
        !cancelled &&
        setLoaded({
          state: 'error',
          message: error instanceof Error ? error.message : 'The source could not be loaded.',
        }),
    );
    return () => {
      cancelled = true;
    };
  }, [current?.view_path]);

  if (sources.length === 0) return <p class="muted">This job has no catalog source.</p>;
  const focused = focus && (focus.source_index ?? 0) === selected ? focus : null;
  const highlight = focused?.page ? { page: focused.page, box: focused.box ?? null } : null;
  const web: WebFocus | null =
    focused?.method === 'html'
      ? { page: focused.page ?? 1, url: focused.url ?? null, locator: focused.locator ?? null }
      : null;
  return (
    <div class="source-panel">
      {sources.length > 1 && (
        <fieldset class="source-tabs">
          <legend class="visually-hidden">Sources</legend>
          {sources.map((s, i) => (
            <button
              key={s.index}
              type="button"
              aria-pressed={i === selected ? 'true' : 'false'}
              onClick={() => setSelected(i)}
            >
              {i + 1}. {sourceName(s)}
            </button>
          ))}
        </fieldset>
      )}
      {current && (
        <p class="source-name">
          Source {selected + 1}: <span class="break">{sourceName(current)}</span>
          {current.filename && <span class="muted"> (uploaded file {current.source})</span>}
        </p>
      )}
      {loaded.state === 'loading' && <p class="muted">Loading the source…</p>}
      {loaded.state === 'error' && <p class="error">{loaded.message}</p>}
      {loaded.state === 'ready' && current && (
        <SourceContent
          source={loaded.source}
          view={current}
          index={selected}
          highlight={highlight}
          web={web}
          row={focused?.row ?? null}
          encoding={results?.sources?.[selected]?.encoding ?? null}
        />
      )}
    </div>
  );
};

interface SourceContentProps {
  readonly source: SourceBytes;
  readonly view: SourceView;
  readonly index: number;
  readonly highlight: { page: number; box: Box | null } | null;
  readonly web: WebFocus | null;
  readonly row: number | null;
  /** The encoding the service read the text in (`results.sources[n].encoding`), when it says. */
  readonly encoding: string | null;
}

const SourceContent = ({ source, view, index, highlight, web, row, encoding }: SourceContentProps) => {
  const name = view.filename ?? view.source;
  const bytes = useMemo(() => new Uint8Array(source.bytes), [source]);
  const kind = kindOf(source.contentType, name, bytes, view.format);
  const blobUrl = useMemo(
    () => URL.createObjectURL(new Blob([source.bytes], { type: source.contentType })),
    [source],
  );
  useEffect(() => () => URL.revokeObjectURL(blobUrl), [blobUrl]);
  const label = `Source ${index + 1}`;
  if (kind === 'pdf') return <PdfView bytes={source.bytes} label={label} highlight={highlight} />;
  if (kind === 'image') {
    return (
      <figure class="image-source">
        <div class="page-frame">
          <img src={blobUrl} alt={`${label}: ${sourceName(view)}`} />
          {highlight?.box && <Highlight box={highlight.box} />}
        </div>
      </figure>
    );
  }
  if (kind === 'html') {
    return <HtmlView bytes={source.bytes} label={label} pages={view.web_pages} focus={web} />;
  }
  if (kind === 'table') {
    return <TableView text={decodeText(bytes, encoding)} label={label} highlightRow={row} />;
  }
  if (kind === 'text') {
    return (
      <section aria-label={label}>
        <pre class="text-source">{decodeText(bytes.subarray(0, 512 * 1024), encoding)}</pre>
      </section>
    );
  }
  return (
    <p>
      This source ({source.contentType}) cannot be shown in the page.{' '}
      <a href={blobUrl} download={sourceName(view)}>
        Download it
      </a>{' '}
      to open it with another program.
    </p>
  );
};
