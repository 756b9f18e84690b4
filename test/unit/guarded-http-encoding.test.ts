import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants, createGzip, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { GuardedHttp } from '../../lambdas/adapters/guarded-http';
import {
  OutboundEncodingError,
  OutboundNetworkError,
  OutboundTooLargeError,
  readBody,
} from '../../lambdas/core/outbound';
import type { OutboundRequest } from '../../lambdas/core/ports';

const CSV = 'category,name,price\nPizza,Margherita,12.50\nDrinks,Cola,2.50\n';

/** 64 MB of zeros, gzipped (about 64 KB): sent as it is, it inflates 1,000-fold. */
const gzipBomb = async (): Promise<Buffer> => {
  const gzip = createGzip({ level: constants.Z_BEST_COMPRESSION });
  const parts: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => parts.push(chunk));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < 64; i += 1) gzip.write(zeros);
  gzip.end();
  await done;
  return Buffer.concat(parts);
};

describe('GuardedHttp decodes Content-Encoding within its size limit', () => {
  let server: http.Server;
  let base: string;
  let bomb: Buffer;
  const acceptEncoding: (string | undefined)[] = [];

  const encoded =
    (encoding: string, body: Buffer) =>
    (_req: IncomingMessage, res: ServerResponse): void => {
      res.writeHead(200, { 'content-type': 'text/csv', 'content-encoding': encoding });
      res.end(body);
    };
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    '/gzip': encoded('gzip', gzipSync(CSV)),
    '/x-gzip': encoded('x-gzip', gzipSync(CSV)),
    '/deflate': encoded('deflate', deflateSync(CSV)),
    '/raw-deflate': encoded('deflate', deflateRawSync(CSV)),
    '/br': encoded('br', brotliCompressSync(CSV)),
    '/gzip-then-br': encoded('gzip, br', brotliCompressSync(gzipSync(CSV))),
    '/identity': encoded('identity', Buffer.from(CSV)),
    '/bomb': (req, res) => encoded('gzip', bomb)(req, res),
    '/corrupt': encoded('gzip', Buffer.from('this is not gzip at all')),
    '/truncated': encoded('gzip', gzipSync(CSV).subarray(0, 20)),
    '/unknown': encoded('x-evil', Buffer.from(CSV)),
    '/layers': encoded('gzip, gzip, gzip', gzipSync(gzipSync(gzipSync(CSV)))),
    '/empty': (_req, res) => res.writeHead(204, { 'content-encoding': 'gzip' }).end(),
    '/stalls': (_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.write(gzipSync(CSV).subarray(0, 12));
    },
  };

  beforeAll(async () => {
    bomb = await gzipBomb();
    server = http.createServer((req, res) => {
      acceptEncoding.push(req.headers['accept-encoding']);
      const route = routes[req.url ?? ''];
      if (route) route(req, res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const client = new GuardedHttp({ allowLoopback: true });
  const get = (path: string, overrides: Partial<OutboundRequest> = {}): OutboundRequest => ({
    url: `${base}${path}`,
    method: 'GET',
    timeoutMs: 5000,
    maxBytes: 1024 * 1024,
    followRedirects: true,
    ...overrides,
  });

  it.each(['/gzip', '/x-gzip', '/deflate', '/raw-deflate', '/br', '/gzip-then-br'])(
    'reads %s as the text it encodes, without the headers of its encoded form',
    async (path) => {
      const response = await client.request(get(path));
      expect((await readBody(response)).toString('utf8')).toBe(CSV);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers['content-type']).toBe('text/csv');
    },
  );

  it('reads a body sent with Content-Encoding: identity as it is', async () => {
    const response = await client.request(get('/identity'));
    expect((await readBody(response)).toString('utf8')).toBe(CSV);
  });

  it('names the codings it reads in Accept-Encoding', async () => {
    acceptEncoding.length = 0;
    await readBody(await client.request(get('/gzip')));
    expect(acceptEncoding).toEqual(['gzip, deflate, br']);
  });

  it('cuts a gzip bomb off at the limit on the decoded bytes', async () => {
    const response = await client.request(get('/bomb', { maxBytes: 1024 * 1024 }));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expect(readBody(response)).rejects.toThrow(OutboundTooLargeError);
  });

  it.each(['/corrupt', '/truncated', '/unknown', '/layers'])(
    'fails %s with a permanent encoding error that says so',
    async (path) => {
      const response = await client.request(get(path));
      const failure = readBody(response);
      await expect(failure).rejects.toThrow(OutboundEncodingError);
      await expect(failure).rejects.toMatchObject({ retryable: false, message: /Content-Encoding|encoding/ });
    },
  );

  it('reads an empty body marked gzip as empty', async () => {
    const response = await client.request(get('/empty'));
    expect(response.status).toBe(204);
    expect((await readBody(response)).length).toBe(0);
  });

  it('keeps the time limit while decoding: a body that stalls is a network time-out', async () => {
    const response = await client.request(get('/stalls', { timeoutMs: 300 }));
    await expect(readBody(response)).rejects.toThrow(OutboundNetworkError);
  });
});
