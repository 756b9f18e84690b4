import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { ConflictError, DependencyUnavailableError } from '../core/errors';

const TRANSIENT_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'Throttling',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'SlowDown',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'InternalServerError',
  'InternalError',
  'InternalFailure',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'KMSThrottlingException',
  'KmsThrottled',
  'TransactionConflictException',
]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EHOSTUNREACH',
  // What Node's fetch (undici) says of a connection that closed or stalled under a request.
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

interface SdkLikeError {
  name?: string;
  code?: string;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: number };
}

/** True for failures worth retrying: throttling, 5xx, time-outs and broken connections. */
export const isTransientAwsError = (error: unknown): boolean => {
  // Not `instanceof Error`: a DOMException (an aborted fetch) comes from another realm in some hosts.
  if (typeof error !== 'object' || error === null) return false;
  const e = error as Error & SdkLikeError;
  if (e.name && TRANSIENT_NAMES.has(e.name)) return true;
  if (e.code && NETWORK_CODES.has(e.code)) return true;
  if (e.$retryable) return true;
  const status = e.$metadata?.httpStatusCode;
  if (status !== undefined && (status >= 500 || status === 429)) return true;
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error && isTransientAwsError(cause);
};

/**
 * Runs an SDK call and translates its failures into domain errors: a failed condition becomes a
 * ConflictError, a transient failure a DependencyUnavailableError; anything else (a bug) is rethrown.
 * A write sent with `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'` gets the item DynamoDB found back with
 * the failure: the ConflictError carries it as `current`, so that nobody reads it again. (The document
 * client leaves that item in DynamoDB's wire format, aws/aws-sdk-js-v3#6723: it is converted here.)
 */
export const translateAwsErrors = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') {
      const item = (error as { Item?: Record<string, AttributeValue> }).Item;
      throw new ConflictError(`${what}: the record changed or is not in the expected state`, {
        cause: error,
        current: item ? unmarshall(item) : undefined,
      });
    }
    if (isTransientAwsError(error)) {
      throw new DependencyUnavailableError(`${what}: a dependency is unavailable`, { cause: error });
    }
    throw error;
  }
};
