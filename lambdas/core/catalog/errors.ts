import { DomainError } from '../errors';
import { LIMITS } from '../schemas/job';

/**
 * Errors of catalog building. `code` is a stable snake_case reason the job worker copies into the job's
 * problem object (SPEC 5.2: a source that cannot be read fails the job with a clear error).
 */

export type CatalogErrorCode =
  | 'source_unreadable'
  | 'source_too_large'
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

/** SPEC 5.2 and 9: a source over 100 MB fails (`source_too_large`); it is never read in part. Permanent. */
export class SourceTooLargeError extends CatalogSourceError {
  constructor(options?: { cause?: unknown }) {
    super(
      `is larger than ${LIMITS.sourceFileBytes / 1024 / 1024} MB, the most one source may be`,
      'source_too_large',
      options,
    );
  }
}

/**
 * A source whose read failed after part of it had gone into the catalog: no catalog is built from it (the
 * job fails, or is retried as a whole), so that no source is ever cut short silently.
 */
export class SourceCutShortError extends CatalogError {
  constructor(
    code: 'source_too_large' | 'source_unreadable',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, code, options);
  }
}
