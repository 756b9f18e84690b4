import type * as z from 'zod';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../../lambdas/core/use-cases/idempotency';
import { DEFAULT_RETRY_DELAYS } from '../../lambdas/core/webhooks';
import { STAGE_NAME } from '../aws/names';
import { PER_CLIENT_THROTTLE } from '../gateway-responses';
import { ROUTES, type RouteDefinition } from '../resources';
import { type Example, exportEventExamples, problemExamples } from './examples';
import { type ErrorSpec, OPERATIONS, type OperationSpec, TAGS } from './operations';
import { componentSchemas, inlineSchema, type JsonSchema, schemaRef } from './schemas';

/**
 * The OpenAPI 3.1 document of the service, built from lib/resources.ts ROUTES (every route, nothing else),
 * the request and response Zod schemas, and the operation descriptions of ./operations.ts. Deterministic:
 * the same code always gives the same document (`npm run openapi` writes it to docs/openapi.json).
 */

export type OpenApiDocument = JsonSchema;

const PROBLEM_JSON = 'application/problem+json';
const JSON_MEDIA = 'application/json';

const SECURITY_SCHEMES = {
  ClientKey: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      'Every request carries `Authorization: Token api_key=<API_KEY>` (seed 5). Send the whole value, ' +
      'scheme included: `Token api_key=cjk_live_...`. A key belongs to one client and sees only that ' +
      'client’s jobs, exports and files. Keys of the `client` scope call the public API. A missing, ' +
      'malformed, unknown or revoked key gets 401 with `WWW-Authenticate: Token`.',
  },
  OperatorKey: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      '`Authorization: Token api_key=<API_KEY>` with a key of the `operator` scope (`cjk_ops_...`), for the ' +
      'operations API. A `client` key gets 403 there, and an operator key gets 403 on the public API.',
  },
} as const;

const DESCRIPTION = `Asynchronous work on merchant catalogs. Clients create **jobs** (build a menu, build a
retail catalog, map product images to a retail catalog) and **data exports** (fetch a finished catalog as a
file, by polling or by a signed callback). Payloads are JSON; the version is the path prefix \`/v1\`.

## Authentication

Every request carries \`Authorization: Token api_key=<API_KEY>\`. A client sees only what it created: another
client's id answers 404, exactly as an unknown id does. \`npm run keys -- create --client <id>\` issues keys;
\`npm start\` prints the key of its \`dev\` client.

## A job from start to finish

1. Optional: upload a local file with \`POST /v1/files\`, PUT it to \`upload_url\` with the headers of
   \`upload_headers\` (or POST it as the form \`upload_form\`; at most 100 MB, written once), and use its id as
   a catalog source.
2. \`POST /v1/jobs\` answers \`201\` with the job \`initiated\` and empty \`results\`.
3. \`POST /v1/data_exports\` with the job's id (and a \`callback_url\` to be called back). The export waits for
   the job.
4. Poll \`GET /v1/data_exports/{id}\` (honour \`Retry-After\`) or receive the callback, then download
   \`delivery_url\` (valid for one hour; every GET signs a fresh one).

## Idempotency

\`POST /v1/jobs\` and \`POST /v1/data_exports\` accept an \`Idempotency-Key\` header (at most
${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters, kept 24 hours per client). A repeat with the same body replays the
first response (with \`idempotent-replayed: true\`); another body gets 422; a repeat while the first is still in
flight gets 409. A request that failed stores nothing, so it can be retried with the same key.

## Errors

Every error is \`application/problem+json\` (RFC 9457) with a stable \`code\`, the \`request_id\` (also in the
\`x-request-id\` header of every response) and, for validation errors, \`errors[]\` with a JSON Pointer to each
offending field.

| status | code | when |
| --- | --- | --- |
| 400 | \`validation_failed\` | malformed JSON, a rule broken, an unknown field |
| 401 | \`unauthorized\` | missing, malformed, unknown or revoked key (\`WWW-Authenticate: Token\`) |
| 403 | \`forbidden\` | a key without the scope the route needs |
| 404 | \`not_found\` | unknown id, or another client's id; a path no route matches |
| 405 | \`method_not_allowed\` | the path exists, the method does not; \`Allow\` lists the methods of the path (the local runtime; API Gateway answers 404) |
| 409 | \`invalid_state\`, \`job_not_exportable\`, \`idempotency_key_in_use\` | the record's state forbids it |
| 413 | \`payload_too_large\` | body over 1 MB |
| 415 | \`unsupported_media_type\` | body not sent as \`application/json\` |
| 422 | \`idempotency_key_mismatch\` | an Idempotency-Key reused with another body |
| 429 | \`rate_limited\` | over ${PER_CLIENT_THROTTLE.rateLimit} requests/s per client (bursts of ${PER_CLIENT_THROTTLE.burstLimit}); see \`Retry-After\` |
| 500 | \`internal_error\` | a fault of the service, logged with the request id |
| 503 | \`service_unavailable\` | a dependency failed and nothing was half-done; see \`Retry-After\` |

## Limits

Request body 1 MB; \`catalog_sources\` 1-50, \`image_sources\` 1-10,000, URLs at most 2,048 characters;
\`merchant_name\` 1-255, \`merchant_address\` 1,000, \`merchant_token\` 255, \`instructions\` 10,000 characters;
\`metadata\` at most 50 keys; \`client_mappings\` at most 100 KB; files and sources 100 MB; 200,000 items per
catalog; ${PER_CLIENT_THROTTLE.rateLimit} requests/s per client, bursts of ${PER_CLIENT_THROTTLE.burstLimit}.`;

