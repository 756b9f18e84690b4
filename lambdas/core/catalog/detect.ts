/**
 * Source format detection (SPEC 5.2) from the bytes first, then the declared content type, then the file
 * name. Binary signatures win because servers often label files `application/octet-stream` or
 * `text/plain`, and a mislabelled PDF must never be parsed as CSV.
 */

export const SOURCE_FORMATS = ['csv', 'json', 'xlsx', 'pdf', 'image', 'unknown'] as const;
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

/** Formats the service reads by machine; the others go to an operator (job state `in_review`). */
export const MACHINE_READABLE_FORMATS: ReadonlySet<SourceFormat> = new Set<SourceFormat>(['csv', 'json']);

/** True when the service can build a catalog from this format without a person. */
export const isMachineReadable = (format: SourceFormat): boolean => MACHINE_READABLE_FORMATS.has(format);

export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp';

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** The image format named by a file's magic bytes, for the four formats SPEC 5.2 accepts. */
export const sniffImageFormat = (bytes: Uint8Array): ImageFormat | null => {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  return null;
};

/** Other image (and image-like) signatures: still "an image", to be looked at by a person. */
const OTHER_IMAGE_SIGNATURES: readonly (readonly number[])[] = [
  ascii('BM'),
  [0x49, 0x49, 0x2a, 0x00],
  [0x4d, 0x4d, 0x00, 0x2a],
  [0x00, 0x00, 0x01, 0x00],
];

const sniffBinary = (head: Uint8Array): SourceFormat | null => {
  if (startsWith(head, ascii('%PDF-'))) return 'pdf';
  if (sniffImageFormat(head) !== null) return 'image';
  if (startsWith(head, ascii('ftyp'), 4)) return 'image'; // HEIC / AVIF
  if (OTHER_IMAGE_SIGNATURES.some((s) => startsWith(head, s))) return 'image';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'xlsx'; // a ZIP: XLSX is the only zip we expect
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'unknown'; // legacy .xls
  return null;
};

const fromContentType = (contentType: string | null | undefined): SourceFormat | null => {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json' || type.endsWith('+json') || type === 'text/json') return 'json';
  if (type === 'text/csv' || type === 'text/tab-separated-values' || type === 'application/csv') return 'csv';
  if (type === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet') return 'xlsx';
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('image/')) return 'image';
  return null;
};

const EXTENSIONS: Readonly<Record<string, SourceFormat>> = {
  csv: 'csv',
  tsv: 'csv',
  tab: 'csv',
  json: 'json',
  xlsx: 'xlsx',
  pdf: 'pdf',
  jpg: 'image',
  jpeg: 'image',
  png: 'image',
  gif: 'image',
  webp: 'image',
  heic: 'image',
  tif: 'image',
  tiff: 'image',
  bmp: 'image',
};

const fromName = (name: string | null | undefined): SourceFormat | null => {
  if (!name) return null;
  let path = name;
  if (/^https?:\/\//i.test(name) && URL.canParse(name)) path = new URL(name).pathname;
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(path)?.[1]?.toLowerCase();
  return extension === undefined ? null : (EXTENSIONS[extension] ?? null);
};

const looksLikeText = (head: Uint8Array): boolean => {
  if (head.includes(0)) return false;
  try {
    // A multi-byte character cut at the end of the sniffed bytes is fine: drop the last 3 bytes.
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, Math.max(0, head.length - 3)));
    return true;
  } catch {
    return false;
  }
};

const sniffText = (head: Uint8Array): SourceFormat | null => {
  if (!looksLikeText(head)) return null;
  const text = Buffer.from(head)
    .toString('utf8')
    .replace(/^\ufeff/, '')
    .trimStart();
  if (text.startsWith('{') || text.startsWith('[')) return 'json';
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  if (/[,;\t]/.test(firstLine)) return 'csv';
  return null;
};

export interface DetectFormatInput {
  /** The first bytes of the source (a few KB is plenty). */
  readonly head: Uint8Array;
  /** Content-Type of the HTTP response or the uploaded file. */
  readonly contentType?: string | null;
  /** File name or URL: its extension is a hint. */
  readonly name?: string | null;
}

/**
 * Detects a source's format: binary signatures (PDF, images, ZIP/XLSX) first, then a specific content
 * type, then the file extension, then a look at the text (JSON starts with `{` or `[`, CSV has a
 * delimiter in its first line). Anything else is `unknown`: not machine-readable.
 *
 * @example detectFormat({ head: Buffer.from('%PDF-1.7'), contentType: 'text/csv' }) // 'pdf'
 */
export const detectFormat = (input: DetectFormatInput): SourceFormat => {
  const binary = sniffBinary(input.head);
  if (binary !== null) return binary;
  const declared = fromContentType(input.contentType) ?? fromName(input.name);
  if (declared === 'csv' || declared === 'json') {
    // A text format must look like text; trust the label over the sniff between CSV and JSON.
    return looksLikeText(input.head) ? declared : 'unknown';
  }
  if (declared !== null) return declared === 'xlsx' ? 'unknown' : declared;
  return sniffText(input.head) ?? 'unknown';
};
