import { randomUUID } from 'node:crypto';
import type { UploadForm } from '../../lambdas/core/ports';
import { loadConfig } from '../../lambdas/shared/config';
import { objectStore } from '../../lambdas/shared/wiring';
import { FakeClock } from '../helpers/fakes';
import { uniqueClient } from '../helpers/integration';
import { postUploadForm } from '../helpers/upload-form';

/**
 * The presigned upload form of POST /v1/files against the local emulation of S3's POST object (SPEC 9: the
 * upload itself refuses a larger body). What S3 checks, the emulation checks, before anything is stored.
 */
const config = loadConfig(process.env);
const key = () => `uploads/${uniqueClient()}/${randomUUID()}`;
const form = (k: string, maxBytes: number, clock = new FakeClock(new Date())): Promise<UploadForm> =>
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

  it('refuses a PUT to the form URL: the only way in is the signed form', async () => {
    const upload = await form(key(), 100);
    const res = await fetch(upload.url, { method: 'PUT', body: 'a' });
    expect(res.status).toBe(405);
  });
});
