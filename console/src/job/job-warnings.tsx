import { warningPlace } from '../../../lambdas/core/catalog/warnings';
import { type Results, type SourceView, sourceName, type Warning, withFileNames } from '../api/types';
import type { SourceFocus } from '../sources/source-panel';

/** Places listed per code; the rest are counted. */
const PLACES_PER_CODE = 12;

/** Where a warning is, in words: `sheet Items · row 7 · column UPC`, `page 2`, or `the whole source`. */
export const placeOf = (w: Warning): string => warningPlace(w, ' · ') || 'the whole source';

/** The warnings by code, the most frequent first, each list in the order the service reported them. */
export const groupWarnings = (warnings: readonly Warning[]): [string, Warning[]][] => {
  const byCode = new Map<string, Warning[]>();
  for (const w of warnings) byCode.set(w.code, [...(byCode.get(w.code) ?? []), w]);
  return [...byCode].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
};

interface JobWarningsProps {
  readonly results: Results | null;
  readonly sources: readonly SourceView[];
  /** Shows a warning's place in the sources (its row in a table, its page in a PDF). */
  readonly onShow: (place: SourceFocus) => void;
}

/**
 * What the machine could not use as it was (SPEC 5.2 "nothing is lost silently"), beside the draft: the
 * job's `results.warnings` grouped by code, each with its message, its source by name and its place (sheet,
 * row, column, page), a button showing the place in the source. A blank price in the draft usually has its
 * reason here (`not_a_price`: `2 for $25`).
 */
export const JobWarnings = ({ results, sources, onShow }: JobWarningsProps) => {
  const warnings = results?.warnings ?? [];
  const total = results?.warning_count ?? warnings.length;
  if (total === 0) return null;
  const indexOf = new Map(sources.map((s) => [s.source, s.index]));
  const nameOf = (source: string) => {
    const view = sources.find((s) => s.source === source);
    return view ? `source ${view.index + 1}, ${sourceName(view)}` : source;
  };
  return (
    <section class="job-warnings" aria-labelledby="warnings-heading">
      <h3 id="warnings-heading">
        {total === 1 ? '1 warning' : `${total} warnings`} from reading the sources
        {total > warnings.length && <span class="muted"> (the first {warnings.length} are listed)</span>}
      </h3>
      {groupWarnings(warnings).map(([code, list]) => (
        <details key={code} class="warning-group" open={list.length <= 3}>
          <summary>
            <code>{code}</code> × {list.length}
            {list.length === 1 && <>: {withFileNames(list[0]!.message, sources)}</>}
          </summary>
          <ul>
            {list.slice(0, PLACES_PER_CODE).map((w, i) => {
              const index = indexOf.get(w.source);
              const focusable = index !== undefined && (w.row || w.page);
              return (
                <li key={i}>
                  <span class="muted">{nameOf(w.source)}</span> · {placeOf(w)}
                  {list.length > 1 && <> — {withFileNames(w.message, sources)}</>}{' '}
                  {focusable && (
                    <button
                      type="button"
                      class="link"
                      onClick={() =>
                        onShow({ source_index: index, row: w.row ?? null, page: w.page ?? null })
                      }
                    >
                      Show in source
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
          {list.length > PLACES_PER_CODE && <p class="muted">… and {list.length - PLACES_PER_CODE} more.</p>}
        </details>
      ))}
    </section>
  );
};
