/** The formats a catalog source is read as (`results.sources[].format`, SPEC 5.2); `unknown` when none. */
export const SOURCE_FORMATS = [
  'csv',
  'xlsx',
  'xls',
  'ods',
  'numbers',
  'json',
  'xml',
  'pdf',
  'image',
  'html',
  'unknown',
] as const;
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

/**
 * Text encodings a source may be in (SPEC 5.2: a BOM decides, else strict UTF-8, else Windows-1252; and
 * Shift_JIS, what Japanese Excel writes, when the bytes are plainly Japanese).
 */
export const TEXT_ENCODINGS = [
  'utf-8',
  'utf-16le',
  'utf-16be',
  'windows-1252',
  'shift_jis',
  'macintosh',
] as const;
export type TextEncoding = (typeof TEXT_ENCODINGS)[number];
