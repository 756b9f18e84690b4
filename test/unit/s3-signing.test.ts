import type { IncomingHttpHeaders } from 'node:http';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { verifySigV4 } from '../../lib/local/s3-auth';
import { S3Error } from '../../lib/local/s3-error';

/**
 * The local storage front checks signatures as S3 does (lib/local/s3-auth.ts): here against what the SDK's own
 * signer produces — presigned PUTs over signed headers, presigned GETs with response overrides and a session
 * token, header-signed requests — and against every way of changing a signed request.
 */
const NOW = new Date('2026-03-04T05:06:07.000Z');
const credentials = {
  accessKeyId: 'local',
  secretAccessKey: 'local',
  sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE+/=',
};
const secrets = { local: 'local' };
const endpoint = 'http://127.0.0.1:4599';
const key = 'uploads/acme/9d4b2f17-6e8a-4c05-b3d1-0a7e5c2f8b96';

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'queueMicrotask'] });
});
afterEach(() => {
  jest.useRealTimers();
});

const s3 = () =>
  new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

/** A request as the front receives it: the URL's path and query as sent, Host as the URL names it. */
const received = (url: string, method: string, headers: IncomingHttpHeaders = {}) => {
  const u = new URL(url);
  return { method, rawUrl: `${u.pathname}${u.search}`, headers: { host: u.host, ...headers } };
};

const presignedPut = () =>
  getSignedUrl(s3(), new PutObjectCommand({ Bucket: 'uploads', Key: key, ContentType: 'text/csv' }), {
    expiresIn: 900,
    signableHeaders: new Set(['content-type']),
  });
const putHeaders = { 'content-type': 'text/csv', 'if-none-match': '*' };

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof S3Error) return `${error.status} ${error.code}`;
    throw error;
  }
  return 'accepted';
};

describe('presigned PUT', () => {
  it.each([
    ['with If-None-Match', putHeaders],
    ['with the Content-Type alone (SPEC 3.3)', { 'content-type': 'text/csv' }],
  ])('verifies the SDK presigner signature over the Content-Type, %s', async (_what, headers) => {
    const url = await presignedPut();
    expect(verifySigV4(received(url, 'PUT', headers), secrets, NOW)).toMatchObject({
      accessKeyId: 'local',
      presigned: true,
      signedHeaders: ['content-type', 'host'],
    });
  });

  it.each([
    ['another Content-Type', { 'content-type': 'image/svg+xml', 'if-none-match': '*' }],
    ['no Content-Type', { 'if-none-match': '*' }],
  ])('refuses %s with SignatureDoesNotMatch', async (_what, headers) => {
    const url = await presignedPut();
    expect(refusal(() => verifySigV4(received(url, 'PUT', headers), secrets, NOW))).toBe(
      '403 SignatureDoesNotMatch',
    );
  });

  it.each([
    ['another key', (u: URL) => (u.pathname = `${u.pathname}x`), '403 SignatureDoesNotMatch'],
    [
      'a longer validity',
      (u: URL) => u.searchParams.set('X-Amz-Expires', '3600'),
      '403 SignatureDoesNotMatch',
    ],
    ['an extra parameter', (u: URL) => u.searchParams.set('acl', 'public-read'), '403 SignatureDoesNotMatch'],
    ['another host', (u: URL) => (u.port = '4600'), '403 SignatureDoesNotMatch'],
    ['no signature', (u: URL) => u.searchParams.delete('X-Amz-Signature'), '403 AccessDenied'],
    [
      'an unknown key id',
      (u: URL) =>
        u.searchParams.set(
          'X-Amz-Credential',
          u.searchParams.get('X-Amz-Credential')!.replace(/^local/, 'someone'),
        ),
      '403 InvalidAccessKeyId',
    ],
  ])('refuses %s', async (_what, change, answer) => {
    const url = new URL(await presignedPut());
    change(url);
    expect(refusal(() => verifySigV4(received(url.toString(), 'PUT', putHeaders), secrets, NOW))).toBe(
      answer,
    );
  });

  it('refuses the URL as another method, and once its time has run out', async () => {
    const url = await presignedPut();
    expect(refusal(() => verifySigV4(received(url, 'DELETE', putHeaders), secrets, NOW))).toBe(
      '403 SignatureDoesNotMatch',
    );
    const late = new Date(NOW.getTime() + 901_000);
    expect(refusal(() => verifySigV4(received(url, 'PUT', putHeaders), secrets, late))).toBe(
      '403 AccessDenied',
    );
  });
});

describe('presigned GET', () => {
  it('verifies a download signed with response overrides and a session token, as GET and not as PUT', async () => {
    const url = await getSignedUrl(
      s3(),
      new GetObjectCommand({
        Bucket: 'uploads',
        Key: key,
        ResponseContentType: 'text/plain; charset=utf-8',
        ResponseContentDisposition: `attachment; filename="menu (1).html"; filename*=UTF-8''men%C3%BC.html`,
      }),
      { expiresIn: 300 },
    );
    expect(verifySigV4(received(url, 'GET'), secrets, NOW).presigned).toBe(true);
    const changed = new URL(url);
    changed.searchParams.set('response-content-type', 'text/html');
    expect(refusal(() => verifySigV4(received(changed.toString(), 'GET'), secrets, NOW))).toBe(
      '403 SignatureDoesNotMatch',
    );
    expect(refusal(() => verifySigV4(received(url, 'PUT'), secrets, NOW))).toBe('403 SignatureDoesNotMatch');
  });
});

describe('header-signed requests', () => {
  it('verifies what the SDK sends with an Authorization header, and refuses an unsigned request', async () => {
    const client = s3();
    let sent:
      | { method: string; path: string; query: Record<string, string>; headers: Record<string, string> }
      | undefined;
    client.middlewareStack.add(
      () => async (args) => {
        const request = args.request as typeof sent & { hostname: string; port?: number };
        sent = request;
        return { response: { statusCode: 200, headers: {} } as never, output: { $metadata: {} } as never };
      },
      { step: 'finalizeRequest', priority: 'low', name: 'capture' },
    );
    await client.send(new HeadObjectCommand({ Bucket: 'uploads', Key: key })).catch(() => undefined);
    expect(sent?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
    const query = new URLSearchParams(sent!.query).toString();
    const rawUrl = `${sent!.path}${query ? `?${query}` : ''}`;
    const headers = Object.fromEntries(Object.entries(sent!.headers).map(([k, v]) => [k.toLowerCase(), v]));
    expect(verifySigV4({ method: 'HEAD', rawUrl, headers }, secrets, NOW).presigned).toBe(false);
    expect(refusal(() => verifySigV4({ method: 'GET', rawUrl, headers }, secrets, NOW))).toBe(
      '403 SignatureDoesNotMatch',
    );
    const { authorization: _, ...unsigned } = headers;
    expect(refusal(() => verifySigV4({ method: 'HEAD', rawUrl, headers: unsigned }, secrets, NOW))).toBe(
      '403 AccessDenied',
    );
  });
});
