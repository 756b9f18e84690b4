import { createServer as createHttpServer, type Server } from 'node:http';
import {
  type AddressInfo,
  createServer as createTcpServer,
  type Socket,
  type Server as TcpServer,
} from 'node:net';
import { GuardedHttp, type Resolver } from '../../lambdas/adapters/guarded-http';
import { OutboundNetworkError, OutboundTooLargeError, readBody } from '../../lambdas/core/outbound';
import type { OutboundRequest } from '../../lambdas/core/ports';

/**
 * SPEC 8: a connection that fails in any way is an outcome of that one fetch, never a crash of the
 * process. Real sockets on this machine: one that fails at once, one that refuses, one that resets (before
 * and after the headers), one that never answers, one that streams forever, one that is not TLS.
 */

/** A name that resolves to `address` as `family` (the resolver's word is what the socket is pinned to). */
const resolvingTo =
  (address: string, family: 4 | 6): Resolver =>
  async () => [{ address, family }];

const client = (resolver: Resolver = resolvingTo('127.0.0.1', 4)) =>
  new GuardedHttp({ allowLoopback: true, resolver });

const get = (url: string, overrides: Partial<OutboundRequest> = {}): OutboundRequest => ({
  url,
  method: 'GET',
  timeoutMs: 3000,
  maxBytes: 1_000_000,
  followRedirects: true,
  ...overrides,
});

const listen = async <S extends Server | TcpServer>(server: S): Promise<{ server: S; port: number }> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, port: (server.address() as AddressInfo).port };
};

const sockets = new Set<Socket>();
const servers: (Server | TcpServer)[] = [];
const tcp = async (onConnection: (socket: Socket) => void) => {
  const started = await listen(
    createTcpServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      onConnection(socket);
    }),
  );
  servers.push(started.server);
  return started.port;
};

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

describe('the guarded client against sockets that fail', () => {
  it.each(['http', 'https'])(
    'a connection that fails at once after the lookup (%s) is a network error of that fetch',
    async (scheme) => {
      // An IPv4 address handed to the socket as IPv6: connect() fails synchronously (EINVAL), exactly
      // as it does with ENETUNREACH for an address the machine has no route to.
      const failing = client(resolvingTo('127.0.0.1', 6));
      const error = await failing.request(get(`${scheme}://files.test:9/menu.csv`)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutboundNetworkError);
      expect(error).toMatchObject({ retryable: true, message: expect.stringContaining('EINVAL') });
    },
  );

  it('a refused connection is a retryable network error', async () => {
    const closed = await tcp((socket) => socket.destroy());
    servers.pop()?.close();
    const error = await client()
      .request(get(`http://files.test:${closed}/`))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundNetworkError);
  });

  it('a connection reset before any answer is a network error', async () => {
    const port = await tcp((socket) => socket.resetAndDestroy());
    const error = await client()
      .request(get(`http://files.test:${port}/`))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundNetworkError);
    expect((error as Error).message).toMatch(/ECONNRESET|socket hang up/);
  });

  it('a connection reset in the middle of the body fails the read, not the process', async () => {
    const port = await tcp((socket) => {
      socket.once('data', () => {
        socket.write(
          'HTTP/1.1 200 OK\r\ncontent-type: text/csv\r\ncontent-length: 100000\r\n\r\nname,price\n',
        );
        setImmediate(() => socket.resetAndDestroy());
      });
    });
    const response = await client().request(get(`http://files.test:${port}/`));
    expect(response.status).toBe(200);
    await expect(readBody(response)).rejects.toBeInstanceOf(OutboundNetworkError);
  });

  it('a server that never answers is cut off by the time limit', async () => {
    const port = await tcp(() => undefined);
    const started = Date.now();
    const error = await client()
      .request(get(`http://files.test:${port}/`, { timeoutMs: 300 }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundNetworkError);
    expect((error as Error).message).toContain('timed out after 300 ms');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a body that streams forever is cut off at the size limit, without a Content-Length to warn', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const { server, port } = await listen(
      createHttpServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/csv' });
        const pump = () => {
          while (res.write(chunk));
          res.once('drain', pump);
        };
        res.on('close', () => res.removeAllListeners('drain'));
        pump();
      }),
    );
    servers.push(server);
    const response = await client().request(get(`http://files.test:${port}/`, { maxBytes: 5_000_000 }));
    const error = await readBody(response).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundTooLargeError);
    expect(error).toMatchObject({ retryable: false });
  });

  it('a body that trickles forever under the size limit is cut off by the time limit', async () => {
    const { server, port } = await listen(
      createHttpServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/csv' });
        const timer = setInterval(() => res.write('a,1\n'), 20);
        res.on('close', () => clearInterval(timer));
      }),
    );
    servers.push(server);
    const response = await client().request(get(`http://files.test:${port}/`, { timeoutMs: 400 }));
    const error = await readBody(response).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundNetworkError);
    expect((error as Error).message).toContain('timed out');
  });

  it('a TLS handshake with a server that is not TLS is a network error', async () => {
    const port = await tcp((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    const error = await client()
      .request(get(`https://files.test:${port}/`))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundNetworkError);
  });
});
