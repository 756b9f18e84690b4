import middy, { type MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Principal, Scope } from '../core/auth';
import {
  ForbiddenError,
  PayloadTooLargeError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../core/errors';
import { checkJsonText } from '../core/json-limits';
import { LIMITS, normaliseId } from '../core/schemas/job';
import { checkIdempotencyKey, claimIdempotencyKey, requestFingerprint } from '../core/use-cases/idempotency';
import { toPointer } from '../core/validation';
import type { AppDeps } from './deps';
import { API_RESPONSE_HEADERS, header, headerValues } from './headers';
import { publishMetrics } from './metrics';
import { toProblem } from './problem';

export type ApiEvent = Omit<APIGatewayProxyEvent, 'body'> & {
  body: unknown;
  rawBody?: string | null;
  /**
   * The id an idempotent create makes its record under: the one its Idempotency-Key reserved (the same on a
   * retry after a crash), or undefined when the request carries no key (a new id, then).
   */
  resourceId?: string;
};
export type ApiResult = APIGatewayProxyResult & { headers: Record<string, string> };
export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** A JSON response. */
export const json = (statusCode: number, body: unknown, headers: Record<string, string> = {}): ApiResult => ({
  statusCode,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

export { header } from './headers';

export const requestIdOf = (event: Pick<APIGatewayProxyEvent, 'requestContext'>): string =>
  event.requestContext?.requestId ?? 'unknown';

/** The caller as the authorizer described it (SPEC 2: the tenant id is passed to every handler). */
export const principalOf = (event: Pick<APIGatewayProxyEvent, 'requestContext'>): Principal => {
  const context = event.requestContext?.authorizer as Record<string, unknown> | null | undefined;
  const clientId = context?.clientId;
  const scope = context?.scope;
  if (typeof clientId !== 'string' || (scope !== 'client' && scope !== 'operator')) {
    throw new UnauthorizedError('A valid API key is required: Authorization: Token api_key=<API_KEY>.');
  }
  return { clientId, scope, keyId: typeof context?.keyId === 'string' ? context.keyId : 'unknown' };
};

/**
 * A path parameter as handlers use it. API Gateway's REST API hands path parameters over as the client
 * wrote them, percent-escapes included, so they are decoded here; an escape that is not UTF-8 is a 400,
 * never a 5xx. A UUID is lower-cased (ids compare case-insensitively; the service writes them in lower case).
 *
 * @example pathParam({ pathParameters: { id: '3F25%2D...' } }, 'id') // '3f25-...'
 */
export const pathParam = (event: Pick<APIGatewayProxyEvent, 'pathParameters'>, name: string): string => {
  const raw = event.pathParameters?.[name] ?? '';
  let value = raw;
  try {
    if (raw.includes('%')) value = decodeURIComponent(raw);
  } catch {
    throw new ValidationError(`The path parameter "${name}" is not valid percent-encoded UTF-8.`, [
      { pointer: `/path/${name}`, code: 'malformed_path', message: 'is not valid percent-encoded UTF-8' },
    ]);
  }
  return normaliseId(value);
};

/**
 * Outermost middleware: every response carries `x-request-id`; every error becomes a problem+json body
 * (SPEC 7). Errors at 500 and above are logged with their cause and shown to the client only generically.
 */
const apiEnvelope = (deps: Pick<AppDeps, 'logger' | 'metrics'>): MiddlewareObj<ApiEvent, ApiResult> => ({
  before: (request) => {
    deps.logger.appendKeys({ request_id: requestIdOf(request.event) });
  },
  after: (request) => {
    if (request.response) {
      request.response.headers = {
        ...request.response.headers,
        ...API_RESPONSE_HEADERS,
        'x-request-id': requestIdOf(request.event),
      };
    }
    deps.logger.removeKeys(['request_id', 'client_id']);
    publishMetrics(deps);
  },
  onError: (request) => {
    const requestId = requestIdOf(request.event);
    const problem = toProblem(request.error, requestId);
    if (problem.status >= 500) {
      deps.logger.error('request failed', { error: request.error as Error, status: problem.status });
    } else {
      deps.logger.info('request refused', { status: problem.status, code: problem.body.code });
    }
    request.response = {
      statusCode: problem.status,
      headers: { ...problem.headers, ...API_RESPONSE_HEADERS, 'x-request-id': requestId },
      body: JSON.stringify(problem.body),
    };
    deps.logger.removeKeys(['request_id', 'client_id']);
    publishMetrics(deps);
  },
});

/** Only keys of `scope` may call the route: a client key on an operations route gets 403 (SPEC 5.4). */
const requireScope = (deps: Pick<AppDeps, 'logger'>, scope: Scope): MiddlewareObj<ApiEvent, ApiResult> => ({
  before: (request) => {
    const principal = principalOf(request.event);
    deps.logger.appendKeys({ client_id: principal.clientId });
    if (principal.scope !== scope) {
      throw new ForbiddenError(`This route needs a key with the ${scope} scope.`);
    }
  },
});

/**
 * The media type and charset of a Content-Type header (RFC 9110 8.3: both case-insensitive, the charset
 * possibly quoted, whitespace allowed around the parameters), or undefined when it is not a media type.
 */
const mediaTypeOf = (value: string): { type: string; charset?: string } | undefined => {
  const [type = '', ...params] = value.split(';');
  const essence = type.trim().toLowerCase();
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(essence)) return undefined;
  let charset: string | undefined;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    charset = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
  }
  return { type: essence, charset };
};

/** JSON is UTF-8 (RFC 8259 8.1); US-ASCII is a subset of it. */
const JSON_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * What @middy/http-json-body-parser leaves to us, before it parses: bodies of at most 1 MB (413),
 * `application/json` or `application/*+json` in UTF-8 whatever the header's case (415: another charset, a
 * Content-Encoding), not empty (400), base64 bodies decoded as strict UTF-8 (400 when they are not) and a
 * leading byte order mark dropped. The raw text stays in `event.rawBody` for jsonBodyLimits. Its `onError`
 * turns the parser's "malformed JSON" (a 415 in middy) into our 400 `malformed_json`.
 */
