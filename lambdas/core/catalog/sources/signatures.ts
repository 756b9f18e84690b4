import type { ImageFormat, PhotoFormat } from '../drafts/ports';

/** Magic bytes of the binary formats a source or an image may be in. */

export const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

export const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** True when the bytes hold `text` (ASCII) anywhere: names and media types a ZIP stores uncompressed. */
export const containsAscii = (bytes: Uint8Array, text: string): boolean =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(text, 0, 'latin1');

/** The image format named by a file's magic bytes, for the four formats SPEC 5.2 accepts. */
export const sniffImageFormat = (bytes: Uint8Array): ImageFormat | null => {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  return null;
};

/** HEIF brands (ISO/IEC 23008-12): HEVC-coded (`heic`…) and AV1-coded (`avif`); `mif1` alone says neither. */
const HEVC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
const AV1_BRANDS = new Set(['avif', 'avis']);

/** The brands of an ISO-BMFF `ftyp` box at the start of a file: the major one, then the compatible ones. */
const ftypBrands = (bytes: Uint8Array): string[] => {
  if (!startsWith(bytes, ascii('ftyp'), 4) || bytes.length < 16) return [];
  const size = Math.min(
    bytes.length,
    ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0,
  );
  const brand = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  const brands = [brand(8)];
  for (let at = 16; at + 4 <= size; at += 4) brands.push(brand(at));
  return brands;
};

/**
 * The format of a photo by its magic bytes: the four of `sniffImageFormat`, BMP, TIFF, and HEIF files told
 * apart by their brands (an iPhone's HEIC, an AVIF). Null for anything else (ICO, an MP4 video, text).
 */
export const sniffPhotoFormat = (bytes: Uint8Array): PhotoFormat | null => {
  const common = sniffImageFormat(bytes);
  if (common) return common;
  if (startsWith(bytes, ascii('BM'))) return 'bmp';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return 'tiff';
  const brands = ftypBrands(bytes);
  if (brands.some((b) => HEVC_BRANDS.has(b))) return 'heic';
  if (brands.some((b) => AV1_BRANDS.has(b))) return 'avif';
  return brands.includes('mif1') || brands.includes('msf1') ? 'heic' : null;
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
