import { parse } from 'csv-parse/browser/esm/sync';
import { useEffect, useRef } from 'preact/hooks';

/** At most this many rows are shown (a reviewer compares; the service reads them all). */
export const MAX_TABLE_ROWS = 1000;

const delimiterOf = (firstLine: string): string => {
  const counts = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length] as const);
  return counts.sort((a, b) => b[1] - a[1])[0]![0];
};

export const parseTable = (text: string): string[][] => {
  const firstLine = text.slice(0, text.indexOf('\n') >>> 0);
  try {
    return parse(text, {
      delimiter: delimiterOf(firstLine),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      bom: true,
      to: MAX_TABLE_ROWS + 1,
    }) as string[][];
  } catch {
    return text
      .split(/\r?\n/)
      .slice(0, MAX_TABLE_ROWS + 1)
      .map((line) => [line]);
  }
};

/** A CSV/TSV source as a table, its first row as the header; row numbers as the service counts them. */
export const TableView = ({
  text,
  label,
  highlightRow,
}: {
  text: string;
  label: string;
  highlightRow?: number | null;
}) => {
  const rows = parseTable(text);
  const [header = [], ...body] = rows;
  const width = Math.max(header.length, ...body.map((r) => r.length));
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (highlightRow) section.current?.querySelector('tr.highlight')?.scrollIntoView({ block: 'center' });
  }, [highlightRow, text]);
  return (
    <section class="table-source" aria-label={label} ref={section}>
      <table class="grid source-table">
        <thead>
          <tr>
            <th scope="col">Row</th>
            {Array.from({ length: width }, (_, i) => (
              <th scope="col" key={i}>
                {header[i] ?? ''}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {body.slice(0, MAX_TABLE_ROWS).map((row, r) => (
            <tr
              key={r}
              class={highlightRow === r + 2 ? 'highlight' : undefined}
              aria-current={highlightRow === r + 2 ? 'true' : undefined}
            >
              <th scope="row">{r + 2}</th>
              {Array.from({ length: width }, (_, i) => (
                <td key={i}>{row[i] ?? ''}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {body.length > MAX_TABLE_ROWS && <p class="muted">Only the first {MAX_TABLE_ROWS} rows are shown.</p>}
    </section>
  );
};