const header = (description: string, schema: JsonSchema, required = false) => ({
  description,
  required,
  schema,
});

const HEADERS = {
  XRequestId: header(
    'The request’s id, on every response; the same as `request_id` in a problem body.',
    { type: 'string' },
    true,
  ),
  Location: header('Path of the created resource.', { type: 'string' }, true),
  IdempotentReplayed: header(
    '`true` when this is the stored response of an earlier request with the same Idempotency-Key.',
    { type: 'string', enum: ['true'] },
  ),
  RetryAfter: header('Seconds to wait before retrying.', { type: 'integer', minimum: 1 }, true),
  WwwAuthenticate: header('The authentication scheme: `Token`.', { type: 'string', enum: ['Token'] }, true),
} as const;

const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

const examplesOf = (examples: Readonly<Record<string, Example>>): Record<string, Example> =>
  Object.fromEntries(Object.entries(examples).map(([name, example]) => [name, { ...example }]));

const problemContent = (names: readonly (keyof typeof problemExamples)[]) => ({
  [PROBLEM_JSON]: {
    schema: schemaRef('Problem'),
    examples: Object.fromEntries(names.map((name) => [name, problemExamples[name]])),
  },
});

/** Responses every route can give, whatever it does. */
const COMMON_RESPONSES = {
  Unauthorized: {
    description:
      'Missing, malformed, unknown or revoked API key (`unauthorized`). Nothing else is revealed: the same ' +
      'answer for every cause.',
    headers: { 'WWW-Authenticate': headerRef('WwwAuthenticate'), 'x-request-id': headerRef('XRequestId') },
    content: problemContent(['unauthorized']),
  },
  Forbidden: {
    description: 'The key’s scope may not call this route (`forbidden`).',
    headers: { 'x-request-id': headerRef('XRequestId') },
    content: problemContent(['forbidden']),
  },
  TooManyRequests: {
    description: `Over ${PER_CLIENT_THROTTLE.rateLimit} requests per second for this client, bursts of ${PER_CLIENT_THROTTLE.burstLimit} (\`rate_limited\`).`,
    headers: { 'Retry-After': headerRef('RetryAfter'), 'x-request-id': headerRef('XRequestId') },
    content: problemContent(['rate_limited']),
  },
  InternalError: {
    description:
      'A fault of the service (`internal_error`). Nothing internal is shown; quote the request id.',
    headers: { 'x-request-id': headerRef('XRequestId') },
    content: problemContent(['internal_error']),
  },
  ServiceUnavailable: {
    description:
      'A dependency failed (`service_unavailable`). Nothing was half-done: retry after `Retry-After` ' +
      '(with the same Idempotency-Key for a create).',
    headers: { 'Retry-After': headerRef('RetryAfter'), 'x-request-id': headerRef('XRequestId') },
    content: problemContent(['service_unavailable']),
  },
} as const;