const jsonBodyGuard = (): MiddlewareObj<ApiEvent, ApiResult> => ({
  before: async (request) => {
    const raw = typeof request.event.body === 'string' ? request.event.body : null;
    const bytes =
      raw === null ? 0 : Buffer.byteLength(raw, request.event.isBase64Encoded ? 'base64' : 'utf8');
    if (bytes > LIMITS.bodyBytes) {
      throw new PayloadTooLargeError(
        `The body is ${bytes} bytes; the limit is ${LIMITS.bodyBytes} bytes (1 MB).`,
      );
    }
    const media = mediaTypeOf(header(request.event, 'content-type') ?? '');
    if (!media || !/^application\/(.+\+)?json$/.test(media.type)) {
      throw new UnsupportedMediaTypeError('Send the body as JSON with Content-Type: application/json.');
    }
    if (media.charset !== undefined && !JSON_CHARSETS.has(media.charset)) {
      throw new UnsupportedMediaTypeError(
        `JSON is read as UTF-8; the body declares charset=${media.charset.slice(0, 40)}. Send it as UTF-8 (charset=utf-8, or no charset).`,
      );
    }
    // The API does not decompress request bodies (no compression is configured on the API): a gzipped body
    // would otherwise be judged "not valid JSON", and a plain one labelled gzip read as if the label lied.
    const encoding = (header(request.event, 'content-encoding') ?? '').trim().toLowerCase();
    if (encoding !== '' && encoding !== 'identity') {
      throw new UnsupportedMediaTypeError(
        `The body is sent with Content-Encoding: ${encoding.slice(0, 40)}; send it uncompressed.`,
      );
    }
    if (raw === null || raw.trim() === '') {
      throw new ValidationError('The request body is empty; a JSON object is expected.', [
        { pointer: '', code: 'required', message: 'a JSON object is required' },
      ]);
    }
    let text = raw;
    if (request.event.isBase64Encoded) {
      try {
        text = utf8.decode(Buffer.from(raw, 'base64'));
      } catch {
        throw new ValidationError('The request body is not valid UTF-8.', [
          { pointer: '', code: 'malformed_json', message: 'the body is not valid UTF-8' },
        ]);
      }
    }
    // RFC 8259 8.1 lets a parser ignore a byte order mark; files saved by Windows editors start with one.
    if (text.startsWith('\uFEFF')) text = text.slice(1);
    request.event.rawBody = text;
    request.event.body = text;
    request.event.isBase64Encoded = false;
    // The parser looks for `content-type` or `Content-Type` only, and matches the media type case-sensitively:
    // the one checked above is handed to it as such (header names are case-insensitive, HTTP/1 keeps them).
    request.event.headers = { ...request.event.headers, 'content-type': media.type };
    delete request.event.headers['Content-Type'];
  },
  onError: (request) => {
    const cause = (request.error as { cause?: { package?: string } } | null)?.cause;
    if (cause?.package === '@middy/http-json-body-parser') {
      request.error = new ValidationError('The request body is not valid JSON.', [
        { pointer: '', code: 'malformed_json', message: 'the body could not be parsed as JSON' },
      ]);
    }
  },
});

