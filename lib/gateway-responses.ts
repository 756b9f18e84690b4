/**
 * What the API gateway answers by itself, before or instead of a handler: ONE table read by the CDK app
 * (lib/aws/service-api.ts, as API Gateway gateway responses) and by the local runtime
 * (lib/local/api-gateway.ts), so that a client gets the same status, headers and problem+json body (SPEC 7)
 * from either. test/unit/local-api-gateway.test.ts and test/infra/stateless-stack.test.ts hold both to it.
 */
import { problemType } from '../lambdas/core/model';
import { API_RESPONSE_HEADERS } from '../lambdas/shared/headers';
import { GENERIC_DETAIL } from '../lambdas/shared/problem';

/** SPEC 9: per client, 20 requests a second with bursts of 40 (the usage plan in AWS, a token bucket locally). */
export const PER_CLIENT_THROTTLE = { rateLimit: 20, burstLimit: 40 } as const;

/**
 * Failed authentications per source address (issue 25): locally a token bucket of failures in the gateway
 * emulation (a source past it is refused before the authorizer runs, unless it presents a key that passed
 * lately); in AWS the web ACL's rate-based rules (lib/aws/web-acl.ts), which see requests, not their
 * answers.
 */
export const FAILED_AUTH_THROTTLE = { rateLimit: 2, burstLimit: 20 } as const;

export interface GatewayAnswer {
  /** Undefined: API Gateway keeps the status of the error it answers (DEFAULT_4XX covers several). */
  readonly status: number | undefined;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  /** Literal values, added to GATEWAY_HEADERS. */
  readonly headers?: Readonly<Record<string, string>>;
}

const TITLES = {
  validation_failed: 'Invalid request',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  rate_limited: 'Too many requests',
  bad_request: 'Bad request',
  internal_error: 'Internal error',
  service_unavailable: 'Service unavailable',
} as const;

const answer = <S extends number | undefined>(
  status: S,
  code: keyof typeof TITLES,
  detail: string,
  headers?: Record<string, string>,
) => ({ status, code, title: TITLES[code], detail, ...(headers ? { headers } : {}) });

const { rateLimit, burstLimit } = PER_CLIENT_THROTTLE;
const RETRY_1S = { 'Retry-After': '1' };
const RETRY_5S = { 'Retry-After': '5' };

/**
 * Keyed by API Gateway's response type (apigw.ResponseType); one line each. The local runtime meets
 * UNAUTHORIZED, ACCESS_DENIED, MISSING_AUTHENTICATION_TOKEN, THROTTLED, REQUEST_TOO_LARGE, AUTHORIZER_FAILURE
 * and DEFAULT_5XX (a handler that throws); the others happen only in AWS. INVALID_API_KEY: the usage
 * identifier the authorizer returned is not (yet) an API key of the usage plan (docs/deploying.md, "API keys
 * in AWS"). MISSING_AUTHENTICATION_TOKEN is API Gateway's answer to a path or method no route matches.
 * AUTHORIZER_FAILURE: the authorizer threw (its key store is unavailable), a dependency failure, not a
 * decision; AUTHORIZER_CONFIGURATION_ERROR: API Gateway could not run it (throttled, timed out): the same to a
 * client. DEFAULT_5XX is every other 5xx, among them what a function that fails or is throttled gets (API
 * Gateway's own 502 and 500): the service could not answer, so a 503 to retry, never a bare 500; only a
 * broken deployment (API_CONFIGURATION_ERROR) is a 500. Every answer carries x-request-id (SPEC 7).
 */