const responseRef = (name: keyof typeof COMMON_RESPONSES) => ({ $ref: `#/components/responses/${name}` });

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    `Makes the create safe to retry (SPEC 5.1): 1-${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters, ` +
    'kept 24 hours per client. The same key with the same body replays the first response; with another ' +
    'body it gets 422; while the first is in flight, 409. A UUID per logical request is a good key.',
  schema: {
    type: 'string',
    minLength: 1,
    maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
    pattern: '^[\\x20-\\x7E]+$',
  },
  example: 'menu-2026-01-15-store-42',
};

const errorResponse = (spec: ErrorSpec) => ({
  description: spec.description,
  headers: { 'x-request-id': headerRef('XRequestId') },
  content: problemContent(spec.examples),
});

const queryParameters = (spec: OperationSpec): JsonSchema[] => {
  if (!spec.query) return [];
  return Object.entries(spec.query.shape).map(([name, schema]) => {
    const json = inlineSchema(schema as never);
    const { description, ...rest } = json;
    // A parameter that may be left out parses `undefined` (optional, or with a default).
    const optional = (schema as z.ZodType).safeParse(undefined).success;
    return {
      name,
      in: 'query',
      required: !optional,
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
};

const QUERY_DESCRIPTIONS: Record<string, string> = {
  state: 'Only jobs in this state.',
  job_type: 'Only jobs of this type.',
  limit: 'Page size, 1-100.',
  cursor: 'The `next_cursor` of the previous page.',
};

/** 5 -> "5 s", 300 -> "5 min", 7200 -> "2 h". */
const duration = (seconds: number): string =>
  seconds >= 3600 ? `${seconds / 3600} h` : seconds >= 60 ? `${seconds / 60} min` : `${seconds} s`;

const callbackPathItem = () => ({
  post: {
    operationId: 'dataExportCallback',
    summary: 'Data export callback',
    description:
      'When an export that has a `callback_url` reaches a terminal state, the service POSTs the event to ' +
      'that URL following the Standard Webhooks specification. Verify `webhook-signature`: `v1,` + base64 ' +
      'HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of your ' +
      'webhook secret after `whsec_` (several space-separated signatures while a secret is rotated); reject ' +
      'timestamps more than 5 minutes off, and use `webhook-id` to drop duplicates.\n\n' +
      'Any 2xx within 15 seconds is success; redirects are not followed; 410 stops the retries. Anything ' +
      `else is retried after ${DEFAULT_RETRY_DELAYS.map(duration).join(', ')} ` +
      '(with jitter; a longer `Retry-After` from you wins). The export’s `callback` field shows the outcome; ' +
      'a callback that finally fails never changes the export’s own state.',
    tags: ['Data exports'],
    security: [],
    parameters: [
      {
        name: 'webhook-id',
        in: 'header',
        required: true,
        description: 'The event’s id: the same on every retry of one event.',
        schema: { type: 'string' },
      },
      {
        name: 'webhook-timestamp',
        in: 'header',
        required: true,
        description: 'Unix seconds of this attempt.',
        schema: { type: 'string', pattern: '^[0-9]+$' },
        example: '1768469410',
      },
      {
        name: 'webhook-signature',
        in: 'header',
        required: true,
        description: 'Space-separated `v1,<base64 HMAC-SHA256>` signatures.',
        schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
        example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
      },
    ],
    requestBody: {
      required: true,
      description: 'The event: its type, when the export became terminal, and the export as GET shows it.',
      content: {
        [JSON_MEDIA]: { schema: schemaRef('DataExportEvent'), examples: examplesOf(exportEventExamples) },
      },
    },
    responses: {
      '2XX': { description: 'Received: no further attempt.' },
      '410': { description: 'Gone: the service stops retrying this event.' },
    },
  },
});

const operation = (route: RouteDefinition, spec: OperationSpec): JsonSchema => {
  const parameters: JsonSchema[] = [];
  if (spec.idParam) {
    parameters.push({
      name: 'id',
      in: 'path',
      required: true,
      description: `${spec.idParam} Malformed and unknown ids answer 404.`,
      schema: { type: 'string', format: 'uuid' },
    });
  }
  for (const param of spec.pathParams ?? []) {
    parameters.push({
      name: param.name,
      in: 'path',
      required: true,
      description: param.description,
      schema: param.schema,
    });
  }
  for (const param of queryParameters(spec)) {
    parameters.push({ ...param, description: param.description ?? QUERY_DESCRIPTIONS[param.name] });
  }
  if (spec.idempotent) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });

  const successHeaders: JsonSchema = { 'x-request-id': headerRef('XRequestId') };
  if (spec.success.location) successHeaders.Location = headerRef('Location');
  if (spec.success.retryAfter) {
    successHeaders['Retry-After'] = {
      ...HEADERS.RetryAfter,
      required: false,
      description: spec.success.retryAfter,
    };
  }
  if (spec.idempotent) successHeaders['idempotent-replayed'] = headerRef('IdempotentReplayed');

  const responses: JsonSchema = {
    [String(spec.success.status)]: {
      description: spec.success.description,
      headers: successHeaders,
      content: {
        [JSON_MEDIA]: { schema: schemaRef(spec.success.schema), examples: examplesOf(spec.success.examples) },
      },
    },
  };
  if (spec.redirect) {
    responses['302'] = {
      description: spec.redirect,
      headers: {
        Location: {
          description: 'Presigned GET of the bytes.',
          required: true,
          schema: { type: 'string', format: 'uri' },
        },
        'x-request-id': headerRef('XRequestId'),
      },
      content: { [JSON_MEDIA]: { schema: schemaRef(spec.success.schema) } },
    };
  }
  const errors: [number, JsonSchema][] = [
    ...spec.errors.map((e): [number, JsonSchema] => [e.status, errorResponse(e)]),
    [401, responseRef('Unauthorized')],
    [403, responseRef('Forbidden')],
    [429, responseRef('TooManyRequests')],
    [500, responseRef('InternalError')],
    [503, responseRef('ServiceUnavailable')],
  ];
  for (const [status, response] of errors.sort(([a], [b]) => a - b)) responses[String(status)] = response;

  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: [spec.tag],
    security: [{ [route.scope === 'operator' ? 'OperatorKey' : 'ClientKey']: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: true,
            description: spec.body.description,
            content: {
              [JSON_MEDIA]: { schema: schemaRef(spec.body.schema), examples: examplesOf(spec.body.examples) },
            },
          },
        }
      : {}),
    responses,
    ...(spec.callback
      ? { callbacks: { dataExportEvent: { '{$request.body#/callback_url}': callbackPathItem() } } }
      : {}),
  };
};

