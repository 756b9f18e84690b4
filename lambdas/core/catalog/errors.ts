import { DomainError } from '../errors';

/**
 * Errors of catalog building. `code` is a stable snake_case reason the job worker copies into the job's
 * problem object (SPEC 5.2: a source that cannot be read fails the job with a clear error).
 */

export type CatalogErrorCode =
  | 'source_unreadable'
  | 'missing_columns'
  | 'invalid_document'
  | 'too_many_items';

export class CatalogError extends DomainError {
  constructor(
    message: string,
    readonly code: CatalogErrorCode,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A source cannot be read as the format it claims or was detected as (bad JSON, missing columns, ...). */
export class CatalogSourceError extends CatalogError {
  constructor(
    message: string,
    code: Exclude<CatalogErrorCode, 'too_many_items'> = 'source_unreadable',
    options?: { cause?: unknown },
  ) {
    super(message, code, options);
  }
}

/** The catalog would exceed SPEC 9's 200,000 items. */
export class CatalogLimitError extends CatalogError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'too_many_items', options);
  }
}