/**
 * After the parse, SPEC 9's limits on JSON, judged on the text as sent (JSON.parse has already rounded big
 * numbers, turned 1e400 into Infinity and let the last of two equal keys win): nested at most 32 levels,
 * numbers finite and exact within ±(2^53 − 1), no key twice, no `__proto__`, no unpaired surrogate; each a
 * 400 naming its field.
 */
const jsonBodyLimits = (): MiddlewareObj<ApiEvent, ApiResult> => ({
  before: async (request) => {
    const problems = checkJsonText(request.event.rawBody ?? '');
    if (problems.length > 0) {
      throw new ValidationError(
        'The request body is outside the limits on JSON.',
        problems.map(({ path, code, message }) => ({ pointer: toPointer(path), code, message })),
      );
    }
  },
});

/**
 * SPEC 5.1 `Idempotency-Key`: a repeat with the same body replays the first response; another body gets
 * 422; a repeat while the first is in flight gets 409. Only successful responses are kept: a request that
 * failed (validation, or a dependency) releases the key and stores nothing. The key reserves the id the
 * route creates its record under (`event.resourceId`), so that a retry after a crash makes no second one.
 */
const idempotency = (
  deps: Pick<AppDeps, 'idempotency' | 'clock' | 'ids'>,
): MiddlewareObj<ApiEvent, ApiResult> => {
  const claimed = new WeakMap<object, { clientId: string; key: string }>();
  const release = async (request: { event: ApiEvent }) => {
    const claim = claimed.get(request.event);
    if (!claim) return;
    claimed.delete(request.event);
    await deps.idempotency.release(claim.clientId, claim.key);
  };
  return {
    before: async (request) => {
      const raw = header(request.event, 'idempotency-key');
      if (raw === undefined) return undefined;
      // Two different keys on one request: which one the client meant is anyone's guess.
      if (new Set(headerValues(request.event, 'idempotency-key')).size > 1) {
        throw new ValidationError('The request carries more than one Idempotency-Key header.', [
          { pointer: '/headers/idempotency-key', code: 'repeated', message: 'send one Idempotency-Key' },
        ]);
      }
      const key = checkIdempotencyKey(raw);
      const { clientId } = principalOf(request.event);
      const route = `${request.event.httpMethod} ${request.event.resource}`;
      const outcome = await claimIdempotencyKey(deps.idempotency, {
        clientId,
        key,
        fingerprint: requestFingerprint(route, request.event.body),
        nowSeconds: Math.floor(deps.clock.now().getTime() / 1000),
        resourceId: deps.ids.uuid(),
      });
      if (outcome.kind === 'replay') {
        const { statusCode, headers, body } = outcome.response;
        // An early return skips the other middlewares, so the envelope's headers are set here too.
        const replayed = {
          ...API_RESPONSE_HEADERS,
          'idempotent-replayed': 'true',
          'x-request-id': requestIdOf(request.event),
        };
        return { statusCode, headers: { ...headers, ...replayed }, body };
      }
      claimed.set(request.event, { clientId, key });
      request.event.resourceId = outcome.resourceId;
      return undefined;
    },
    after: async (request) => {
      const claim = claimed.get(request.event);
      const response = request.response;
      if (!claim || !response) return;
      if (response.statusCode >= 200 && response.statusCode < 300) {
        claimed.delete(request.event);
        await deps.idempotency.complete(claim.clientId, claim.key, {
          statusCode: response.statusCode,
          headers: response.headers,
          body: response.body,
        });
      } else {
        await release(request);
      }
    },
    onError: async (request) => {
      // If the release fails the key stays locked until its lock expires (60 s); the client still gets
      // the original error, not this one.
      await release(request).catch(() => undefined);
    },
  };
};

