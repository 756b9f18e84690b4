import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { isTransientAwsError } from '../../lambdas/adapters/aws-errors';
import type { BoundedBody } from './bounded-body';
import { verifySigV4 } from './s3-auth';
import { S3Error, sendS3Error } from './s3-error';
import { receiveForm } from './upload-form';
import { receivePut } from './upload-put';

/**
 * The local storage origin: every URL the service hands to clients (presigned PUTs and upload forms,
 * presigned downloads of sources, drafts and exports) points here, never at the S3 emulator (fauxqs), which
 * answers unsigned requests, lists buckets, renders HTML and cannot take a request over 11 MiB. Like S3 in
 * front of a bucket, it
 * - checks the SigV4 signature of every request, whatever its method (403 AccessDenied unsigned,
 *   SignatureDoesNotMatch when anything signed was changed, expired URLs refused);
 * - takes uploads up to `maxPutBytes` as streams, written into the emulator as multipart uploads (8 MiB parts,
 *   memory flat whatever the size): S3's POST object (upload-form.ts, which fauxqs lacks) and presigned PUTs,
 *   each written once: a second PUT of a key answers 412 PreconditionFailed, as S3's conditional write
 *   does for a client that sends `If-None-Match: *` (here whether or not it does);
 * - serves objects as downloads only (`Content-Disposition: attachment`, `X-Content-Type-Options: nosniff`,
 *   a sandboxing Content-Security-Policy): a merchant's HTML or SVG is never rendered on this origin;
 * - never lists a bucket, and answers other methods 405;
 * - sends CORS headers to the origins it is told (the operations console's, the API's own) and no other;
 * - answers every failure as S3 does (an XML error with its code and a request id), logging it with its
 *   cause: EntityTooLarge, PreconditionFailed, SlowDown when the emulator is unavailable, never a bare 500.
 */
export interface StorageFrontOptions {
  /** The emulator behind the front. */
  readonly s3: S3Client;
  /** Access key id -> secret key: the credentials the local functions sign with. */
  readonly secrets: Readonly<Record<string, string>>;
  readonly now?: () => Date;
  /** 0 (the default) picks a free port; a remembered one keeps URLs signed before a restart valid. */
  readonly port?: number;
  /** The largest upload accepted (SPEC 9: 100 MB); S3 has no such bound on a PUT, the local runtime does. */
  readonly maxPutBytes: number;
  /** One JSON line per failure (npm start prints them). */
  readonly log?: (line: Record<string, unknown>) => void;
}

export interface StorageFront {
  readonly url: string;
  readonly port: number;
  /** The origins allowed to read objects from a browser (CORS): the API's own, once it listens. */
  allowOrigins(origins: readonly string[]): void;
  stop(): Promise<void>;
}

/** Multipart parts into the emulator: at most two in flight, so an upload holds ~16 MiB whatever its size. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

const requestIdOf = () => randomBytes(8).toString('hex').toUpperCase();

/** `/bucket/key/parts` as sent → the bucket and the key (escapes decoded; 400 when not UTF-8). */
const targetOf = (rawUrl: string): { bucket: string; key: string } => {
  const path = rawUrl.split('?')[0] ?? '/';
  const [, bucket = '', ...rest] = path.split('/');
  try {
    return { bucket: decodeURIComponent(bucket), key: rest.map(decodeURIComponent).join('/') };
  } catch {
    throw new S3Error(400, 'InvalidURI', 'Could not parse the specified URI.');
  }
};

/** An error of the emulator (or of the way to it) as S3 would answer it. */
const asS3Error = (error: unknown): S3Error => {
  if (error instanceof S3Error) return error;
  const e = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  if (isTransientAwsError(error) || status === undefined) {
    return new S3Error(503, 'SlowDown', 'Please reduce your request rate.');
  }
  if (status === 404) return new S3Error(404, 'NoSuchKey', 'The specified key does not exist.');
  if (status === 412)
    return new S3Error(
      412,
      'PreconditionFailed',
      'At least one of the pre-conditions you specified did not hold',
    );
  if (status >= 400 && status < 500 && e.name) return new S3Error(status, e.name, e.message ?? e.name);
  return new S3Error(500, 'InternalError', 'We encountered an internal error. Please try again.');
};

/**
 * `attachment`, keeping the file name of a signed `response-content-disposition` (the service signs one for a
 * source's download), whatever disposition it asked for.
 */
const attachment = (signed: string | null): string => {
  const params = signed?.split(';').slice(1).join(';').trim();
  return params ? `attachment; ${params}` : 'attachment';
};

