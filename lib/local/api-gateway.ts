import { createHash, randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import {
  FAILED_AUTH_THROTTLE,
  GATEWAY_RESPONSES,
  type GatewayAnswer,
  gatewayHeaders,
  gatewayProblem,
  LOCAL_GATEWAY_RESPONSES,
  PER_CLIENT_THROTTLE,
} from '../gateway-responses';
import type { RouteDefinition } from '../resources';

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type AuthorizerHandler = (
  event: APIGatewayRequestAuthorizerEvent,
) => Promise<APIGatewayAuthorizerResult>;

export interface StaticRoute {
  readonly contentType: string;
  readonly body: () => Promise<Buffer | string>;
  /** 200 unless set (a redirect, say). */
  readonly status?: number;
  /** Further response headers (the console's Content-Security-Policy). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ApiGatewayOptions {
  readonly routes: readonly RouteDefinition[];
  readonly handlers: ReadonlyMap<string, ProxyHandler>;
  readonly authorizer: AuthorizerHandler;
  /** Unauthenticated pages (API reference, OpenAPI document), served as they are. */
  readonly staticRoutes?: ReadonlyMap<string, StaticRoute>;
  /** Per-client throttling; PER_CLIENT_THROTTLE (the usage plan's in AWS) unless a test sets another. */
  readonly throttle?: { readonly rateLimit: number; readonly burstLimit: number };
  /** SERVER_BOUNDS unless a test sets others. */
  readonly bounds?: Partial<Record<keyof typeof SERVER_BOUNDS, number>>;
  /** Failed authentications per source address; FAILED_AUTH_THROTTLE unless a test sets another. */
  readonly failedAuthThrottle?: { readonly rateLimit: number; readonly burstLimit: number };
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

/**
 * A token bucket per key, as API Gateway's usage plan throttling behaves. Buckets that have filled up again
 * are forgotten (a full bucket is what an unknown key gets), so that many keys seen once cost no memory.
 */
class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private swept = Date.now();
  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {}

  private refilled(key: string, now: number) {
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (now - this.swept > 60_000) this.sweep(now);
    return bucket;
  }

  private sweep(now: number): void {
    this.swept = now;
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * this.rate >= this.burst) this.buckets.delete(key);
    }
  }

  /** True when the request may pass; false when the client must wait (at most a second at 1 rps or more). */
  take(key: string, now = Date.now()): boolean {
    const bucket = this.refilled(key, now);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Whether `key` has a token left, without taking it. */
  has(key: string, now = Date.now()): boolean {
    return this.refilled(key, now).tokens >= 1;
  }
}

/** The digests of credentials that passed the authorizer lately: at most `max`, the oldest forgotten. */
class RecentCredentials {
  private readonly digests = new Set<string>();
  constructor(private readonly max = 10_000) {}

  private static digest = (credential: string) => createHash('sha256').update(credential).digest('base64');

  has(credential: string | undefined): boolean {
    return credential !== undefined && this.digests.has(RecentCredentials.digest(credential));
  }

  add(credential: string | undefined): void {
    if (credential === undefined) return;
    const digest = RecentCredentials.digest(credential);
    this.digests.delete(digest);
    this.digests.add(digest);
    if (this.digests.size > this.max) this.digests.delete(this.digests.values().next().value!);
  }
}

/**
 * Bounds of the HTTP server (issue 25: 19,900 idle sockets made every request fail): a connection must send
 * its request's headers within HEADERS_TIMEOUT_MS (an idle one is closed after it, with a 408), an idle
 * keep-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS, a request must be received whole within
 * REQUEST_TIMEOUT_MS, and past MAX_CONNECTIONS a new connection is refused at once.
 */
export const SERVER_BOUNDS = {
  maxConnections: 2048,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
} as const;

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

/**
 * Headers or query parameters as API Gateway puts them in the event: the last value of each name, and all
 * of them. Built from entries, so that a name such as `__proto__` is a key like any other (assigned to a
 * plain object it would replace the object's prototype instead).
 */
