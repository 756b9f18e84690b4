import http, { type IncomingMessage, type RequestOptions, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { isIP } from 'node:net';
import {
  classifyAddress,
  GuardedHttp,
  isAllowedAddress,
  isLocalhostName,
  type ResolvedAddress,
  type Resolver,
} from '../../lambdas/adapters/guarded-http';
import {
  OutboundBlockedError,
  OutboundNetworkError,
  OutboundTooLargeError,
  readBody,
} from '../../lambdas/core/outbound';
import type { OutboundRequest } from '../../lambdas/core/ports';

/**
 * Safety net: every connection the client opens goes through http(s).request with the pinned address
 * in `lookup` (or an IP literal host). Anything that is not loopback fails the test before a socket
 * connects, so no test here can ever send a packet off this machine.
 */
const connections: { host: string; address: string }[] = [];
const originalHttpRequest = http.request;
type Lookup = (h: string, o: { all?: boolean }, cb: (e: unknown, a: unknown, f?: number) => void) => void;
const guardRequest = (original: typeof http.request) =>
  ((options: RequestOptions, callback?: (res: IncomingMessage) => void) => {
    const host = String(options.host);
    const check = (address: string) => {
      if (classifyAddress(address) !== 'loopback') throw new Error(`test tried to connect to ${address}`);
      connections.push({ host, address });
    };
    if (isIP(host) !== 0) {
      check(host);
      return original(options, callback);
    }
    const pinned = options.lookup as unknown as Lookup;
    const lookup: Lookup = (hostname, lookupOptions, cb) =>
      pinned(hostname, lookupOptions, (error, address, family) => {
        if (error) return cb(error, address, family);
        const first = Array.isArray(address) ? (address[0] as { address: string }).address : String(address);
        try {
          check(first);
        } catch (refused) {
          return cb(refused, undefined);
        }
        cb(null, address, family);
      });
    return original({ ...options, lookup: lookup as unknown as RequestOptions['lookup'] }, callback);
  }) as unknown as typeof http.request;

beforeAll(() => {
  jest.spyOn(http, 'request').mockImplementation(guardRequest(originalHttpRequest));
  jest.spyOn(https, 'request').mockImplementation(() => {
    throw new Error('no https connections in unit tests');
  });
});
afterAll(() => jest.restoreAllMocks());
beforeEach(() => {
  connections.length = 0;
});

const refusingResolver: Resolver = async (hostname) => {
  throw new Error(`the resolver must not be asked for ${hostname}`);
};

const stubResolver = (table: Record<string, string[]>) => {
  const calls: string[] = [];
  const resolver: Resolver = async (hostname) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address): ResolvedAddress => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
  };
  return { resolver, calls };
};

const get = (url: string, overrides: Partial<OutboundRequest> = {}): OutboundRequest => ({
  url,
  method: 'GET',
  timeoutMs: 2000,
  maxBytes: 1_000_000,
  followRedirects: true,
  ...overrides,
});

