import { once } from 'node:events';
import { request } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import {
  FAILED_AUTH_THROTTLE,
  GATEWAY_RESPONSES,
  type GatewayAnswer,
  gatewayHeaders,
  gatewayProblem,
  LOCAL_GATEWAY_RESPONSES,
  PER_CLIENT_THROTTLE,
} from '../../lib/gateway-responses';
import { type ApiGatewayOptions, createApiGateway } from '../../lib/local/api-gateway';
import type { RouteDefinition } from '../../lib/resources';

const routes: RouteDefinition[] = [
  { method: 'GET', path: '/v1/things/{id}', handler: 'get-thing', scope: 'client' },
  { method: 'POST', path: '/v1/things', handler: 'create-thing', scope: 'client' },
];

const start = async (
  throttle?: { rateLimit: number; burstLimit: number },
  more: Pick<ApiGatewayOptions, 'failedAuthThrottle' | 'bounds'> = {},
) => {
  const events: APIGatewayProxyEvent[] = [];
  const server = createApiGateway({
    routes,
    throttle,
    ...more,
    authorizer: async (event) => {
      const auth = event.headers?.authorization ?? event.headers?.Authorization;
      if (auth === 'Token api_key=broken') throw new Error('dynamodb down');
      if (auth !== 'Token api_key=good' && auth !== 'Token api_key=denied') throw new Error('Unauthorized');
      return {
        principalId: 'acme',
        policyDocument: {
          Version: '2012-10-17',
          Statement: [
            { Action: 'execute-api:Invoke', Effect: auth.endsWith('good') ? 'Allow' : 'Deny', Resource: '*' },
          ],
        },
        context: { clientId: 'acme', scope: 'client', keyId: 'key_1' },
        usageIdentifierKey: 'usage-acme',
      };
    },
    handlers: new Map([
      [
        'get-thing',
        async (event: APIGatewayProxyEvent) => {
          events.push(event);
          return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: '{"ok":true}' };
        },
      ],
      [
        'create-thing',
        async () => {
          throw new Error('handler crashed');
        },
      ],
    ]),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    events,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

const good = { authorization: 'Token api_key=good' };

describe('local API Gateway emulation', () => {
  it('turns a request into a REST proxy event with path and query parameters and the authorizer context', async () => {
    const gw = await start();
    try {
      const res = await fetch(`${gw.url}/v1/things/abc%20d?x=1&x=2&y=3`, { headers: good });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBeTruthy();
      const [event] = gw.events;
      expect(event).toMatchObject({
        resource: '/v1/things/{id}',
        path: '/v1/things/abc%20d',
        httpMethod: 'GET',
        // As in API Gateway's REST API: as the client wrote it; handlers decode (lambdas/shared/http.ts).
        pathParameters: { id: 'abc%20d' },
        queryStringParameters: { x: '2', y: '3' },
        multiValueQueryStringParameters: { x: ['1', '2'], y: ['3'] },
        body: null,
        requestContext: {
          resourcePath: '/v1/things/{id}',
          authorizer: { clientId: 'acme', scope: 'client', principalId: 'acme' },
        },
      });
      expect(event?.requestContext.requestId).toBe(res.headers.get('x-request-id'));
    } finally {
      await gw.stop();
    }
  });

  it('answers 401, 404, 405 and 503 itself, as problem+json', async () => {
    const gw = await start();
    try {
      const anonymous = await fetch(`${gw.url}/v1/things/1`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toBe('Token');
      expect(anonymous.headers.get('content-type')).toBe('application/problem+json');
      expect((await fetch(`${gw.url}/v2/nothing`, { headers: good })).status).toBe(404);
      const wrong = await fetch(`${gw.url}/v1/things/1`, { method: 'DELETE', headers: good });
      expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'GET']);
      const broken = await fetch(`${gw.url}/v1/things/1`, {
        headers: { authorization: 'Token api_key=broken' },
      });
      expect([broken.status, broken.headers.get('retry-after')]).toEqual([503, '5']);
      expect(gw.events).toHaveLength(0);
    } finally {
      await gw.stop();
    }
  });

  it('answers 503 with Retry-After and x-request-id when a handler throws, as the deployed API Gateway does (DEFAULT_5XX)', async () => {
    const gw = await start();
    try {
      const res = await fetch(`${gw.url}/v1/things`, { method: 'POST', headers: good, body: '{}' });
      expect([res.status, res.headers.get('retry-after')]).toEqual([503, '5']);
      const body = await res.text();
      expect(body).not.toContain('handler crashed');
      expect(JSON.parse(body)).toMatchObject({
        code: 'service_unavailable',
        request_id: res.headers.get('x-request-id'),
      });
    } finally {
      await gw.stop();
    }
  });

  it('throttles per client past the burst with 429 and Retry-After', async () => {
    const gw = await start({ rateLimit: 1, burstLimit: 3 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await fetch(`${gw.url}/v1/things/1`, { headers: good })).status);
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      expect(statuses.at(-1)).toBe(429);
      const limited = await fetch(`${gw.url}/v1/things/1`, { headers: good });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await gw.stop();
    }
  });

  it('throttles at PER_CLIENT_THROTTLE unless told otherwise: the usage plan of the AWS stack', async () => {
    const gw = await start();
    const now = Date.now();
    // The clock stands still: no token comes back while the burst is spent.
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    try {
      const statuses: number[] = [];
      for (let i = 0; i <= PER_CLIENT_THROTTLE.burstLimit; i++)
        statuses.push((await fetch(`${gw.url}/v1/things/1`, { headers: good })).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(PER_CLIENT_THROTTLE.burstLimit);
      expect(statuses.at(-1)).toBe(429);
      clock.mockReturnValue(now + 1000);
      const refilled: number[] = [];
      for (let i = 0; i <= PER_CLIENT_THROTTLE.rateLimit; i++)
        refilled.push((await fetch(`${gw.url}/v1/things/1`, { headers: good })).status);
      expect(refilled.filter((s) => s === 200)).toHaveLength(PER_CLIENT_THROTTLE.rateLimit);
    } finally {
      clock.mockRestore();
      await gw.stop();
    }
  });

  it('throttles failed authentications per source address; a credential that passed lately keeps passing', async () => {
    const gw = await start(undefined, { failedAuthThrottle: { rateLimit: 1, burstLimit: 3 } });
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    const unknown = (i: number) => ({ authorization: `Token api_key=unknown${i}` });
    try {
      expect((await fetch(`${gw.url}/v1/things/1`, { headers: good })).status).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await fetch(`${gw.url}/v1/things/1`, { headers: unknown(i) })).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
      const refused = await fetch(`${gw.url}/v1/things/1`);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(await refused.json()).toMatchObject({
        status: 429,
        code: 'rate_limited',
        detail: expect.stringMatching(/failed authentication/),
      });
      // The client whose key passed is not refused with its neighbour.
      expect((await fetch(`${gw.url}/v1/things/1`, { headers: good })).status).toBe(200);
      // A failure a second comes back.
      clock.mockReturnValue(now + 1000);
      expect((await fetch(`${gw.url}/v1/things/1`, { headers: unknown(9) })).status).toBe(401);
      expect((await fetch(`${gw.url}/v1/things/1`, { headers: unknown(10) })).status).toBe(429);
    } finally {
      clock.mockRestore();
      await gw.stop();
    }
  });

  it('throttles failed authentications at FAILED_AUTH_THROTTLE unless told otherwise', async () => {
    const gw = await start();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.now());
    try {
      const statuses: number[] = [];
      for (let i = 0; i <= FAILED_AUTH_THROTTLE.burstLimit; i++)
        statuses.push((await fetch(`${gw.url}/v1/things/1`)).status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(FAILED_AUTH_THROTTLE.burstLimit);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      clock.mockRestore();
      await gw.stop();
    }
  });

  it('closes a connection that sends no request in time, and refuses connections past its bound', async () => {
    const gw = await start(undefined, {
      bounds: { headersTimeoutMs: 300, requestTimeoutMs: 600, maxConnections: 2 },
    });
    const port = Number(new URL(gw.url).port);
    /** A connection that sends nothing, and what it was told before it closed. */
    const idle = () => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk.toString();
      });
      const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
      socket.on('error', () => undefined);
      return { socket, closed };
    };
    try {
      const first = idle();
      const second = idle();
      await Promise.all([once(first.socket, 'connect'), once(second.socket, 'connect')]);
      // Past maxConnections: closed at once, without an answer.
      expect(await idle().closed).toBe('');
      // The idle ones are closed after the headers timeout, with a 408.
      expect(await first.closed).toMatch(/^HTTP\/1\.1 408 /);
      expect(await second.closed).toMatch(/^HTTP\/1\.1 408 /);
      // Their room is free again.
      expect((await fetch(`${gw.url}/v1/things/1`, { headers: good })).status).toBe(200);
    } finally {
      await gw.stop();
    }
  });

  it('closes the connection after refusing a request whose body is still coming: the rest is never read as a next request', async () => {
    const gw = await start();
    const port = Number(new URL(gw.url).port);
    const body = 'x'.repeat(200_000);
    /** A request refused before its body is read; the body's second half sent once the answer came. */
    const refusedMidBody = (head: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(`${head}\r\nHost: x\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 1000)}`),
        );
        let answer = '';
        socket.on('data', (chunk) => {
          if (answer === '') socket.write(body.slice(1000), () => undefined);
          answer += chunk.toString('latin1');
        });
        // A connection left open after the answer is ended here (what it was told fails the test below).
        const deadline = setTimeout(() => socket.destroy(), 3_000);
        socket.on('close', () => {
          clearTimeout(deadline);
          resolve(answer);
        });
        socket.on('error', (error: NodeJS.ErrnoException) =>
          // The server may close before the client has written all of the body: what was answered counts.
          error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
        );
      });
    try {
      for (const [head, status] of [
        ['POST /v1/nowhere HTTP/1.1', 404],
        ['PUT /v1/things/1 HTTP/1.1', 405],
        ['POST /v1/things HTTP/1.1\r\nauthorization: Token api_key=wrong', 401],
      ] as const) {
        const answer = await refusedMidBody(head);
        expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
        expect(answer.toLowerCase()).toContain('connection: close');
        // One answer: the body's bytes were not taken for a request of their own (a 400 after the refusal).
        expect(answer.match(/HTTP\/1\.1 \d{3} /g)).toHaveLength(1);
      }
      // A refused request without a body keeps its connection for the next one.
      const res = await fetch(`${gw.url}/v1/nowhere`, { headers: good });
      expect(res.status).toBe(404);
      expect(res.headers.get('connection')).toBe('keep-alive');
    } finally {
      await gw.stop();
    }
  });

  it('passes a malformed percent-escape through to the handler untouched, as API Gateway does', async () => {
    const gw = await start();
    try {
      const res = await fetch(`${gw.url}/v1/things/%E0%A4%A`, { headers: good });
      expect(res.status).toBe(200);
      expect(gw.events[0]?.pathParameters).toEqual({ id: '%E0%A4%A' });
    } finally {
      await gw.stop();
    }
  });

  it('answers a request Node cannot parse, or whose target is no URL, with problem+json and a request id', async () => {
    const gw = await start();
    const port = Number(new URL(gw.url).port);
    const unparsable = () =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.end('GET /v1/things/1 HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'),
        );
        let answer = '';
        socket.on('data', (chunk) => {
          answer += chunk.toString();
        });
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
    const noUrl = () =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        const req = request({ port, host: '127.0.0.1', path: 'http://[/v1', headers: good }, (res) => {
          let body = '';
          res.on('data', (chunk) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      const answer = await unparsable();
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      expect(head.toLowerCase()).toContain('content-type: application/problem+json');
      expect(JSON.parse(body)).toMatchObject({
        status: 400,
        request_id: /x-request-id: (\S+)/i.exec(head)?.[1],
      });

      const res = await noUrl();
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(res.body)).toMatchObject({ status: 400, request_id: res.headers['x-request-id'] });
    } finally {
      await gw.stop();
    }
  });
});

