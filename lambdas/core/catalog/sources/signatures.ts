/** Magic bytes of the binary formats a source or an image may be in. */

export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp';

export const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

export const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** The image format named by a file's magic bytes, for the four formats SPEC 5.2 accepts. */
export const sniffImageFormat = (bytes: Uint8Array): ImageFormat | null => {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  return null;
};

/** Other image (and image-like) signatures: BMP, TIFF, ICO, and HEIC/AVIF (`ftyp` box). */
export const isOtherImage = (head: Uint8Array): boolean =>
  startsWith(head, ascii('BM')) ||
  startsWith(head, [0x49, 0x49, 0x2a, 0x00]) ||
  startsWith(head, [0x4d, 0x4d, 0x00, 0x2a]) ||
  startsWith(head, [0x00, 0x00, 0x01, 0x00]) ||
  startsWith(head, ascii('ftyp'), 4);

export const isPdf = (head: Uint8Array): boolean => startsWith(head, ascii('%PDF-'));

/** A ZIP archive: XLSX is the only one a catalog source is expected to be. */
export const isZip = (head: Uint8Array): boolean => startsWith(head, [0x50, 0x4b, 0x03, 0x04]);

/** The legacy OLE compound file (`.xls`, `.doc`): not read by machine. */
export const isOle = (head: Uint8Array): boolean =>
  startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
