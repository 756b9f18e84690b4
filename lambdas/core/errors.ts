/**
 * Domain errors: every error the service's own code throws descends from DomainError and carries a stable
 * snake_case `code` (SPEC 7). The HTTP layer maps them to statuses by `instanceof`
 * (lambdas/shared/problem.ts), never by name; errors it does not map (catalog, outbound, queue message,
 * webhook secret) are handled where they are caught and answer 500 if they ever reach it.
 */

export interface FieldError {
  /** JSON Pointer into the request body (or `/query/<name>` for query parameters). */
  readonly pointer: string;
  readonly code: string;
  readonly message: string;
}

export abstract class DomainError extends Error {
  abstract readonly code: string;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    // The one place a name is set: the class's own (bundles keep class names, lib/aws/bundling.ts).
    this.name = new.target.name;
  }
}

/** The request is malformed or breaks a rule: nothing was changed. */
export class ValidationError extends DomainError {
  readonly code = 'validation_failed';
  constructor(
    message: string,
    readonly errors: readonly FieldError[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export class UnauthorizedError extends DomainError {
  readonly code = 'unauthorized';
}

export class ForbiddenError extends DomainError {
  readonly code = 'forbidden';
}

/** Unknown id, or an id that belongs to another client: the two are indistinguishable on purpose. */
export class NotFoundError extends DomainError {
  readonly code = 'not_found';
}

/** The record is not in a state that allows the operation (SPEC 4). */
export class InvalidStateError extends DomainError {
  readonly code: string = 'invalid_state';
}

export class JobNotExportableError extends InvalidStateError {
  override readonly code = 'job_not_exportable';
}

/** A conditional write lost a race: the record changed under us. */
export class ConflictError extends DomainError {
  readonly code = 'conflict';
  constructor(
    message: string,
    options?: {
      cause?: unknown;
      /** The record as the failed write found it, when the store said (undefined: not known). */
      current?: unknown;
    },
  ) {
    super(message, options);
    this.current = options?.current;
  }
  readonly current: unknown;
}

export class IdempotencyKeyMismatchError extends DomainError {
  readonly code = 'idempotency_key_mismatch';
}

export class IdempotencyKeyInUseError extends DomainError {
  readonly code = 'idempotency_key_in_use';
}

export class PayloadTooLargeError extends DomainError {
  readonly code = 'payload_too_large';
}

export class UnsupportedMediaTypeError extends DomainError {
  readonly code = 'unsupported_media_type';
}

/** A dependency (DynamoDB, SQS, S3) failed or throttled: retry later, nothing was lost. */
export class DependencyUnavailableError extends DomainError {
  readonly code = 'service_unavailable';
  constructor(message: string, options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super(message, options);
    this.retryAfterSeconds = options?.retryAfterSeconds ?? 5;
  }
  readonly retryAfterSeconds: number;
}