describe('classifyAddress / isAllowedAddress', () => {
  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['169.254.0.1', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['fc00::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a00:1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'linkLocal'],
    ['0:0:0:0:0:ffff:c0a8:0101', 'private'],
    // IPv6 forms that carry an IPv4 address are what they carry (SPEC 8).
    ['::ffff:0:a00:1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::a9fe:a9fe', 'linkLocal'],
    ['::169.254.169.254', 'linkLocal'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::8.8.8.8', 'unicast'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal'],
    ['64:ff9b::808:808', 'unicast'],
    ['64:ff9b:1:a9fe:a9:fe00::', 'linkLocal'],
    ['64:ff9b:1:808:8:800::', 'unicast'],
    ['2002:a00:1::', 'private'],
    ['2002:a9fe:a9fe::1', 'linkLocal'],
    ['2002:808:808::1', 'unicast'],
    ['2001::1', 'unspecified'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'unicast'],
    ['2001:0:a00:1:8000:63bf:f7f7:f7f7', 'private'],
    ['127.1', 'loopback'],
    ['0x7f.0.0.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['017700000001', 'loopback'],
    ['8.8.8.8', 'unicast'],
    ['93.184.216.34', 'unicast'],
    ['2606:4700:4700::1111', 'unicast'],
    ['::ffff:8.8.8.8', 'unicast'],
    ['example.com', 'invalid'],
    ['', 'invalid'],
  ])('%s → %s', (address, range) => {
    expect(classifyAddress(address)).toBe(range);
  });

  test('only global unicast is allowed; loopback only when asked for', () => {
    expect(isAllowedAddress('8.8.8.8', { allowLoopback: false })).toBe(true);
    expect(isAllowedAddress('2606:4700:4700::1111', { allowLoopback: false })).toBe(true);
    expect(isAllowedAddress('127.0.0.1', { allowLoopback: false })).toBe(false);
    expect(isAllowedAddress('127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(isAllowedAddress('::1', { allowLoopback: true })).toBe(true);
    for (const internal of [
      '10.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      'fc00::1',
      'fe80::1',
      '0.0.0.0',
      '::ffff:10.0.0.1',
    ]) {
      expect(isAllowedAddress(internal, { allowLoopback: true })).toBe(false);
    }
    expect(isAllowedAddress('not an address', { allowLoopback: true })).toBe(false);
  });

  test('an IPv4 address carried in IPv6 is judged as itself; loopback only if it is this machine', () => {
    expect(isAllowedAddress('::ffff:127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(isAllowedAddress('64:ff9b::808:808', { allowLoopback: false })).toBe(true);
    expect(isAllowedAddress('2002:808:808::1', { allowLoopback: false })).toBe(true);
    // Through a translator or tunnel, 127.0.0.1 is not this machine's loopback.
    for (const translated of [
      '::127.0.0.1',
      '::7f00:1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      '::ffff:0:7f00:1',
    ]) {
      expect(isAllowedAddress(translated, { allowLoopback: true })).toBe(false);
    }
    for (const internal of [
      '::a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1:a9fe:a9:fe00::',
      '2002:a00:1::',
    ]) {
      expect(isAllowedAddress(internal, { allowLoopback: true })).toBe(false);
    }
  });

  test.each(['localhost', 'LOCALHOST', 'localhost.', 'api.localhost', 'a.b.localhost.'])(
    '%s is a localhost name',
    (name) => {
      expect(isLocalhostName(name)).toBe(true);
    },
  );

  test.each(['localhost.example.com', 'mylocalhost', 'localhost.com.', 'example.com'])(
    '%s is not a localhost name',
    (name) => {
      expect(isLocalhostName(name)).toBe(false);
    },
  );
});

describe('GuardedHttp refuses before connecting', () => {
  test.each([
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0x7f000001/',
    'http://127.1/',
    'http://017700000001/',
    'http://0177.0.0.1/',
    'http://%31%32%37.0.0.1/',
    'http://127.0.0.1.:80/',
    'http://[::1]/',
    'http://[0:0:0:0:0:ffff:127.0.0.1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0/',
    'http://0.0.0.0/',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://192.168.0.1:8080/',
    'http://100.64.0.1/',
    'http://[fc00::1]/',
    'http://[fd00:ec2::254]/',
    'http://[fe80::1]/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[2002:a9fe:a9fe::]/',
    'https://10.0.0.1/',
    'http://[::127.0.0.1]/',
    'http://[::a9fe:a9fe]/latest/meta-data/',
    'http://[::169.254.169.254]/',
    'http://[::ffff:0:a9fe:a9fe]/',
    'http://[64:ff9b:1:a9fe:a9:fe00::]/',
    'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
    'http://localhost/',
    'http://localhost./',
    'http://LocalHost.:8080/',
    'http://api.localhost/',
    'http://a.b.localhost./x',
  ])('%s', async (url) => {
    const client = new GuardedHttp({ resolver: refusingResolver });
    await expect(client.request(get(url))).rejects.toThrow(OutboundBlockedError);
    expect(connections).toEqual([]);
  });

  test('with allowLoopback, loopback spellings pass the check but other private ranges do not', async () => {
    const client = new GuardedHttp({ resolver: refusingResolver, allowLoopback: true });
    await expect(client.request(get('http://[::127.0.0.1]/'))).rejects.toThrow(OutboundBlockedError);
    await expect(client.request(get('http://[::a9fe:a9fe]/'))).rejects.toThrow(OutboundBlockedError);
    await expect(client.request(get('http://[64:ff9b::7f00:1]/'))).rejects.toThrow(OutboundBlockedError);
    await expect(client.request(get('http://[::ffff:10.0.0.1]/'))).rejects.toThrow(OutboundBlockedError);
    await expect(client.request(get('http://169.254.169.254/'))).rejects.toThrow(OutboundBlockedError);
    await expect(client.request(get('http://192.168.1.1/'))).rejects.toThrow(OutboundBlockedError);
    expect(connections).toEqual([]);
  });

  test.each([
    'ftp://example.com/menu.csv',
    'file:///etc/passwd',
    'gopher://example.com/',
    'data:text/csv,a,b',
    'not a url',
  ])('scheme or syntax: %s', async (url) => {
    const client = new GuardedHttp({ resolver: refusingResolver });
    await expect(client.request(get(url))).rejects.toThrow(OutboundBlockedError);
  });

  test('every resolved address is checked: one internal address among public ones blocks', async () => {
    const { resolver } = stubResolver({
      'metadata.test': ['169.254.169.254'],
      'mixed.test': ['93.184.216.34', '10.0.0.7'],
      'mapped.test': ['::ffff:192.168.0.1'],
      'ula.test': ['2606:4700::1', 'fd12:3456::1'],
      'nat64.test': ['64:ff9b::a00:1'],
      // As getaddrinfo prints an IPv4-compatible AAAA record: not this machine's loopback.
      'compat.test': ['::127.0.0.1'],
      'compat-metadata.test': ['::169.254.169.254'],
    });
    const client = new GuardedHttp({ resolver, allowLoopback: true });
    for (const host of [
      'metadata.test',
      'mixed.test',
      'mapped.test',
      'ula.test',
      'nat64.test',
      'compat.test',
      'compat-metadata.test',
    ]) {
      await expect(client.request(get(`http://${host}/`))).rejects.toThrow(OutboundBlockedError);
    }
    await expect(client.request(get('http://mixed.test/'))).rejects.toThrow(
      /resolves to 10\.0\.0\.7 \(private\)/,
    );
    expect(connections).toEqual([]);
  });

  test('DNS failure is a retryable network error', async () => {
    const client = new GuardedHttp({ resolver: stubResolver({}).resolver });
    const error = await client.request(get('http://nowhere.test/')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundNetworkError);
    expect(error).toMatchObject({
      retryable: true,
      message: expect.stringContaining('cannot resolve nowhere.test'),
    });
  });
});

describe('GuardedHttp against a local server', () => {
  let server: http.Server;
  let port: number;
  let base: string;
  const seen: { url: string; method: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    '/ok': (_req, res) => {
      res.setHeader('Content-Type', 'text/csv');
      res.setHeader('X-Multi', ['a', 'b']);
      res.end('name,price\nA,1\n');
    },
    '/echo': (req, res) => res.end(`${req.method} ${req.headers.host}`),
    '/r1': (_req, res) => res.writeHead(302, { location: '/r2' }).end(),
    '/r2': (_req, res) => res.writeHead(301, { location: `${base}/r3` }).end(),
    '/r3': (_req, res) => res.writeHead(307, { location: '/ok' }).end(),
    '/r0': (_req, res) => res.writeHead(302, { location: '/r1' }).end(),
    '/to-private': (_req, res) => res.writeHead(302, { location: 'http://10.0.0.1/secret' }).end(),
    '/to-metadata': (_req, res) =>
      res.writeHead(302, { location: 'http://metadata.test/latest/meta-data/' }).end(),
    '/to-decimal': (_req, res) => res.writeHead(302, { location: 'http://2852039166/' }).end(),
    '/to-file': (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
    '/see-other': (_req, res) => res.writeHead(303, { location: '/echo' }).end(),
    '/to-other-origin': (_req, res) =>
      res.writeHead(302, { location: `http://other.test:${port}/echo` }).end(),
    '/big': (_req, res) => res.writeHead(200, { 'content-length': '5000' }).end(Buffer.alloc(5000, 97)),
    '/big-chunked': (_req, res) => {
      res.writeHead(200);
      for (let i = 0; i < 5; i += 1) res.write(Buffer.alloc(1000, 98));
      res.end();
    },
    '/hang': () => undefined,
    '/slow-body': (_req, res) => {
      res.writeHead(200);
      res.write('first part');
    },
  };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          url: req.url ?? '',
          method: req.method ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        const route = routes[(req.url ?? '').split('?')[0] ?? ''];
        if (route) route(req, res);
        else res.writeHead(404).end('nope');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    seen.length = 0;
  });

  const loopbackClient = (table: Record<string, string[]> = {}) =>
    new GuardedHttp({ allowLoopback: true, resolver: stubResolver(table).resolver });

  test('allowLoopback: a GET answers with status, lower-cased headers, final URL and the body', async () => {
    const response = await loopbackClient().request(get(`${base}/ok`));
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${base}/ok`);
    expect(response.headers['content-type']).toBe('text/csv');
    expect(response.headers['x-multi']).toBe('a, b');
    expect((await readBody(response)).toString()).toBe('name,price\nA,1\n');
  });

  test('without allowLoopback the same URL is refused and the server sees nothing', async () => {
    const client = new GuardedHttp({ resolver: stubResolver({ localhost: ['::1', '127.0.0.1'] }).resolver });
    await expect(client.request(get(`${base}/ok`))).rejects.toThrow(OutboundBlockedError);
    await expect(client.request(get(`http://localhost:${port}/ok`))).rejects.toThrow(OutboundBlockedError);
    expect(seen).toEqual([]);
  });

  test('with allowLoopback, localhost names reach this machine without a DNS query', async () => {
    const client = new GuardedHttp({ allowLoopback: true, resolver: refusingResolver });
    for (const host of ['localhost', 'localhost.', 'files.localhost']) {
      const response = await client.request(get(`http://${host}:${port}/echo`));
      expect((await readBody(response)).toString()).toBe(`GET ${host}:${port}`);
    }
    expect(connections.map((c) => c.address)).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1']);
  });

  test('names resolve once and the socket is pinned to the checked address (no rebinding)', async () => {
    let answers = 0;
    const rebinding: Resolver = async () => {
      answers += 1;
      // The first answer passes the check; a second lookup would get an internal address.
      return [{ address: answers === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 }];
    };
    const client = new GuardedHttp({ allowLoopback: true, resolver: rebinding });
    const response = await client.request(get(`http://files.test:${port}/echo`));
    expect((await readBody(response)).toString()).toBe(`GET files.test:${port}`);
    expect(answers).toBe(1);
    expect(connections).toEqual([{ host: 'files.test', address: '127.0.0.1' }]);
  });

  test('redirects are followed (3 at most), each one checked', async () => {
    const client = loopbackClient();
    const response = await client.request(get(`${base}/r1`));
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${base}/ok`);
    expect(seen.map((s) => s.url)).toEqual(['/r1', '/r2', '/r3', '/ok']);

    await expect(client.request(get(`${base}/r0`))).rejects.toThrow('more than 3 redirects');
  });

  test.each(['/to-private', '/to-metadata', '/to-decimal', '/to-file'])(
    'a redirect to a refused target is refused: %s',
    async (path) => {
      const client = loopbackClient({ 'metadata.test': ['169.254.169.254'] });
      await expect(client.request(get(`${base}${path}`))).rejects.toThrow(OutboundBlockedError);
      expect(connections.map((c) => c.address)).toEqual(['127.0.0.1']);
    },
  );

  test('followRedirects false returns the redirect itself (callbacks)', async () => {
    const response = await loopbackClient().request(get(`${base}/to-private`, { followRedirects: false }));
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('http://10.0.0.1/secret');
  });

  test('POST sends the body; 303 turns it into a GET without the body', async () => {
    const client = loopbackClient();
    const response = await client.request(
      get(`${base}/see-other`, {
        method: 'POST',
        body: '{"a":1}',
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    expect((await readBody(response)).toString()).toBe(`GET 127.0.0.1:${port}`);
    expect(seen.map((s) => [s.method, s.url, s.body, s.headers['content-type']])).toEqual([
      ['POST', '/see-other', '{"a":1}', 'application/json'],
      ['GET', '/echo', '', undefined],
    ]);
  });

  test('credentials are not sent to another origin after a redirect', async () => {
    const client = loopbackClient({ 'other.test': ['127.0.0.1'] });
    await readBody(
      await client.request(get(`${base}/to-other-origin`, { headers: { Authorization: 'Bearer x' } })),
    );
    expect(seen.map((s) => [s.url, s.headers.authorization])).toEqual([
      ['/to-other-origin', 'Bearer x'],
      ['/echo', undefined],
    ]);
  });

  test('size limit: a declared length over the limit is refused at once', async () => {
    await expect(loopbackClient().request(get(`${base}/big`, { maxBytes: 1000 }))).rejects.toThrow(
      OutboundTooLargeError,
    );
  });

  test('size limit: an undeclared length is cut off while streaming', async () => {
    const response = await loopbackClient().request(get(`${base}/big-chunked`, { maxBytes: 2500 }));
    await expect(readBody(response)).rejects.toThrow(OutboundTooLargeError);
    const small = await loopbackClient().request(get(`${base}/big-chunked`, { maxBytes: 5000 }));
    expect((await readBody(small)).length).toBe(5000);
  });

  test('time limit: no answer', async () => {
    const error = await loopbackClient()
      .request(get(`${base}/hang`, { timeoutMs: 150 }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundNetworkError);
    expect(error).toMatchObject({ message: 'timed out after 150 ms', retryable: true });
  });

  test('time limit: covers the body too', async () => {
    const response = await loopbackClient().request(get(`${base}/slow-body`, { timeoutMs: 200 }));
    await expect(readBody(response)).rejects.toThrow('timed out after 200 ms');
  });

  test('a refused connection is a retryable network error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await loopbackClient()
      .request(get(`http://127.0.0.1:${closedPort}/`))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundNetworkError);
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  test('stopping early releases the connection', async () => {
    const response = await loopbackClient().request(get(`${base}/big-chunked`));
    for await (const _chunk of response.body) break;
    const again = await loopbackClient().request(get(`${base}/ok`));
    expect(again.status).toBe(200);
    await readBody(again);
  });
});
