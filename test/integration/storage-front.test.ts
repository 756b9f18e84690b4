import { randomUUID } from 'node:crypto';
import { S3Client } from '@aws-sdk/client-s3';
import type { PresignedUpload } from '../../lambdas/core/ports';
import { loadConfig } from '../../lambdas/shared/config';
import { objectStore } from '../../lambdas/shared/wiring';
import { startUploadForms, type UploadFormServer } from '../../lib/local/upload-form';
import { FakeClock } from '../helpers/fakes';
import { uniqueClient } from '../helpers/integration';
import { postUploadForm } from '../helpers/upload-form';

/**
 * The presigned upload form of POST /v1/files against the local emulation of S3's POST object (SPEC 9: the
 * upload itself refuses a larger body). What S3 checks, the emulation checks, before anything is stored.
 */
const config = loadConfig(process.env);
/** What the local functions sign with (the integration environment's, as `npm start` sets them). */
const LOCAL_CREDENTIALS = {
  accessKeyId: config.credentials!.accessKeyId,
  secretAccessKey: config.credentials!.secretAccessKey,
};
const key = () => `uploads/${uniqueClient()}/${randomUUID()}`;
const form = (k: string, maxBytes: number, clock = new FakeClock(new Date())): Promise<PresignedUpload> =>
  objectStore(config, 'uploads', clock).presignUpload(k, 'text/csv', 900, maxBytes);
const sizeOf = (k: string) => objectStore(config, 'uploads').size(k);

describe('presigned upload form (local emulation of S3 POST object)', () => {
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

  it('refuses a form whose time has run out', async () => {
    const k = key();
    const upload = await form(k, 100, new FakeClock(new Date(Date.now() - 3_600_000)));
    const res = await postUploadForm(upload.url, upload.fields, 'a');
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Policy expired');
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

  it('refuses a PUT to the form URL: a PUT goes to the signed object URL', async () => {
    const upload = await form(key(), 100);
    const res = await fetch(upload.url, { method: 'PUT', body: 'a' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('<Code>InvalidArgument</Code>');
  });
});

describe('presigned PUT (SPEC 3.3, local emulation bounded as SPEC 9 asks)', () => {
  let small: UploadFormServer;
  /** The small server's clock: real time unless a test moves it. */
  let serverNow: Date | undefined;
  afterEach(() => {
    serverNow = undefined;
  });
  beforeAll(async () => {
    small = await startUploadForms({
      s3: new S3Client({
        region: 'us-east-1',
        endpoint: config.endpoints.s3,
        forcePathStyle: true,
        credentials: LOCAL_CREDENTIALS,
      }),
      secrets: { [LOCAL_CREDENTIALS.accessKeyId]: LOCAL_CREDENTIALS.secretAccessKey },
      maxPutBytes: 10,
      now: () => serverNow ?? new Date(),
    });
  });
  afterAll(() => small.stop());

  /** The same PUT signed for the server with a 10-byte bound. */
  const putUrlOn = async (server: UploadFormServer, k: string, clock = new FakeClock(new Date())) => {
    const store = objectStore(
      { ...config, endpoints: { ...config.endpoints, uploadForm: server.url } },
      'uploads',
      clock,
    );
    return (await store.presignUpload(k, 'text/csv', 900, 100)).putUrl;
  };

  it('stores the body under the signed key (200, with an ETag)', async () => {
    const k = key();
    const upload = await form(k, 100);
    const res = await fetch(upload.putUrl, { method: 'PUT', body: 'name,price\nTea,2\n' });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await sizeOf(k)).toBe(17);
  });

  it('refuses a declared Content-Length over the bound before reading the body, storing nothing', async () => {
    const k = key();
    const res = await fetch(await putUrlOn(small, k), { method: 'PUT', body: 'x'.repeat(11) });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('<Code>EntityTooLarge</Code>');
    expect(await sizeOf(k)).toBeUndefined();
  });

  it('cuts off a streamed body that runs past the bound, storing nothing', async () => {
    const k = key();
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode('abcdef'));
        controller.close();
      },
    });
    const res = await fetch(await putUrlOn(small, k), {
      method: 'PUT',
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('<Code>EntityTooLarge</Code>');
    expect(await sizeOf(k)).toBeUndefined();
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
    const url = new URL(await putUrlOn(small, k));
    change(url);
    const res = await fetch(url, { method: 'PUT', body: 'a' });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain(`<Code>${code}</Code>`);
    expect(await sizeOf(k)).toBeUndefined();
  });

  it('refuses a PUT whose time has run out', async () => {
    const k = key();
    const url = await putUrlOn(small, k);
    serverNow = new Date(Date.now() + 901_000);
    const res = await fetch(url, { method: 'PUT', body: 'a' });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Request has expired');
    expect(await sizeOf(k)).toBeUndefined();
  });
});
