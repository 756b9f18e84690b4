import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { PresignedUpload } from '../../lambdas/core/model';
import { loadConfig } from '../../lambdas/shared/config';
import { objectStore } from '../../lambdas/shared/storage-wiring';
import { type StorageFront, startStorageFront } from '../../lib/local/storage-front';
import { FakeClock } from '../helpers/fakes';
import { uniqueClient } from '../helpers/integration';
import { postUploadForm } from '../helpers/upload-form';

/**
 * The local storage front (lib/local/storage-front.ts) with the URLs the service signs (POST /v1/files, the
 * downloads of sources, drafts and exports): what S3 checks, the front checks, before anything is stored or
 * served; it streams uploads into the emulator, serves objects as downloads only, never lists, answers CORS
 * to the origins it is told and to no other.
 */
const config = loadConfig(process.env);
/** What the local functions sign with (the integration environment's, as `npm start` sets them). */
const LOCAL_CREDENTIALS = {
  accessKeyId: config.credentials!.accessKeyId,
  secretAccessKey: config.credentials!.secretAccessKey,
};
const emulator = () =>
  new S3Client({
    region: 'us-east-1',
    endpoint: config.endpoints.s3,
    forcePathStyle: true,
    credentials: LOCAL_CREDENTIALS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
const key = () => `uploads/${uniqueClient()}/${randomUUID()}`;
const form = (k: string, maxBytes: number, clock = new FakeClock(new Date())): Promise<PresignedUpload> =>
  objectStore(config, 'uploads', clock).presignUpload(k, 'text/csv', 900, maxBytes);
const sizeOf = (k: string) => objectStore(config, 'uploads').size(k);
const put = (
  upload: PresignedUpload,
  body: string | Uint8Array,
  headers: Record<string, string> = upload.putHeaders,
) => fetch(upload.putUrl, { method: 'PUT', body, headers });
/** The front the service's URLs point at in this run. */
const front = () => new URL(config.endpoints.storage!);

describe('presigned upload form (S3 POST object)', () => {
  it('stores a file within the limit under the signed key, with its Content-Type', async () => {
    const k = key();
    const upload = await form(k, 100);
    const res = await postUploadForm(upload.url, upload.fields, 'name,price\nTea,2\n');
    expect(res.status).toBe(204);
    expect(await sizeOf(k)).toBe(17);
  });

  it('refuses a file over content-length-range with 400 EntityTooLarge and stores nothing', async () => {
    const k = key();
    const upload = await form(k, 10);
    const res = await postUploadForm(upload.url, upload.fields, 'x'.repeat(11));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('<Code>EntityTooLarge</Code>');
    expect(await sizeOf(k)).toBeUndefined();
  });

  it.each([
    ['another key', { key: 'uploads/someone-else/x' }, 'AccessDenied'],
    ['another Content-Type', { 'Content-Type': 'text/html' }, 'AccessDenied'],
    ['a field the policy does not name', { acl: 'public-read' }, 'AccessDenied'],
    [
      'a policy changed after signing',
      { Policy: Buffer.from('{"expiration":"2999-01-01T00:00:00Z","conditions":[]}').toString('base64') },
      'SignatureDoesNotMatch',
    ],
  ])('refuses %s (403) and stores nothing', async (_what, change, code) => {
    const k = key();
    const upload = await form(k, 100);
    const res = await postUploadForm(upload.url, { ...upload.fields, ...change }, 'a');
    expect(res.status).toBe(403);
    expect(await res.text()).toContain(`<Code>${code}</Code>`);
    expect(await sizeOf(k)).toBeUndefined();
  });
});

describe('presigned PUT (SPEC 3.3): signed Content-Type, written once', () => {
  it('stores the body under the signed key as the declared type (200, with an ETag)', async () => {
    const k = key();
    const upload = await form(k, 100);
    const res = await put(upload, 'name,price\nTea,2\n');
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await sizeOf(k)).toBe(17);
    const download = await fetch((await objectStore(config, 'uploads').presignDownload(k, 60)).url);
    expect(download.headers.get('content-type')).toBe('text/csv');
  });

  it('refuses another Content-Type than the one declared (the file says what it is), storing nothing', async () => {
    const k = key();
    const upload = await form(k, 100);
    const res = await put(upload, '<svg onload="alert(1)"/>', {
      ...upload.putHeaders,
      'content-type': 'image/svg+xml',
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    expect(await sizeOf(k)).toBeUndefined();
  });

  it('refuses a second PUT of the file with 412 PreconditionFailed, with If-None-Match or without', async () => {
    const k = key();
    const upload = await form(k, 100);
    expect((await put(upload, 'name,price\nTea,2\n')).status).toBe(200);
    const again = await put(upload, 'name,price\nTea,2\nCoffee,3\n');
    expect(again.status).toBe(412);
    expect(await again.text()).toContain('<Code>PreconditionFailed</Code>');
    const { 'if-none-match': _, ...unconditional } = upload.putHeaders;
    expect((await put(upload, 'x', unconditional)).status).toBe(412);
    expect(await sizeOf(k)).toBe(17);
  });

  it('takes the PUT of SPEC 3.3: the declared Content-Type and nothing else', async () => {
    const k = key();
    const upload = await form(k, 100);
    expect((await put(upload, 'name,price\nTea,2\n', { 'content-type': 'text/csv' })).status).toBe(200);
    expect(await sizeOf(k)).toBe(17);
  });

  it.each([
    [
      'a signature changed',
      (u: URL) => u.searchParams.set('X-Amz-Signature', '0'.repeat(64)),
      'SignatureDoesNotMatch',
    ],
    [
      'another key',
      (u: URL) => {
        u.pathname = `${u.pathname}-other`;
      },
      'SignatureDoesNotMatch',
    ],
    ['a longer validity', (u: URL) => u.searchParams.set('X-Amz-Expires', '604800'), 'SignatureDoesNotMatch'],
    ['no signature', (u: URL) => u.searchParams.delete('X-Amz-Signature'), 'AccessDenied'],
  ])('refuses %s (403) and stores nothing', async (_what, change, code) => {
    const k = key();
    const upload = await form(k, 100);
    const url = new URL(upload.putUrl);
    change(url);
    const res = await fetch(url, { method: 'PUT', body: 'a', headers: upload.putHeaders });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain(`<Code>${code}</Code>`);
    expect(await sizeOf(k)).toBeUndefined();
  });

  it('streams an upload larger than the emulator takes in one request (20 MB) into it', async () => {
    const k = key();
    const upload = await form(k, 100 * 1024 * 1024);
    const bytes = Buffer.alloc(20 * 1024 * 1024, 'a');
    const res = await put(upload, bytes);
    expect(res.status).toBe(200);
    expect(await sizeOf(k)).toBe(bytes.length);
  });
});

describe('a front of its own (a 10-byte bound, a moved clock, CORS for one origin, a log)', () => {
  let small: StorageFront;
  let serverNow: Date | undefined;
  const logged: Record<string, unknown>[] = [];
  beforeAll(async () => {
    small = await startStorageFront({
      s3: emulator(),
      secrets: { [LOCAL_CREDENTIALS.accessKeyId]: LOCAL_CREDENTIALS.secretAccessKey },
      maxPutBytes: 10,
      now: () => serverNow ?? new Date(),
      log: (line) => logged.push(line),
    });
    small.allowOrigins(['http://127.0.0.1:3999']);
  });
  afterEach(() => {
    serverNow = undefined;
  });
  afterAll(() => small.stop());

  /** The service's URLs, signed for this front. */
  const storeOn = (server: StorageFront) =>
    objectStore({ ...config, endpoints: { ...config.endpoints, storage: server.url } }, 'uploads');

  it('refuses a declared Content-Length over the bound before reading the body, storing nothing', async () => {
    const k = key();
    const upload = await storeOn(small).presignUpload(k, 'text/csv', 900, 100);
    const res = await put(upload, 'x'.repeat(11));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('<Code>EntityTooLarge</Code>');
    expect(await sizeOf(k)).toBeUndefined();
  });

  it('cuts off a streamed body that runs past the bound, storing nothing', async () => {
    const k = key();
    const upload = await storeOn(small).presignUpload(k, 'text/csv', 900, 100);
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode('abcdef'));
        controller.close();
      },
    });
    const res = await fetch(upload.putUrl, {
      method: 'PUT',
      body: chunks,
      headers: upload.putHeaders,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('<Code>EntityTooLarge</Code>');
    expect(await sizeOf(k)).toBeUndefined();
  });

  it('refuses a form whose time has run out', async () => {
    const k = key();
    const upload = await storeOn(small).presignUpload(k, 'text/csv', 900, 100);
    serverNow = new Date(Date.now() + 901_000);
    const res = await postUploadForm(upload.url, upload.fields, 'a');
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Policy expired');
    expect(await sizeOf(k)).toBeUndefined();
  });

  it('refuses a PUT whose time has run out', async () => {
    const k = key();
    const upload = await storeOn(small).presignUpload(k, 'text/csv', 900, 100);
    serverNow = new Date(Date.now() + 901_000);
    const res = await put(upload, 'a');
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Request has expired');
    expect(await sizeOf(k)).toBeUndefined();
  });

  it('answers CORS to the origin it was told, and to no other', async () => {
    const k = key();
    await emulator().send(new PutObjectCommand({ Bucket: config.buckets.uploads, Key: k, Body: 'a,b\n' }));
    const { url } = await storeOn(small).presignDownload(k, 60);
    const allowed = await fetch(url, { headers: { origin: 'http://127.0.0.1:3999' } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3999');
    for (const origin of ['http://127.0.0.1:8000', 'http://localhost:3999', 'https://evil.example']) {
      const other = await fetch(url, { headers: { origin } });
      expect(other.status).toBe(200);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      await other.arrayBuffer();
    }
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'PUT' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers SlowDown (503), logged with its cause, when the emulator behind it is unreachable', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const orphan = await startStorageFront({
      s3: new S3Client({
        region: 'us-east-1',
        endpoint: `http://127.0.0.1:${closed}`,
        forcePathStyle: true,
        credentials: LOCAL_CREDENTIALS,
        maxAttempts: 1,
      }),
      secrets: { [LOCAL_CREDENTIALS.accessKeyId]: LOCAL_CREDENTIALS.secretAccessKey },
      maxPutBytes: 100,
      log: (line) => logged.push(line),
    });
    try {
      const upload = await storeOn(orphan).presignUpload(key(), 'text/csv', 900, 100);
      const res = await put(upload, 'a,b\n');
      expect(res.status).toBe(503);
      const body = await res.text();
      expect(body).toContain('<Code>SlowDown</Code>');
      const requestId = /<RequestId>([0-9A-F]+)<\/RequestId>/.exec(body)?.[1];
      expect(requestId).toBeDefined();
      expect(logged).toContainEqual(
        expect.objectContaining({
          level: 'ERROR',
          code: 'SlowDown',
          request_id: requestId,
          error: expect.stringMatching(/ECONNREFUSED/),
        }),
      );
    } finally {
      await orphan.stop();
    }
  });
});

describe('downloads, and everything that is not a signed request of the service', () => {
  const stored = async (body: string, contentType: string) => {
    const k = key();
    await emulator().send(
      new PutObjectCommand({ Bucket: config.buckets.uploads, Key: k, Body: body, ContentType: contentType }),
    );
    return k;
  };

  it('serves an object as a download: attachment, nosniff, sandboxed, whatever was uploaded', async () => {
    const k = await stored('<html><script>alert(document.domain)</script></html>', 'text/html');
    const { url } = await objectStore(config, 'uploads').presignDownload(k, 60);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(await res.text()).toContain('<script>');
    const named = await objectStore(config, 'uploads').presignDownload(k, 60, {
      contentType: 'text/plain; charset=utf-8',
      fileName: 'menu.html',
    });
    const asText = await fetch(named.url);
    expect(asText.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(asText.headers.get('content-disposition')).toMatch(/^attachment; filename="menu.html"/);
    await asText.arrayBuffer();
  });

  it.each(['GET', 'HEAD', 'PUT', 'DELETE'])(
    'refuses an unsigned %s of an object (403 AccessDenied)',
    async (method) => {
      const k = await stored('a,b\n', 'text/csv');
      const res = await fetch(`${front().origin}/${config.buckets.uploads}/${k}`, {
        method,
        ...(method === 'PUT' ? { body: 'overwritten' } : {}),
      });
      expect(res.status).toBe(403);
      if (method !== 'HEAD') expect(await res.text()).toContain('<Code>AccessDenied</Code>');
      expect(await sizeOf(k)).toBe(4);
    },
  );

  it('never lists: unsigned or signed, a bucket or the root is refused', async () => {
    for (const path of ['/', `/${config.buckets.uploads}`, `/${config.buckets.uploads}?list-type=2`]) {
      const res = await fetch(`${front().origin}${path}`);
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain('<Contents>');
    }
    // A presigned URL of an object, turned into a listing of its bucket, no longer matches its signature.
    const { url } = await objectStore(config, 'uploads').presignDownload(await stored('a', 'text/csv'), 60);
    const listing = new URL(url);
    listing.pathname = `/${config.buckets.uploads}`;
    const res = await fetch(listing);
    expect(res.status).toBe(403);
    expect(await res.text()).not.toContain('<Contents>');
  });

  it('refuses a DELETE even when signed as the download was (the signature covers the method)', async () => {
    const k = await stored('a,b\n', 'text/csv');
    const { url } = await objectStore(config, 'uploads').presignDownload(k, 60);
    const res = await fetch(url, { method: 'DELETE' });
    expect(res.status).toBe(403);
    expect(await sizeOf(k)).toBe(4);
  });
});
