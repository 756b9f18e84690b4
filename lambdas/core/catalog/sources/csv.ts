import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type CsvError, type Options, parse } from 'csv-parse';
import type { TextEncoding } from '../../schemas/source-formats';
import { peekStream } from '../bytes';
import { CatalogSourceError } from '../errors';
import { unmarkText } from '../formula-text';
import { encodingFallbackWarning, toUtf8 } from './encoding';
import { MAX_SHEET_COLUMNS } from './sheet-bounds';
import type { ReadContext, SourceReader, Table, TableRow } from './types';

/**
 * CSV, TSV and semicolon-separated text (SPEC 5.2): any of the encodings of encoding.ts, the delimiter
 * (`,` `;` tab `|`) taken from the header row, quoted fields with delimiters, newlines and doubled quotes
 * inside, CRLF or LF, a stray quote in an unquoted field (`12" pizza`) kept as text, rows of any length,
 * and the apostrophe a spreadsheet exporter puts before text beginning with `=` `+` `-` `@` taken off
 * (formula-text.ts).
 * Rows are parsed as the bytes arrive, with back-pressure: memory does not grow with the file.
 *
 * Row numbers are what a spreadsheet shows: the first line is row 1 and blank lines count.
 */

export type CsvDelimiter = ',' | ';' | '\t' | '|';
const DELIMITERS: readonly CsvDelimiter[] = [',', ';', '\t', '|'];

/** How much decoded text is looked at to find the header row's delimiter. */
const SNIFF_BYTES = 64 * 1024;

/** csv-parse options of the reader (the benchmark tokenises with the same). */
export const csvParseOptions = (delimiter: CsvDelimiter): Options => ({
  delimiter,
  bom: true,
  trim: true,
  relax_quotes: true,
  relax_column_count: true,
  skip_empty_lines: false,
  skip_records_with_error: true,
});

/**
 * The delimiter of a header row: the most frequent of `,` `;` tab `|` outside quotes in the first line,
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

export interface CsvRowsOptions {
  readonly encoding: TextEncoding;
  /** Told the delimiter once it is known. */
  readonly onDelimiter?: (delimiter: CsvDelimiter) => void;
  /** A record the parser could not read (an unclosed quote at the end of the file). */
  readonly onProblem?: (row: number, message: string) => void;
  /** UTF-8 text with bytes that are not UTF-8 (read as Windows-1252). */
  readonly onFallback?: (offset: number) => void;
  /** Columns a line may have (MAX_SHEET_COLUMNS): a line of more is not a catalog and would be held whole by the parser. */
  readonly maxColumns?: number;
}

/**
 * The text as it streams, stopped with `source_too_large` at a line of more than `max` columns: delimiters
 * outside quotes are counted per line, so that 100 MB of commas cannot become one record of 100 million
 * fields (which exhausts the heap before the parser hands it over).
 */
async function* boundedColumns(
  chunks: AsyncIterable<Buffer>,
  delimiter: CsvDelimiter,
  max: number,
): AsyncGenerator<Buffer> {
  const separator = delimiter.charCodeAt(0);
  let quoted = false;
  let count = 0;
  for await (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i += 1) {
      const byte = chunk[i];
      if (byte === 0x22) quoted = !quoted;
      else if (quoted) continue;
      else if (byte === separator) {
        count += 1;
        if (count >= max)
          throw new CatalogSourceError(
            `a line of the source has more than ${max.toLocaleString('en-US')} columns, more than a sheet may have`,
            'source_too_large',
          );
      } else if (byte === 0x0a || byte === 0x0d) count = 0;
    }
    yield chunk;
  }
}

/**
 * Parses CSV bytes into rows of text cells, blank rows included (as one empty cell), in batches: every
 * record the parser has ready is taken at once, so the consumer awaits once per chunk of input.
 */
export async function* csvRows(
  bytes: AsyncIterable<Buffer>,
  options: CsvRowsOptions,
): AsyncGenerator<TableRow[]> {
  const text = toUtf8(bytes, options.encoding, { onFallback: options.onFallback });
  const peeked = await peekStream(text, SNIFF_BYTES);
  const delimiter = detectDelimiter(peeked.head.toString('utf8'));
  options.onDelimiter?.(delimiter);
  const parser = parse(csvParseOptions(delimiter));
  let row = 0;
  let skipped = 0;
  parser.on('skip', (error: CsvError & { records?: number; lines?: number }) => {
    // The parser reads ahead of the rows consumed: number the skipped record from the parser's own count.
    skipped += 1;
    options.onProblem?.(
      (error.records ?? 0) + skipped,
      error.code === 'CSV_QUOTE_NOT_CLOSED'
        ? `a quoted field opened on or before line ${error.lines ?? '?'} is never closed; the rest of the file is skipped`
        : `unreadable CSV record: ${error.message}`,
    );
  });
  let ended = false;
  let failure: unknown = null;
  parser.on('end', () => {
    ended = true;
  });
  parser.on('error', (error) => {
    failure = error;
  });
  // Errors of the source reach the parser (pipeline destroys it with them) and surface here.
  const bounded = boundedColumns(peeked.stream, delimiter, options.maxColumns ?? MAX_SHEET_COLUMNS);
  pipeline(Readable.from(bounded, { objectMode: false }), parser).catch((error: unknown) => {
    failure ??= error;
  });
  try {
    for (;;) {
      const batch: TableRow[] = [];
      for (
        let record = parser.read() as string[] | null;
        record !== null;
        record = parser.read() as string[] | null
      ) {
        row += 1;
        // An apostrophe before =, +, - or @ marks text for spreadsheets (ours, WooCommerce's): not the value's.
        for (let i = 0; i < record.length; i += 1) record[i] = unmarkText(record[i] as string);
        batch.push({ row, cells: record });
      }
      if (batch.length > 0) yield batch;
      if (failure !== null) throw failure;
      if (ended || parser.readableEnded) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          parser.off('readable', done);
          parser.off('end', done);
          parser.off('error', done);
          parser.off('close', done);
          resolve();
        };
        parser.once('readable', done);
        parser.once('end', done);
        parser.once('error', done);
        parser.once('close', done);
      });
    }
  } finally {
    parser.destroy();
    await peeked.close();
  }
}

const tables = (source: Parameters<SourceReader['read']>[0], ctx: ReadContext): Table[] => {
  const encoding = source.encoding ?? 'utf-8';
  ctx.describe({ encoding });
  return [
    {
      sheet: null,
      batches: csvRows(source.bytes, {
        encoding,
        onDelimiter: (delimiter) => ctx.describe({ delimiter }),
        onProblem: (row, message) => ctx.warn({ row, column: null, code: 'unreadable_record', message }),
        onFallback: (offset) => ctx.warn(encodingFallbackWarning(offset)),
      }),
    },
  ];
};

export const csvReader: SourceReader = {
  format: 'csv',
  textual: true,
  contentTypes: [
    'text/csv',
    'application/csv',
    'text/comma-separated-values',
    'text/tab-separated-values',
    'text/tsv',
    // What browsers label a .csv upload with on Windows; a real .xls is caught by its signature first.
    'application/vnd.ms-excel',
  ],
  extensions: ['csv', 'tsv', 'tab', 'txt'],
  sniffText: (text) => /[,;\t|]/.test(text.split(/\r?\n/, 1)[0] ?? ''),
  looseSniff: true,
  read: async (source, ctx) => ({ kind: 'tables', tables: tables(source, ctx) }),
};
