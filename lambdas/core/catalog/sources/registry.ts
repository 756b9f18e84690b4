import { CatalogSourceError } from '../errors';
import { csvReader } from './csv';
import { htmlReader } from './html';
import { imageReader } from './image';
import { jsonReader } from './json';
import { pdfReader } from './pdf';
import { isOle } from './signatures';
import type { SourceReader } from './types';
import { xlsxReader } from './xlsx';

/**
 * Every source format the service recognises, in detection order (sources/detect.ts): binary signatures
 * are tried in this order, then content types and extensions, then each text format's sniff. A new format
 * is one file exporting a `SourceReader`, listed here.
 */

/** An XML document (a Google Merchant Center or Meta RSS/Atom feed, …), by its first characters. */
const isXml = (head: Uint8Array): boolean =>
  /^(?:\ufeff)?\s*<(?:\?xml|rss\b|feed\b)/i.test(Buffer.from(head.subarray(0, 256)).toString('utf8'));

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
        : isXml(source.head)
          ? 'the source is XML (such as an RSS or Atom product feed), which the service does not read: ' +
            'send it as CSV or tab-separated text (TSV) with one column per attribute'
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