export const startStorageFront = async (options: StorageFrontOptions): Promise<StorageFront> => {
  const log = options.log ?? (() => undefined);
  const now = options.now ?? (() => new Date());
  let origins = new Set<string>();
  /** Keys with an upload in flight: a second conditional write of one meanwhile is a 409, as in S3. */
  const writing = new Set<string>();

  const cors = (req: IncomingMessage, res: ServerResponse): boolean => {
    const origin = req.headers.origin;
    res.setHeader('Vary', 'Origin');
    if (!origin || !origins.has(origin)) return false;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', 'content-length, content-range, content-type, etag');
    return true;
  };

  const exists = async (bucket: string, key: string): Promise<boolean> => {
    try {
      await options.s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return true;
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
        return false;
      throw error;
    }
  };

  /** Streams an upload into the emulator; nothing is stored unless the whole body arrived within bounds. */
  const store = async (bucket: string, key: string, body: BoundedBody, contentType: string | undefined) => {
    const upload = new Upload({
      client: options.s3,
      params: { Bucket: bucket, Key: key, Body: body, ...(contentType ? { ContentType: contentType } : {}) },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    // A failure of the body (over the bound, the client gone) fails the upload, which aborts its parts.
    try {
      const out = await Promise.race([upload.done(), body.failure]);
      return out.ETag ?? '""';
    } catch (error) {
      await upload.abort().catch(() => undefined);
      throw error;
    }
  };

  const upload = async (req: IncomingMessage, res: ServerResponse, bucket: string, key: string) => {
    // Every presigned PUT here is a client's upload of a file: written once, whether or not the client
    // sent `If-None-Match: *` (SPEC 3.3's client sends only the declared Content-Type).
    const conditional = req.method === 'PUT';
    const received =
      req.method === 'PUT'
        ? receivePut(req, key, options.maxPutBytes)
        : await receiveForm(req, bucket, { secrets: options.secrets, now });
    const lock = `${bucket}/${received.key}`;
    if (conditional) {
      if (writing.has(lock)) {
        throw new S3Error(409, 'ConditionalRequestConflict', 'A conflicting operation occurred. Retry it.');
      }
      writing.add(lock);
    }
    try {
      if (conditional && (await exists(bucket, received.key))) {
        throw new S3Error(
          412,
          'PreconditionFailed',
          'At least one of the pre-conditions you specified did not hold',
        );
      }
      const etag = await store(bucket, received.key, received.body, received.contentType);
      if (req.method === 'PUT') res.writeHead(200, { etag });
      else res.writeHead(204, { etag, location: `/${bucket}/${received.key}` });
      res.end();
    } finally {
      if (conditional) writing.delete(lock);
    }
  };

  const download = async (req: IncomingMessage, res: ServerResponse, bucket: string, key: string) => {
    const query = new URLSearchParams(req.url?.split(/\?(.*)/s)[1] ?? '');
    const range = typeof req.headers.range === 'string' ? req.headers.range : undefined;
    const object = await options.s3.send(
      new GetObjectCommand({ Bucket: bucket, Key: key, ...(range ? { Range: range } : {}) }),
    );
    const headers: Record<string, string> = {
      'content-type': query.get('response-content-type') ?? object.ContentType ?? 'application/octet-stream',
      'content-disposition': attachment(query.get('response-content-disposition')),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, no-store',
      'accept-ranges': 'bytes',
    };
    if (object.ContentLength !== undefined) headers['content-length'] = String(object.ContentLength);
    if (object.ContentRange) headers['content-range'] = object.ContentRange;
    if (object.ETag) headers.etag = object.ETag;
    if (object.LastModified) headers['last-modified'] = object.LastModified.toUTCString();
    res.writeHead(object.ContentRange ? 206 : 200, headers);
    const body = object.Body as Readable | undefined;
    if (req.method === 'HEAD' || !body) {
      body?.destroy();
      res.end();
      return;
    }
    await pipeline(body, res);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const requestId = requestIdOf();
    res.setHeader('x-amz-request-id', requestId);
    const rawUrl = req.url ?? '/';
    const method = req.method ?? 'GET';
    try {
      const allowed = cors(req, res);
      if (method === 'OPTIONS') {
        const asked = String(req.headers['access-control-request-method'] ?? '');
        if (!allowed || (asked !== 'GET' && asked !== 'HEAD')) {
          throw new S3Error(403, 'AccessForbidden', 'CORSResponse: This CORS request is not allowed.');
        }
        res.writeHead(200, {
          'access-control-allow-methods': 'GET, HEAD',
          'access-control-allow-headers': String(req.headers['access-control-request-headers'] ?? ''),
          'access-control-max-age': '3000',
        });
        res.end();
        return;
      }
      const { bucket, key } = targetOf(rawUrl);
      if (!bucket) throw new S3Error(403, 'AccessDenied', 'Access Denied');
      // S3's POST object is authenticated by its signed policy (in the form), every other request by SigV4.
      if (method === 'POST' && !key) {
        await upload(req, res, bucket, key);
        return;
      }
      verifySigV4({ method, rawUrl, headers: req.headers }, options.secrets, now());
      if (!key) throw new S3Error(403, 'AccessDenied', 'Access Denied: buckets are not listed here.');
      if (method === 'PUT') await upload(req, res, bucket, key);
      else if (method === 'GET' || method === 'HEAD') await download(req, res, bucket, key);
      else
        throw new S3Error(
          405,
          'MethodNotAllowed',
          'The specified method is not allowed against this resource.',
        );
    } catch (error) {
      const s3Error = asS3Error(error);
      log({
        level: s3Error.status >= 500 ? 'ERROR' : 'INFO',
        message: 'storage request refused',
        method,
        path: rawUrl.split('?')[0],
        status: s3Error.status,
        code: s3Error.code,
        request_id: requestId,
        ...(s3Error === error ? {} : { error: String(error), cause: (error as { name?: string }).name }),
      });
      // The rest of a refused body is read and dropped, so that the client reads the answer.
      req.unpipe();
      req.resume();
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendS3Error(res, s3Error, requestId);
    }
  };

  const server: Server = createServer((req, res) => void handle(req, res));
  // Idle keep-alive connections are kept longer than clients keep theirs (undici: 4 s), so that a client
  // never sends a request on a connection the server is closing at that moment ("other side closed").
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    allowOrigins: (list) => {
      origins = new Set(list);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