/** The local runtime answers from lib/gateway-responses.ts exactly what the AWS stack configures. */
describe('gateway answers agree with the table the AWS stack configures', () => {
  const expectAnswer = async (res: Response, a: GatewayAnswer) => {
    expect(res.status).toBe(a.status);
    for (const [name, value] of Object.entries(gatewayHeaders(a))) expect(res.headers.get(name)).toBe(value);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toEqual(gatewayProblem(a, requestId!));
  };

  it.each([
    ['UNAUTHORIZED', '/v1/things/1', {}],
    ['AUTHORIZER_FAILURE', '/v1/things/1', { headers: { authorization: 'Token api_key=broken' } }],
    ['ACCESS_DENIED', '/v1/things/1', { headers: { authorization: 'Token api_key=denied' } }],
    ['MISSING_AUTHENTICATION_TOKEN', '/v2/nothing', { headers: good }],
    ['DEFAULT_5XX', '/v1/things', { method: 'POST', headers: good, body: '{}' }],
    [
      'REQUEST_TOO_LARGE',
      '/v1/things',
      { method: 'POST', headers: good, body: 'x'.repeat(10 * 1024 * 1024 + 1) },
    ],
  ] as const)('%s', async (type, path, init) => {
    const gw = await start();
    try {
      await expectAnswer(await fetch(`${gw.url}${path}`, init), GATEWAY_RESPONSES[type]);
    } finally {
      await gw.stop();
    }
  });

  it('THROTTLED', async () => {
    const gw = await start({ rateLimit: 1, burstLimit: 1 });
    try {
      expect((await fetch(`${gw.url}/v1/things/1`, { headers: good })).status).toBe(200);
      await expectAnswer(
        await fetch(`${gw.url}/v1/things/1`, { headers: good }),
        GATEWAY_RESPONSES.THROTTLED,
      );
    } finally {
      await gw.stop();
    }
  });

  it('METHOD_NOT_ALLOWED, which only the local runtime can tell from a missing route', async () => {
    const gw = await start();
    try {
      const res = await fetch(`${gw.url}/v1/things/1`, { method: 'DELETE', headers: good });
      expect(res.headers.get('allow')).toBe('GET');
      await expectAnswer(res, LOCAL_GATEWAY_RESPONSES.METHOD_NOT_ALLOWED);
    } finally {
      await gw.stop();
    }
  });
});
