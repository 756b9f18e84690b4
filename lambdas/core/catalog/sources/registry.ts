import { CatalogSourceError } from '../errors';
import { csvReader } from './csv';
import { htmlReader } from './html';
import { imageReader } from './image';
import { jsonReader } from './json';
import { numbersReader, odsReader, xlsReader } from './legacy-workbook';
import { pdfReader } from './pdf';
import type { SourceReader } from './types';
import { xlsxReader } from './xlsx';
import { xmlReader } from './xml';

/**
 * Every source format the service recognises, in detection order (sources/detect.ts): binary signatures
 * are tried in this order, then content types and extensions, then each text format's sniff. A new format
 * is one file exporting a `SourceReader`, listed here.
 */

/**
 * What nothing else claims: a word-processor file, an archive, binary data. SPEC 5.2: a source in an
 * unknown format cannot be read; the job fails unless other sources gave items.
 */
export const unknownReader: SourceReader = {
  format: 'unknown',
  textual: false,
  read: async () => {
    throw new CatalogSourceError(
      'the source is in a format the service does not read (CSV, TSV, XLSX, XLS, ODS, Numbers, JSON, XML feeds, PDF, images and web pages are read)',
      'source_unreadable',
    );
  },
};

export const SOURCE_READERS: readonly SourceReader[] = [
  pdfReader,
  imageReader,
  odsReader,
  numbersReader,
  xlsxReader,
  xlsReader,
  jsonReader,
  htmlReader,
  xmlReader,
  csvReader,
];
