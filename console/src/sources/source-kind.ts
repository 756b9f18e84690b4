import { TEXT_ENCODINGS } from '../../../lambdas/core/schemas/source-formats';

/**
 * How a source is shown, from the format the service read it as, its content type (what the service
 * answered) and its name. A web page (`html`) is shown as text, never rendered (html-view.tsx).
 */
export type SourceKind = 'pdf' | 'image' | 'table' | 'html' | 'text' | 'other';

const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp|avif|bmp)$/i;

export const kindOf = (
  contentType: string,
  name: string,
  bytes: Uint8Array,
  format?: string | null,
): SourceKind => {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const lower = name.toLowerCase().split('?')[0]!;
  const head = String.fromCharCode(...bytes.subarray(0, 5));
  if (type === 'application/pdf' || head === '%PDF-') return 'pdf';
  if (format === 'html' || type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (IMAGE_TYPES.test(type)) return 'image';
  if (/^(text\/(csv|tab-separated-values))$/.test(type) || /\.(csv|tsv|txt)$/.test(lower)) return 'table';
  if (
    format === 'json' ||
    format === 'xml' ||
    /^application\/(?:[\w.+-]+\+)?(?:json|xml)$/.test(type) ||
    type.startsWith('text/') ||
    /\.(?:json|xml)$/.test(lower)
  )
    return 'text';
  // Uploaded files are often stored as application/octet-stream: sniff the common image formats.
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image';
  if (head.startsWith('\x89PNG')) return 'image';
  return 'other';
};

/**
 * The encodings the service reads text in, by the names `results.sources[n].encoding` gives them: WHATWG
 * labels, which the browser's TextDecoder knows as they are.
 */
const SERVICE_ENCODINGS: ReadonlySet<string> = new Set(TEXT_ENCODINGS);

/**
 * Text as the service read it: in the encoding its results name (Shift_JIS, Mac Roman, UTF-16, …), a byte
 * order mark dropped; without one, a BOM decides, then strict UTF-8, else Windows-1252.
 */
export const decodeText = (bytes: Uint8Array, encoding?: string | null): string => {
  const label = encoding?.toLowerCase();
  if (label && SERVICE_ENCODINGS.has(label)) {
    // TextDecoder drops the BOM of the encoding it decodes (ignoreBOM false).
    return new TextDecoder(label).decode(bytes);
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
};