const collect = (pairs: readonly [string, string][]) => {
  const multi = new Map<string, string[]>();
  for (const [name, value] of pairs) multi.set(name, [...(multi.get(name) ?? []), value]);
  return {
    single: Object.fromEntries([...multi].map(([name, values]) => [name, values.at(-1)!])),
    multi: Object.fromEntries(multi),
  };
};

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
  const throttle = options.throttle ?? PER_CLIENT_THROTTLE;
  const limiter = new RateLimiter(throttle.rateLimit, throttle.burstLimit);
  const failedAuth = options.failedAuthThrottle ?? FAILED_AUTH_THROTTLE;
  const failures = new RateLimiter(failedAuth.rateLimit, failedAuth.burstLimit);
  const recent = new RecentCredentials();

  const send = (
    res: ServerResponse,
    status: number,
    headers: Record<string, string>,
    body: string | Buffer,
  ) => {
    // A request refused before its body was read (by route, key or rate) closes its connection after the
    // answer: the body's bytes still to come would otherwise be read as a next request, and answered too.
    const { complete, headers: sent } = res.req;
    const bodyToCome =
      !complete && (sent['content-length'] !== undefined || sent['transfer-encoding'] !== undefined);
    res.writeHead(status, bodyToCome ? { ...headers, connection: 'close' } : headers);
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> => {
    const started = Date.now();
    const method = (req.method ?? 'GET').toUpperCase();
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      // A target no URL parser accepts (`http://[/v1`): API Gateway's default 4xx, as a 400.
      const refused = { ...GATEWAY_RESPONSES.DEFAULT_4XX, status: 400 };
      const headers = { ...gatewayHeaders(refused), 'x-request-id': requestId };
      return send(res, 400, headers, JSON.stringify(gatewayProblem(refused, requestId)));
    }
    const finish = (status: number) =>
      options.log?.({ method, path: url.pathname, status, ms: Date.now() - started, request_id: requestId });
    /** The gateway's own answer, from the table the AWS stack configures too. */
    const answer = (a: GatewayAnswer & { status: number }, extra: Record<string, string> = {}) => {
      const headers = { ...gatewayHeaders(a), 'x-request-id': requestId, ...extra };
      send(res, a.status, headers, JSON.stringify(gatewayProblem(a, requestId)));
      return finish(a.status);
    };

    // HEAD as GET without the body (Node's response drops it), as API Gateway and S3 answer it.
    const staticRoute =
      method === 'GET' || method === 'HEAD' ? options.staticRoutes?.get(url.pathname) : undefined;
    if (staticRoute) {
      const status = staticRoute.status ?? 200;
      const headers: Record<string, string> = { 'x-request-id': requestId };
      for (const [k, v] of Object.entries(staticRoute.headers ?? {})) headers[k.toLowerCase()] = v;
      send(res, status, { ...headers, 'content-type': staticRoute.contentType }, await staticRoute.body());
      return finish(status);
    }

    const matches = compiled.filter((c) => c.pattern.test(url.pathname));
    if (matches.length === 0) return answer(GATEWAY_RESPONSES.MISSING_AUTHENTICATION_TOKEN);
    const match = matches.find((c) => c.route.method === method);
    if (!match) {
      const allow = [...new Set(matches.map((c) => c.route.method))].join(', ');
      return answer(LOCAL_GATEWAY_RESPONSES.METHOD_NOT_ALLOWED, { allow });
    }

    const headerPairs: [string, string][] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      headerPairs.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
    const { single: headers, multi: multiValueHeaders } = collect(headerPairs);

    // A source whose authentications keep failing is refused before the authorizer runs (AWS: the web
    // ACL), unless it presents a credential that passed lately: a client sharing its address keeps working.
    const source = req.socket.remoteAddress ?? 'unknown';
    const credential = headerPairs.findLast(([name]) => name.toLowerCase() === 'authorization')?.[1];
    if (!failures.has(source) && !recent.has(credential)) {
      return answer(LOCAL_GATEWAY_RESPONSES.SOURCE_THROTTLED);
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
      const denied = error instanceof Error && error.message === 'Unauthorized';
      if (denied) failures.take(source);
      return answer(denied ? GATEWAY_RESPONSES.UNAUTHORIZED : GATEWAY_RESPONSES.AUTHORIZER_FAILURE);
    }
    const allowed = authorization.policyDocument.Statement.some((s) => 'Effect' in s && s.Effect === 'Allow');
    if (!allowed) {
      failures.take(source);
      return answer(GATEWAY_RESPONSES.ACCESS_DENIED);
    }
    recent.add(credential);

    if (!limiter.take(authorization.usageIdentifierKey ?? authorization.principalId)) {
      return answer(GATEWAY_RESPONSES.THROTTLED);
    }

    const body = await readBody(req);
    if (body === 'too_large') return answer(GATEWAY_RESPONSES.REQUEST_TOO_LARGE);

    // As API Gateway's REST API does, path parameters reach the handler as the client wrote them
    // (percent-escapes and all): decoding them is the handler's business, and a malformed escape its 400.
    const pathParameters: Record<string, string> = {};
    const values = match.pattern.exec(url.pathname)!.slice(1);
    match.params.forEach((name, i) => {
      pathParameters[name] = values[i]!;
    });
    const { single: query, multi: multiQuery } = collect([...url.searchParams]);
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
    if (!handler) return answer(GATEWAY_RESPONSES.DEFAULT_5XX);
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
      // A handler that throws is a failed Lambda invocation: API Gateway's DEFAULT_5XX answer.
      options.log?.({
        level: 'ERROR',
        message: 'handler threw',
        error: String(error),
        request_id: requestId,
      });
      answer(GATEWAY_RESPONSES.DEFAULT_5XX);
    }
  };

  // Timeouts are checked every second (Node's default is every 30 s).
  const server = createServer({ connectionsCheckingInterval: 1000 }, (req, res) => {
    const requestId = randomUUID();
    handle(req, res, requestId).catch((error: unknown) => {
      options.log?.({
        level: 'ERROR',
        message: 'gateway failure',
        error: String(error),
        request_id: requestId,
      });
      if (res.headersSent) return void res.end();
      const failed = GATEWAY_RESPONSES.DEFAULT_5XX;
      const headers = { ...gatewayHeaders(failed), 'x-request-id': requestId };
      send(res, failed.status, headers, JSON.stringify(gatewayProblem(failed, requestId)));
    });
  });
  const bounds = { ...SERVER_BOUNDS, ...options.bounds };
  server.maxConnections = bounds.maxConnections;
  server.headersTimeout = bounds.headersTimeoutMs;
  server.requestTimeout = bounds.requestTimeoutMs;
  server.keepAliveTimeout = bounds.keepAliveTimeoutMs;
  // A request Node's parser refuses (bad request line, headers too large) gets a problem body too: API
  // Gateway's default 4xx.
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const requestId = randomUUID();
    const status =
      error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const refused = { ...GATEWAY_RESPONSES.DEFAULT_4XX, status };
    // An answer to HEAD has no body (the method is known when the request line was read).
    const head = error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    const body = head ? '' : JSON.stringify(gatewayProblem(refused, requestId));
    const headers = Object.entries({ ...gatewayHeaders(refused), 'x-request-id': requestId })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers}content-length: ${Buffer.byteLength(body)}\r\n` +
        `connection: close\r\n\r\n${body}`,
    );
  });
  return server;
};
