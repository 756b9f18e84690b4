import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type CsvError, parse } from 'csv-parse';
import { peekStream } from './bytes';
import { CatalogSourceError } from './errors';
import { type ByteStream, normaliseColumnName, type SourceRow } from './rows';

export type CsvDelimiter = ',' | ';' | '\t';
const DELIMITERS: readonly CsvDelimiter[] = [',', ';', '\t'];

/** How many bytes are looked at to find the header row's delimiter. */
const SNIFF_BYTES = 64 * 1024;

/**
 * Picks the delimiter of a CSV from its header row: the most frequent of `,` `;` and tab outside quotes,
 * `,` on a tie or when there is none.
 *
 * @example detectDelimiter('name;price;"a,b"\n') // ';'
 */
export const detectDelimiter = (text: string): CsvDelimiter => {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of text.replace(/^\ufeff/, '')) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best: CsvDelimiter = ',';
  for (const delimiter of DELIMITERS) {
    if ((counts.get(delimiter) ?? 0) > (counts.get(best) ?? 0)) best = delimiter;
  }
  return best;
};

export interface CsvTable {
  readonly delimiter: CsvDelimiter;
  /** Normalised header names in file order; a blank header is `''`. */
  readonly columns: readonly string[];
  /** Data rows; iterate once. Breaking out of the loop stops reading the source. */
  readonly rows: AsyncIterable<SourceRow>;
  /** Stops reading the source without iterating the rows (e.g. when the header is unusable). */
  close(): Promise<void>;
}

export interface CsvRowProblem {
  readonly row: number;
  readonly message: string;
}

export interface ReadCsvOptions {
  /** Rows the parser had to skip (an unclosed quote at the end of the file), reported in row order. */
  readonly onProblem?: (problem: CsvRowProblem) => void;
}

/**
 * Reads a CSV as a stream of rows (SPEC 5.2): UTF-8 with or without BOM, `,` `;` or tab detected from the
 * header row, quoted fields with embedded delimiters, newlines and doubled quotes, CRLF or LF, blank lines
 * skipped, whitespace around fields trimmed. A stray quote inside an unquoted field (`12" pizza`) is kept
 * as text. Memory stays flat: rows are parsed as bytes arrive, with back-pressure on the source.
 *
 * Throws CatalogSourceError when there is no header row.
 *
 * @example
 * const table = await readCsv(fs.createReadStream('menu.csv'));
 * for await (const { row, values } of table.rows) console.log(row, values.get('name'));
 */
export const readCsv = async (source: ByteStream, options: ReadCsvOptions = {}): Promise<CsvTable> => {
  const peeked = await peekStream(source, SNIFF_BYTES);
  const delimiter = detectDelimiter(peeked.head.toString('utf8'));
  const parser = parse({
    delimiter,
    bom: true,
    trim: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
  });
  const pending: CsvRowProblem[] = [];
  parser.on('skip', (error: CsvError & { records?: number; lines?: number }) => {
    pending.push({
      row: (error.records ?? 0) + 1,
      message:
        error.code === 'CSV_QUOTE_NOT_CLOSED'
          ? `a quoted field opened on or before line ${error.lines ?? '?'} is never closed; the rest of the file is skipped`
          : `unreadable CSV record: ${error.message}`,
    });
  });
  // Errors of the source surface through the parser's iteration; the pipeline's own promise only
  // duplicates them (or reports that the consumer stopped early), so it is deliberately not awaited.
  pipeline(Readable.from(peeked.stream, { objectMode: false }), parser).catch(() => undefined);

  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  const first = await records.next();
  const flush = (beforeRow: number) => {
    while (pending.length > 0 && (pending[0]?.row ?? 0) <= beforeRow) {
      const problem = pending.shift();
      if (problem) options.onProblem?.(problem);
    }
  };
  if (first.done) {
    flush(Number.POSITIVE_INFINITY);
    throw new CatalogSourceError('the CSV is empty: a header row is required', 'missing_columns');
  }
  const columns = first.value.map(normaliseColumnName);

  async function* rows(): AsyncGenerator<SourceRow> {
    // Record numbers: the header is 1. A record skipped by the parser (only an unclosed quote at the very
    // end) takes no number, which cannot shift the rows before it.
    let row = 1;
    try {
      for (;;) {
        const next = await records.next();
        if (next.done) break;
        row += 1;
        flush(row);
        const values = new Map<string, string>();
        const record = next.value;
        for (let index = 0; index < record.length; index += 1) {
          const column = columns[index];
          // The first of two same-named columns wins; unnamed columns are ignored.
          if (column && !values.has(column)) values.set(column, record[index] as string);
        }
        yield { row, values };
      }
      flush(Number.POSITIVE_INFINITY);
    } finally {
      await records.return?.();
    }
  }
  return {
    delimiter,
    columns,
    rows: rows(),
    close: async () => {
      await records.return?.();
    },
  };
};
