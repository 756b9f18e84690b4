import { csvReader } from './csv';
import { imageReader } from './image';
import { jsonReader } from './json';
import { pdfReader } from './pdf';
import { reviewOnlyReader } from './review-only';
import { isOle } from './signatures';
import type { SourceReader } from './types';
import { xlsxReader } from './xlsx';

/**
 * Every source format the service recognises, in detection order (sources/detect.ts): binary signatures
 * are tried in this order, then content types and extensions, then each text format's sniff. A new format
 * is one file exporting a `SourceReader`, listed here.
 */

export const htmlReader = reviewOnlyReader('html', {
  what: 'a web page',
  textual: true,
  contentTypes: ['text/html', 'application/xhtml+xml'],
  extensions: ['html', 'htm'],
  sniffText: (text) => /^<(!doctype html|html|head|body)\b/i.test(text),
});

/** What nothing else claims: a legacy `.xls`, a word-processor file, binary data. */
export const unknownReader = reviewOnlyReader('unknown', {
  what: 'in a format the service does not read by machine',
  signature: isOle,
});

export const SOURCE_READERS: readonly SourceReader[] = [
  pdfReader,
  imageReader,
  xlsxReader,
  unknownReader,
  jsonReader,
  htmlReader,
  csvReader,
];
