import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutboundBlockedError, readBody } from '../../lambdas/core/outbound';
import type { OutboundRequest } from '../../lambdas/core/ports';
import { guardedHttp } from '../../lambdas/shared/outbound-wiring';

/** Two loopback servers: a merchant's file server, and one standing for the local S3 emulator. */
const listen = async (handler: http.RequestListener) => {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
};

describe('the local runtime never fetches from its own emulators (SPEC 8, SPEC 10)', () => {
  let files: Awaited<ReturnType<typeof listen>>;
  let storage: Awaited<ReturnType<typeof listen>>;
  const storageHits: string[] = [];

  beforeAll(async () => {
    storage = await listen((req, res) => {
      storageHits.push(req.url ?? '');
      res.end('<ListBucketResult><Key>exports/other-client/secret.json</Key></ListBucketResult>');
    });
    files = await listen((req, res) => {
      if (req.url === '/to-storage')
        res.writeHead(302, { location: `http://localhost:${storage.port}/catalog-exports` }).end();
      else res.end('name,price\nA,1\n');
    });
  });
  afterAll(async () => {
    for (const { server } of [files, storage]) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  const client = () =>
    guardedHttp({
      allowLoopbackUrls: true,
      endpoints: {
        s3: `http://127.0.0.1:${storage.port}`,
        dynamodb: 'http://127.0.0.1:1',
        storage: 'not a url',
      },
    });
  const get = (url: string): OutboundRequest => ({
    url,
    method: 'GET',
    timeoutMs: 5000,
    maxBytes: 1024 * 1024,
    followRedirects: true,
  });

  it('still reads a merchant’s file server on loopback', async () => {
    const response = await client().request(get(`http://127.0.0.1:${files.port}/menu.csv`));
    expect((await readBody(response)).toString()).toBe('name,price\nA,1\n');
  });

  it.each(['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]', '0x7f000001', '127.1', 'files.localhost'])(
    'refuses the emulator’s port on %s, and the emulator sees nothing',
    async (host) => {
      storageHits.length = 0;
      await expect(
        client().request(get(`http://${host}:${storage.port}/catalog-exports?list-type=2`)),
      ).rejects.toThrow(OutboundBlockedError);
      expect(storageHits).toEqual([]);
    },
  );

  it('refuses a redirect from an allowed server to the emulator', async () => {
    storageHits.length = 0;
    await expect(client().request(get(`http://127.0.0.1:${files.port}/to-storage`))).rejects.toThrow(
      /own storage/,
    );
    expect(storageHits).toEqual([]);
  });

  it('refuses nothing more in AWS, where no emulator endpoint is set', async () => {
    const aws = guardedHttp({ allowLoopbackUrls: false, endpoints: {} });
    await expect(aws.request(get(`http://127.0.0.1:${files.port}/menu.csv`))).rejects.toThrow(
      /may not be reached/,
    );
  });
});