// biome-ignore format: a table, one gateway response a line
export const GATEWAY_RESPONSES = {
  UNAUTHORIZED: answer(401, 'unauthorized', 'A valid API key is required: Authorization: Token api_key=<API_KEY>.', { 'WWW-Authenticate': 'Token' }),
  ACCESS_DENIED: answer(403, 'forbidden', 'The API key may not call this route.'),
  INVALID_API_KEY: answer(403, 'forbidden', 'The API key is not enabled for this API.'),
  MISSING_AUTHENTICATION_TOKEN: answer(404, 'not_found', 'No route matches this method and path.'),
  THROTTLED: answer(429, 'rate_limited', `The rate limit of ${rateLimit} requests per second (bursts of ${burstLimit}) was exceeded. Retry after the indicated delay.`, RETRY_1S),
  QUOTA_EXCEEDED: answer(429, 'rate_limited', 'The request quota was exceeded. Retry after the indicated delay.', { 'Retry-After': '60' }),
  BAD_REQUEST_PARAMETERS: answer(400, 'validation_failed', 'A required parameter is missing.'),
  BAD_REQUEST_BODY: answer(400, 'validation_failed', 'The request body is invalid.'),
  REQUEST_TOO_LARGE: answer(413, 'payload_too_large', 'The body is larger than 1 MB.'),
  UNSUPPORTED_MEDIA_TYPE: answer(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.'),
  AUTHORIZER_FAILURE: answer(503, 'service_unavailable', GENERIC_DETAIL.unavailable, RETRY_5S),
  AUTHORIZER_CONFIGURATION_ERROR: answer(503, 'service_unavailable', GENERIC_DETAIL.unavailable, RETRY_5S),
  INTEGRATION_FAILURE: answer(503, 'service_unavailable', GENERIC_DETAIL.unavailable, RETRY_5S),
  INTEGRATION_TIMEOUT: answer(503, 'service_unavailable', 'The service did not answer in time. Retry after the indicated delay.', RETRY_5S),
  API_CONFIGURATION_ERROR: answer(500, 'internal_error', GENERIC_DETAIL.internal),
  DEFAULT_4XX: answer(undefined, 'bad_request', 'The request was refused by the API gateway.'),
  DEFAULT_5XX: answer(503, 'service_unavailable', GENERIC_DETAIL.unavailable, RETRY_5S),
} as const satisfies Record<string, GatewayAnswer>;

export type GatewayResponseType = keyof typeof GATEWAY_RESPONSES;

/**
 * What only the local runtime answers. API Gateway cannot tell a wrong method from a wrong path: there it is
 * MISSING_AUTHENTICATION_TOKEN (404). SOURCE_THROTTLED is the web ACL's answer in AWS.
 */
export const LOCAL_GATEWAY_RESPONSES = {
  METHOD_NOT_ALLOWED: answer(
    405,
    'method_not_allowed',
    'The path exists, the method does not: Allow lists its methods.',
  ),
  /** FAILED_AUTH_THROTTLE passed; in AWS the web ACL's answer (its custom response). */
  SOURCE_THROTTLED: answer(
    429,
    'rate_limited',
    'Too many requests from this address failed authentication. Retry after the indicated delay.',
    { 'Retry-After': '60' },
  ),
} as const satisfies Record<string, GatewayAnswer>;

/** Headers of every gateway answer: those of every API answer (no-store, nosniff), and the body's type. */
const GATEWAY_HEADERS: Readonly<Record<string, string>> = {
  ...API_RESPONSE_HEADERS,
  'Content-Type': 'application/problem+json',
};

/**
 * Headers of every gateway answer whose value is the request's own: the name, and the API Gateway mapping
 * expression that fills it in (`context.requestId`, unquoted: not a literal). The local runtime sets the
 * same header to its request id.
 */
export const GATEWAY_REQUEST_HEADERS = { 'x-request-id': 'context.requestId' } as const;

/** The problem+json body of an answer (SPEC 7); `requestId` is `$context.requestId` in an AWS template. */
export const gatewayProblem = (a: GatewayAnswer, requestId: string) => ({
  type: problemType(a.code),
  title: a.title,
  ...(a.status === undefined ? {} : { status: a.status }),
  detail: a.detail,
  code: a.code,
  request_id: requestId,
});

export const gatewayHeaders = (a: GatewayAnswer): Record<string, string> => ({
  ...GATEWAY_HEADERS,
  ...a.headers,
});
