import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import type { RouteDefinition } from '../resources';

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type AuthorizerHandler = (
  event: APIGatewayRequestAuthorizerEvent,
) => Promise<APIGatewayAuthorizerResult>;

export interface StaticRoute {
  readonly contentType: string;
  readonly body: () => Promise<Buffer | string>;
}

export interface ApiGatewayOptions {
  readonly routes: readonly RouteDefinition[];
  readonly handlers: ReadonlyMap<string, ProxyHandler>;
  readonly authorizer: AuthorizerHandler;
  /** Unauthenticated pages (API reference, OpenAPI document), served as they are. */
  readonly staticRoutes?: ReadonlyMap<string, StaticRoute>;
  /** SPEC 9: 20 requests/s per client, bursts of 40 (the usage plan in AWS). */
  readonly rateLimit?: { readonly ratePerSecond: number; readonly burst: number };
  readonly stage?: string;
  readonly log?: (line: Record<string, unknown>) => void;
}

/** API Gateway's own payload limit; the handlers enforce the service's 1 MB. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

interface CompiledRoute {
  readonly route: RouteDefinition;
  readonly pattern: RegExp;
  readonly params: string[];
}

const compile = (route: RouteDefinition): CompiledRoute => {
  const params: string[] = [];
  const source = route.path
    .split('/')
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      params.push(m[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}/?$`), params };
};

const problemBody = (status: number, code: string, title: string, detail: string, requestId: string) =>
  JSON.stringify({
    type: `urn:catalog-jobs:problem:${code}`,
    title,
    status,
    detail,
    code,
    request_id: requestId,
  });

/** A token bucket per client, as API Gateway's usage plan throttling behaves. */
class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {}

  /** Seconds to wait, or 0 when the request may pass. */
  take(key: string, now = Date.now()): number {
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate));
  }
}

const readBody = (req: IncomingMessage): Promise<Buffer | 'too_large'> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? 'too_large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });

const lambdaContext = (functionName: string, requestId: string, timeoutMs = 30_000): Context => {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};

export { lambdaContext };

/**
 * An HTTP server that behaves as API Gateway's REST API does in front of the same handlers: route matching
 * with path parameters, the REQUEST authorizer (not cached, so revocation is immediate locally), proxy
 * events, per-client throttling, and gateway responses (401, 403, 404, 405, 413, 429) as problem+json.
 */
