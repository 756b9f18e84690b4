import {
  type CatalogDocumentV1 as CatalogDocument,
  parseCatalogDocumentV1 as parseCatalogDocument,
} from './document-v1';
import { CatalogSourceError } from './errors';
import { type CellValue, normaliseColumnName, type SourceRow } from './rows';

export type JsonSource =
  | { readonly kind: 'document'; readonly document: CatalogDocument }
  | { readonly kind: 'rows'; readonly rows: readonly SourceRow[] };

const cell = (value: unknown): CellValue | undefined => {
  if (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean'
  ) {
    return value;
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return value.join('|'); // `tags: ["vegan", "spicy"]` means the same as the CSV's `vegan|spicy`
  }
  return undefined;
};

/**
 * Reads a JSON source (SPEC 5.2): a catalog document of SPEC 5.5 (recognised by `format_version`), or an
 * array of row objects with the CSV columns. Row objects' keys are matched like CSV headers; an element
 * that is not an object becomes a row without values (and so a warning downstream). Row numbers are the
 * 1-based positions in the array.
 *
 * Throws CatalogSourceError for invalid JSON, an invalid document, or any other top-level shape.
 */
export const parseJsonSource = (bytes: Uint8Array): JsonSource => {
  let value: unknown;
  try {
    value = JSON.parse(
      Buffer.from(bytes)
        .toString('utf8')
        .replace(/^\ufeff/, ''),
    );
  } catch (error) {
    throw new CatalogSourceError(
      `the source is not valid JSON: ${(error as Error).message}`,
      'source_unreadable',
      {
        cause: error,
      },
    );
  }
  if (Array.isArray(value)) {
    const rows = value.map((element, index): SourceRow => {
      const values = new Map<string, CellValue>();
      if (element !== null && typeof element === 'object' && !Array.isArray(element)) {
        for (const [key, raw] of Object.entries(element)) {
          const column = normaliseColumnName(key);
          const converted = cell(raw);
          if (column && converted !== undefined && !values.has(column)) values.set(column, converted);
        }
      }
      return { row: index + 1, values };
    });
    return { kind: 'rows', rows };
  }
  if (value !== null && typeof value === 'object' && 'format_version' in value) {
    const parsed = parseCatalogDocument(value);
    if (parsed.ok) return { kind: 'document', document: parsed.document };
    const shown = parsed.errors
      .slice(0, 5)
      .map((e) => `${e.pointer || '/'}: ${e.message}`)
      .join('; ');
    const more = parsed.errors.length > 5 ? ` (and ${parsed.errors.length - 5} more)` : '';
    throw new CatalogSourceError(`the catalog document is invalid: ${shown}${more}`, 'invalid_document');
  }
  throw new CatalogSourceError(
    'a JSON source must be a catalog document (with format_version) or an array of row objects',
    'source_unreadable',
  );
};