export interface RouteOptions {
  readonly scope: Scope;
  readonly body?: 'json' | 'none';
  readonly idempotent?: boolean;
}

/** What every route needs; idempotent routes also need `idempotency`, `clock` and `ids`. */
export type RouteDeps = Pick<AppDeps, 'logger' | 'metrics'> &
  Partial<Pick<AppDeps, 'idempotency' | 'clock' | 'ids'>>;

/**
 * Builds an API Gateway proxy handler from a route function: envelope, scope check, JSON body (our guard,
 * @middy/http-json-body-parser, our limits) and idempotency, in that order. The function receives the parsed body and the caller's principal.
 */
export const httpRoute = (
  deps: RouteDeps,
  options: RouteOptions,
  route: (event: ApiEvent, principal: Principal) => Promise<ApiResult>,
): ApiHandler => {
  const chain = middy<ApiEvent, ApiResult>().use(apiEnvelope(deps)).use(requireScope(deps, options.scope));
  if (options.body === 'json') {
    chain
      .use(jsonBodyGuard())
      .use(httpJsonBodyParser() as MiddlewareObj<ApiEvent, ApiResult>)
      .use(jsonBodyLimits());
  }
  if (options.idempotent) {
    const { idempotency: store, clock, ids } = deps;
    if (!store || !clock || !ids)
      throw new Error('An idempotent route is built with deps.idempotency, deps.clock and deps.ids');
    chain.use(idempotency({ idempotency: store, clock, ids }));
  }
  return chain.handler(async (event) => route(event, principalOf(event))) as unknown as ApiHandler;
};

/**
 * Query string parameters as a plain object (API Gateway gives null when there are none). A parameter
 * repeated with different values (`state=completed&state=failed`) is a 400: API Gateway keeps the last one
 * only, which would silently drop a filter the client asked for.
 */
export const queryOf = (
  event: Pick<APIGatewayProxyEvent, 'queryStringParameters' | 'multiValueQueryStringParameters'>,
): Record<string, string> => {
  const repeated = Object.entries(event.multiValueQueryStringParameters ?? {}).filter(
    ([, values]) => new Set(values ?? []).size > 1,
  );
  if (repeated.length > 0) {
    throw new ValidationError(
      'A query parameter is repeated.',
      repeated.map(([name]) => ({
        pointer: toPointer(['query', name]),
        code: 'repeated',
        message: 'give this parameter once',
      })),
    );
  }
  // From entries: a parameter named `__proto__` stays a key (and is refused as unknown by the schema).
  return Object.fromEntries(
    Object.entries(event.queryStringParameters ?? {}).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
};
