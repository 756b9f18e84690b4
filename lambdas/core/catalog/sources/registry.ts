import { CatalogSourceError } from '../errors';
import { csvReader } from './csv';
import { htmlReader } from './html';
import { imageReader } from './image';
import { jsonReader } from './json';
import { pdfReader } from './pdf';
import { isOle } from './signatures';
import type { SourceReader } from './types';
import { xlsxReader } from './xlsx';
import { xmlReader } from './xml';

/**
 * Every source format the service recognises, in detection order (sources/detect.ts): binary signatures
 * are tried in this order, then content types and extensions, then each text format's sniff. A new format
 * is one file exporting a `SourceReader`, listed here.
 */

/**
 * What nothing else claims: a legacy binary `.xls`, a word-processor file, binary data. SPEC 5.2: a source
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
        : 'the source is in a format the service does not read (CSV, TSV, XLSX, JSON, XML feeds, PDF, images, web pages are read)',
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
  xmlReader,
  csvReader,
];
