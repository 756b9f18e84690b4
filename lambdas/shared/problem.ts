import {
  ConflictError,
  DependencyUnavailableError,
  DomainError,
  ForbiddenError,
  IdempotencyKeyInUseError,
  IdempotencyKeyMismatchError,
  InvalidStateError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../core/errors';
import { problemType } from '../core/model';

export interface ProblemBody {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly request_id: string;
  readonly errors?: readonly { pointer: string; code: string; message: string }[];
}

export interface ProblemResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: ProblemBody;
}

type ErrorClass = abstract new (...args: never[]) => DomainError;

/** What a 5xx says, whoever answers it: a handler, or the gateway (lib/gateway-responses.ts). Never the cause. */
export const GENERIC_DETAIL = {
  internal: 'The service failed to handle the request. It has been logged with the request id.',
  unavailable: 'A dependency of the service is unavailable. Retry after the indicated delay.',
} as const;

/** The one table from domain errors to HTTP statuses and titles (SPEC 7). Checked in order, by instanceof. */
const TABLE: readonly [ErrorClass, number, string][] = [
  [ValidationError, 400, 'Invalid request'],
  [UnauthorizedError, 401, 'Unauthorized'],
  [ForbiddenError, 403, 'Forbidden'],
  [NotFoundError, 404, 'Not found'],
  [InvalidStateError, 409, 'Invalid state'],
  [ConflictError, 409, 'Conflict'],
  [IdempotencyKeyInUseError, 409, 'Idempotency key in use'],
  [PayloadTooLargeError, 413, 'Payload too large'],
  [UnsupportedMediaTypeError, 415, 'Unsupported media type'],
  [IdempotencyKeyMismatchError, 422, 'Idempotency key reused'],
  [DependencyUnavailableError, 503, 'Service unavailable'],
];

/**
 * Maps any error to a problem+json response. Domain errors below 500 show their message to the client;
 * everything else gets a generic body, and the caller logs the cause.
 */
export const toProblem = (error: unknown, requestId: string): ProblemResponse => {
  const headers: Record<string, string> = { 'content-type': 'application/problem+json' };
  if (error instanceof DomainError) {
    const row = TABLE.find(([cls]) => error instanceof cls);
    if (row) {
      const [, status, title] = row;
      const exposed = status < 500;
      if (error instanceof UnauthorizedError) headers['www-authenticate'] = 'Token';
      if (error instanceof DependencyUnavailableError)
        headers['retry-after'] = String(error.retryAfterSeconds);
      return {
        status,
        headers,
        body: {
          type: problemType(error.code),
          title,
          status,
          detail: exposed ? error.message : GENERIC_DETAIL.unavailable,
          code: error.code,
          request_id: requestId,
          ...(error instanceof ValidationError ? { errors: error.errors } : {}),
        },
      };
    }
  }
  return {
    status: 500,
    headers,
    body: {
      type: problemType('internal_error'),
      title: 'Internal error',
      status: 500,
      detail: GENERIC_DETAIL.internal,
      code: 'internal_error',
      request_id: requestId,
    },
  };
};
