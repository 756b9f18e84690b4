/** Shapes shared by the source readers and the catalog builder. */

/** A problem with one row (or one field) of a source: the row is skipped or the field dropped, never fatal. */
export interface RowWarning {
  /** The catalog source as the job names it (URL or file id), or `client_mappings` / `image_sources`. */
  readonly source: string;
  /** 1-based row: in CSV the record number with the header as row 1 (a spreadsheet's numbering); in a JSON array the element's position. */
  readonly row: number | null;
  /** The column (normalised header name) or field the warning is about. */
  readonly column: string | null;
  readonly message: string;
}

export type CellValue = string | number | boolean | null;

/** One data row, keyed by normalised column name (see `normaliseColumnName`). */
export interface SourceRow {
  readonly row: number;
  readonly values: ReadonlyMap<string, CellValue>;
}

/** Bytes as a source yields them: a Node Readable, a fetch body, or the OutboundResponse body. */
export type ByteStream = AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;

/**
 * Header names are matched case-insensitively, ignoring surrounding space; inner spaces and dashes become
 * underscores, so `Modifier Group`, `modifier-group` and `MODIFIER_GROUP` are the same column.
 */
export const normaliseColumnName = (name: string): string =>
  name
    .replace(/^\ufeff/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
