import { CatalogSourceError } from '../errors';
import { csvReader } from './csv';
import { htmlReader } from './html';
import { jsonReader } from './json';
import { reviewOnlyReader } from './review-only';
import { isOle, isOtherImage, isPdf, sniffImageFormat } from './signatures';
import type { SourceReader } from './types';
import { xlsxReader } from './xlsx';

/**
 * Every source format the service recognises, in detection order (sources/detect.ts): binary signatures
 * are tried in this order, then content types and extensions, then each text format's sniff. A new format
 * is one file exporting a `SourceReader`, listed here.
 */

export const pdfReader = reviewOnlyReader('pdf', {
  what: 'a PDF',
  signature: isPdf,
  contentTypes: ['application/pdf'],
  extensions: ['pdf'],
});

export const imageReader = reviewOnlyReader('image', {
  what: 'an image',
  signature: (head) => sniffImageFormat(head) !== null || isOtherImage(head),
  contentTypes: [
    'image/jpeg',
    'image/png',
    'image/gif',
    'image/webp',
    'image/heic',
    'image/heif',
    'image/tiff',
    'image/bmp',
    'image/avif',
  ],
  extensions: ['jpg', 'jpeg', 'png', 'gif', 'webp', 'heic', 'heif', 'tif', 'tiff', 'bmp', 'avif'],
});

export { htmlReader };

/**
 * What nothing else claims: a legacy `.xls`, XML, a word-processor file, binary data. SPEC 5.2: a source
 * in an unknown format cannot be read; the job fails unless other sources gave items.
 */
export const unknownReader: SourceReader = {
  format: 'unknown',
  textual: false,
  signature: isOle,
  read: async (source) => {
    throw new CatalogSourceError(
      isOle(source.head)
        ? 'the source is a legacy Excel (.xls) or Office file: save it as .xlsx or CSV'
        : 'the source is in a format the service does not read (CSV, TSV, XLSX, JSON, PDF, images are read)',
      'source_unreadable',
    );
  },
};

export const SOURCE_READERS: readonly SourceReader[] = [
  pdfReader,
  imageReader,
  xlsxReader,
  unknownReader,
  jsonReader,
  htmlReader,
  csvReader,
];