export interface BuildOptions {
  /** Servers to list; by default the local runtime and the API Gateway stage. */
  readonly servers?: readonly { url: string; description: string; variables?: JsonSchema }[];
}

const DEFAULT_SERVERS = [
  { url: 'http://127.0.0.1:3000', description: 'The local runtime (`npm start`)' },
  {
    url: `https://{api_id}.execute-api.{region}.amazonaws.com/${STAGE_NAME}`,
    description: 'A deployed stack (the ApiUrl output of the stateless stack)',
    variables: {
      api_id: { default: 'abcdef1234', description: 'The REST API id' },
      region: { default: 'us-east-1', description: 'The AWS region' },
    },
  },
];

/** Builds the document. Throws if a route of ROUTES has no description in OPERATIONS, or the reverse. */
export const buildOpenApiDocument = (options: BuildOptions = {}): OpenApiDocument => {
  const unknown = Object.keys(OPERATIONS).filter((handler) => !ROUTES.some((r) => r.handler === handler));
  if (unknown.length > 0)
    throw new Error(`OPERATIONS describes routes that do not exist: ${unknown.join(', ')}`);
  const paths: JsonSchema = {};
  for (const route of ROUTES) {
    const spec = OPERATIONS[route.handler];
    if (!spec)
      throw new Error(`No OpenAPI description for ${route.method} ${route.path} (${route.handler}).`);
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = operation(route, spec);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Catalog Jobs and Data Exports API',
      version: '1.0.0',
      description: DESCRIPTION,
    },
    servers: options.servers ?? DEFAULT_SERVERS,
    security: [{ ClientKey: [] }],
    tags: TAGS.map((tag) => ({ ...tag })),
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: SECURITY_SCHEMES,
      parameters: { IdempotencyKey: IDEMPOTENCY_KEY },
      headers: HEADERS,
      responses: COMMON_RESPONSES,
    },
  };
};

/** The document as docs/openapi.json holds it: two-space JSON and a final newline. */
export const serializeOpenApiDocument = (document: OpenApiDocument): string =>
  `${JSON.stringify(document, null, 2)}\n`;