export const createApiGateway = (options: ApiGatewayOptions): Server => {
  const compiled = options.routes.map(compile);
  const stage = options.stage ?? 'local';
  const limiter = options.rateLimit
    ? new RateLimiter(options.rateLimit.ratePerSecond, options.rateLimit.burst)
    : null;

  const send = (
    res: ServerResponse,
    status: number,
    headers: Record<string, string>,
    body: string | Buffer,
  ) => {
    res.writeHead(status, headers);
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> => {
    const started = Date.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const problem = (
      status: number,
      code: string,
      title: string,
      detail: string,
      extra: Record<string, string> = {},
    ) =>
      send(
        res,
        status,
        { 'content-type': 'application/problem+json', 'x-request-id': requestId, ...extra },
        problemBody(status, code, title, detail, requestId),
      );
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      problem(400, 'validation_failed', 'Invalid request', 'The request target is not a valid path.');
      return;
    }
    const finish = (status: number) =>
      options.log?.({ method, path: url.pathname, status, ms: Date.now() - started, request_id: requestId });

    const staticRoute = method === 'GET' ? options.staticRoutes?.get(url.pathname) : undefined;
    if (staticRoute) {
      send(res, 200, { 'content-type': staticRoute.contentType }, await staticRoute.body());
      return finish(200);
    }

    const matches = compiled.filter((c) => c.pattern.test(url.pathname));
    if (matches.length === 0) {
      problem(404, 'not_found', 'Not found', `No route matches ${url.pathname}.`);
      return finish(404);
    }
    const match = matches.find((c) => c.route.method === method);
    if (!match) {
      const allow = [...new Set(matches.map((c) => c.route.method))].join(', ');
      problem(
        405,
        'method_not_allowed',
        'Method not allowed',
        `${method} is not allowed here; use ${allow}.`,
        {
          allow,
        },
      );
      return finish(405);
    }

    const headers: Record<string, string> = {};
    const multiValueHeaders: Record<string, string[]> = {};
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      const value = req.rawHeaders[i + 1]!;
      headers[name] = value;
      multiValueHeaders[name] = [...(multiValueHeaders[name] ?? []), value];
    }

    // The authorizer runs first, as in API Gateway, on every request (no cache locally).
    const methodArn = `arn:aws:execute-api:us-east-1:000000000000:local/${stage}/${method}${match.route.path}`;
    let authorization: APIGatewayAuthorizerResult;
    try {
      authorization = await options.authorizer({
        type: 'REQUEST',
        methodArn,
        resource: match.route.path,
        path: url.pathname,
        httpMethod: method,
        headers,
        multiValueHeaders,
        pathParameters: {},
        queryStringParameters: {},
        multiValueQueryStringParameters: {},
        stageVariables: {},
        requestContext: {} as APIGatewayRequestAuthorizerEvent['requestContext'],
      });
    } catch (error) {
      if (error instanceof Error && error.message === 'Unauthorized') {
        problem(
          401,
          'unauthorized',
          'Unauthorized',
          'A valid API key is required: Authorization: Token api_key=<API_KEY>.',
          {
            'www-authenticate': 'Token',
          },
        );
        return finish(401);
      }
      problem(503, 'service_unavailable', 'Service unavailable', 'The service is temporarily unavailable.', {
        'retry-after': '5',
      });
      return finish(503);
    }
    const allowed = authorization.policyDocument.Statement.some((s) => 'Effect' in s && s.Effect === 'Allow');
    if (!allowed) {
      problem(403, 'forbidden', 'Forbidden', 'This key may not call this route.');
      return finish(403);
    }

    const throttleKey = authorization.usageIdentifierKey ?? authorization.principalId;
    const wait = limiter?.take(throttleKey) ?? 0;
    if (wait > 0) {
      problem(429, 'rate_limited', 'Too many requests', 'Slow down: at most 20 requests per second.', {
        'retry-after': String(wait),
      });
      return finish(429);
    }

    const body = await readBody(req);
    if (body === 'too_large') {
      problem(413, 'payload_too_large', 'Payload too large', 'The body is larger than the service accepts.');
      return finish(413);
    }

    // As API Gateway's REST API does, path parameters reach the handler as the client wrote them
    // (percent-escapes and all): decoding them is the handler's business, and a malformed escape its 400.
    const pathParameters: Record<string, string> = {};
    const values = match.pattern.exec(url.pathname)!.slice(1);
    match.params.forEach((name, i) => {
      pathParameters[name] = values[i]!;
    });
    const query: Record<string, string> = {};
    const multiQuery: Record<string, string[]> = {};
    for (const [k, v] of url.searchParams) {
      query[k] = v;
      multiQuery[k] = [...(multiQuery[k] ?? []), v];
    }
    const hasQuery = Object.keys(query).length > 0;
    const event: APIGatewayProxyEvent = {
      resource: match.route.path,
      path: url.pathname,
      httpMethod: method,
      headers,
      multiValueHeaders,
      queryStringParameters: hasQuery ? query : null,
      multiValueQueryStringParameters: hasQuery ? multiQuery : null,
      pathParameters: match.params.length > 0 ? pathParameters : null,
      stageVariables: null,
      body: body.length > 0 ? body.toString('utf8') : null,
      isBase64Encoded: false,
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        authorizer: { ...authorization.context, principalId: authorization.principalId },
        protocol: 'HTTP/1.1',
        httpMethod: method,
        identity: {
          sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        } as APIGatewayProxyEvent['requestContext']['identity'],
        path: `/${stage}${url.pathname}`,
        stage,
        requestId,
        requestTimeEpoch: started,
        resourceId: match.route.handler,
        resourcePath: match.route.path,
      },
    };
    const handler = options.handlers.get(match.route.handler);
    if (!handler) {
      problem(500, 'internal_error', 'Internal error', 'No handler is deployed for this route.');
      return finish(500);
    }
    try {
      const result = await handler(event, lambdaContext(match.route.handler, requestId));
      const outHeaders: Record<string, string> = { 'x-request-id': requestId };
      for (const [k, v] of Object.entries(result.headers ?? {})) outHeaders[k.toLowerCase()] = String(v);
      send(
        res,
        result.statusCode,
        outHeaders,
        result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body,
      );
      finish(result.statusCode);
    } catch (error) {
      // A handler that throws is a Lambda invocation error: API Gateway answers 502.
      options.log?.({
        level: 'ERROR',
        message: 'handler threw',
        error: String(error),
        request_id: requestId,
      });
      problem(502, 'internal_error', 'Internal error', 'The service failed to handle the request.');
      finish(502);
    }
  };

  const server = createServer((req, res) => {
    const requestId = randomUUID();
    handle(req, res, requestId).catch((error: unknown) => {
      options.log?.({
        level: 'ERROR',
        message: 'gateway failure',
        error: String(error),
        request_id: requestId,
      });
      if (res.headersSent) return void res.end();
      send(
        res,
        500,
        { 'content-type': 'application/problem+json', 'x-request-id': requestId },
        problemBody(
          500,
          'internal_error',
          'Internal error',
          'The gateway failed to handle the request.',
          requestId,
        ),
      );
    });
  });
  // A request Node's parser refuses (bad request line, header too large) gets a problem body too.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const requestId = randomUUID();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const title = status === 431 ? 'Request header fields too large' : 'Bad request';
    const body = problemBody(status, 'validation_failed', title, 'The request is not valid HTTP.', requestId);
    socket.end(
      `HTTP/1.1 ${status} ${title}\r\ncontent-type: application/problem+json\r\nx-request-id: ${requestId}\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  return server;
};
