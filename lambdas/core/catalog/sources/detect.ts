import type { TextEncoding } from '../../schemas/source-formats';
import { detectEncoding } from './encoding';
import type { SourceProbe, SourceReader } from './types';

/**
 * Source format detection (SPEC 5.2) over a list of readers: binary signatures first (a PDF labelled
 * `text/csv` is still a PDF), then the declared content type, then the file extension, then a look at the
 * decoded text (which overrules a label only when the text is plainly another format and not the labelled one). A text format must decode as text (SPEC 5.2 encodings); anything else is `unknown`.
 */

export interface Detection {
  readonly reader: SourceReader;
  /** For text formats: the encoding the source is decoded with. */
  readonly encoding: TextEncoding | null;
}

const mediaType = (contentType: string | null): string =>
  contentType?.split(';')[0]?.trim().toLowerCase() ?? '';

const extensionOf = (name: string | null): string | null => {
  if (!name) return null;
  let path = name;
  if (/^https?:\/\//i.test(name) && URL.canParse(name)) path = new URL(name).pathname;
  return /\.([A-Za-z0-9]{1,5})$/.exec(path)?.[1]?.toLowerCase() ?? null;
};

/** The start of decoded text, for `sniffText` (BOM and leading whitespace removed). */
const headText = (head: Uint8Array, encoding: TextEncoding, bomLength: number): string => {
  const body = Buffer.from(head.subarray(bomLength));
  if (encoding === 'utf-8') return body.toString('utf8').trimStart();
  if (encoding === 'utf-16le')
    return body
      .subarray(0, body.length & ~1)
      .toString('utf16le')
      .trimStart();
  if (encoding === 'utf-16be') {
    const even = Buffer.from(body.subarray(0, body.length & ~1));
    return even.swap16().toString('utf16le').trimStart();
  }
  return body.toString('latin1').trimStart();
};

/**
 * Picks the reader of a source. `unknown` is the reader used when nothing matches; `complete` says whether
 * `probe.head` is the whole source (a character cut at its end is then an error, not an artefact of the
 * cut).
 *
 * @example detectSource({ head: Buffer.from('%PDF-1.7'), contentType: 'text/csv', name: null }, readers, unknown)
 * // { reader: <the pdf reader>, encoding: null }
 */
export const detectSource = (
  probe: SourceProbe,
  readers: readonly SourceReader[],
  unknown: SourceReader,
  complete = false,
): Detection => {
  const byBytes = readers.find((r) => r.signature?.(probe.head));
  if (byBytes !== undefined) return { reader: byBytes, encoding: null };

  const text = detectEncoding(probe.head, complete);
  const type = mediaType(probe.contentType);
  const extension = extensionOf(probe.name);
  const declared =
    readers.find((r) => type !== '' && r.contentTypes?.includes(type)) ??
    readers.find((r) => extension !== null && r.extensions?.includes(extension));
  if (declared !== undefined && !declared.textual) return { reader: declared, encoding: null };
  // A text format must look like text.
  if (text === null) return { reader: unknown, encoding: null };
  const start = headText(probe.head, text.encoding, text.bomLength);
  const sniff = (reader: SourceReader): boolean => reader.textual && reader.sniffText?.(start) === true;
  if (declared !== undefined) {
    // Between text formats the label wins over the sniff, unless the text is plainly another format and
    // not the labelled one: an XML spreadsheet saved as `.xls` (labelled like a CSV by browsers), a feed
    // named `.txt`, an HTML error page served as JSON.
    const plainlyOther =
      declared.sniffText?.(start) === true ? undefined : readers.find((r) => !r.looseSniff && sniff(r));
    return { reader: plainlyOther ?? declared, encoding: text.encoding };
  }
  const sniffed = readers.find(sniff);
  return sniffed === undefined
    ? { reader: unknown, encoding: null }
    : { reader: sniffed, encoding: text.encoding };
};
