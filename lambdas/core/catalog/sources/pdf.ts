import { readDraftSource } from './draft-source';
import { isPdf } from './signatures';
import type { SourceReader } from './types';

/** PDF menus: the text layer (or OCR of scanned pages) drafted into dishes for review (SPEC 5.2). */
export const pdfReader: SourceReader = {
  format: 'pdf',
  textual: false,
  signature: isPdf,
  contentTypes: ['application/pdf'],
  extensions: ['pdf'],
  read: (source, ctx) => readDraftSource('pdf', 'a PDF menu', source, ctx),
};
