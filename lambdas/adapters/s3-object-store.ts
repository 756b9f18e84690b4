import { createHash } from 'node:crypto';
import { NotFoundError } from '../core/errors';
import type { PresignedUpload } from '../core/model';
import type { Clock, DownloadResponse, ObjectStore, SignedUrl, WrittenObject } from '../core/ports';
import { translateAwsErrors } from './aws-errors';
import { AwsHttp, type CredentialSource } from './aws-http';
import { postPolicyFields } from './s3-post-policy';

export interface S3Location {
  readonly bucket: string;
  readonly region: string;
  readonly credentials: CredentialSource;
  /** An S3-compatible endpoint (the local emulator); unset: the bucket's virtual-hosted AWS endpoint. */
  readonly endpoint?: string;
  /** `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint host>/<key>`. */
  readonly pathStyle?: boolean;
  /** Where upload forms are posted, when that is not the bucket's endpoint (the local runtime's emulation). */
  readonly formEndpoint?: string;
}

/** What `write` holds in memory at most; larger objects go through S3StreamingStore's multipart upload. */
export const BUFFERED_WRITE_LIMIT = 16 * 1024 * 1024;

/** `inline` with an ASCII fallback name and the RFC 5987 UTF-8 name, so any file name is safe in the header. */
const inlineDisposition = (fileName: string): string => {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
};

/** Object keys are ids and slashes; every segment is escaped all the same. */
const escapeKey = (key: string): string => key.split('/').map(encodeURIComponent).join('/');

const bucketBase = (location: S3Location): string => {
  if (location.pathStyle || location.endpoint) {
    const endpoint = (location.endpoint ?? `https://s3.${location.region}.amazonaws.com`).replace(/\/+$/, '');
    if (location.pathStyle) return `${endpoint}/${location.bucket}`;
    const url = new URL(endpoint);
    return `${url.protocol}//${location.bucket}.${url.host}`;
  }
  const suffix = location.region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
  return `https://${location.bucket}.s3.${location.region}.${suffix}`;
};

/**
 * One bucket behind the ObjectStore port, over signed HTTP (no SDK client): presigned upload forms and
 * downloads, HEAD for sizes, streamed GETs, and single-request writes of objects up to BUFFERED_WRITE_LIMIT.
 */
export class S3ObjectStore implements ObjectStore {
  private readonly http: AwsHttp;

  constructor(
    private readonly location: S3Location,
    private readonly clock: Clock,
  ) {
    this.http = new AwsHttp({
      service: 's3',
      region: location.region,
      endpoint: bucketBase(location),
      credentials: location.credentials,
      timeoutMs: 10_000,
    });
  }

  private expiry(seconds: number): string {
    return new Date(this.clock.now().getTime() + seconds * 1000).toISOString();
  }

  async presignUpload(
    key: string,
    contentType: string,
    expiresInSeconds: number,
    maxBytes: number,
  ): Promise<PresignedUpload> {
    const credentials = await this.location.credentials();
    const fields = postPolicyFields({
      bucket: this.location.bucket,
      key,
      contentType,
      maxBytes,
      expiresInSeconds,
      region: this.location.region,
      credentials,
      now: this.clock.now(),
    });
    const formEndpoint = this.location.formEndpoint?.replace(/\/+$/, '');
    const url = formEndpoint ? `${formEndpoint}/${this.location.bucket}` : `${this.http.endpoint}/`;
    // The PUT of SPEC 3.3. S3 cannot bound a presigned PUT's size, so the service checks it when it reads the
    // file (file_too_large, source_too_large); the local runtime's upload server refuses it at upload.
    const putTarget = formEndpoint
      ? `${formEndpoint}/${this.location.bucket}/${escapeKey(key)}`
      : `${this.http.endpoint}/${escapeKey(key)}`;
    const putUrl = await translateAwsErrors('sign upload url', () =>
      this.http.presign(putTarget, expiresInSeconds, 'PUT'),
    );
    return { putUrl, url, fields, maxBytes, expiresAt: this.expiry(expiresInSeconds) };
  }

  /** `response` sets the Content-Type and an inline Content-Disposition S3 answers the GET with (signed too). */
  async presignDownload(
    key: string,
    expiresInSeconds: number,
    response?: DownloadResponse,
  ): Promise<SignedUrl> {
    const target = new URL(`${this.http.endpoint}/${escapeKey(key)}`);
    if (response?.contentType) target.searchParams.set('response-content-type', response.contentType);
    if (response?.fileName) {
      target.searchParams.set('response-content-disposition', inlineDisposition(response.fileName));
    }
    const url = await translateAwsErrors('sign download url', () =>
      this.http.presign(target.toString(), expiresInSeconds),
    );
    return { url, expiresAt: this.expiry(expiresInSeconds) };
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const head = await this.http.send({ method: 'HEAD', path: `/${escapeKey(key)}` });
      return Number(head.headers.get('content-length') ?? 0);
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) {
        return undefined;
      }
      return translateAwsErrors('read object size', () => Promise.reject(error));
    }
  }

  async read(key: string): Promise<AsyncIterable<Uint8Array>> {
    let response: Response;
    try {
      response = await this.http.send({ method: 'GET', path: `/${escapeKey(key)}` }, { streamBody: true });
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) {
        throw new NotFoundError(`No object has the key ${key}.`, { cause: error });
      }
      return translateAwsErrors('read object', () => Promise.reject(error));
    }
    return (response.body ?? new ReadableStream()) as unknown as AsyncIterable<Uint8Array>;
  }

  async write(
    key: string,
    body: AsyncIterable<Uint8Array | string>,
    contentType: string,
  ): Promise<WrittenObject> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
      size += buffer.length;
      if (size > BUFFERED_WRITE_LIMIT) {
        throw new RangeError(`S3ObjectStore writes at most ${BUFFERED_WRITE_LIMIT} bytes at once`);
      }
      chunks.push(buffer);
    }
    const bytes = Buffer.concat(chunks);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await translateAwsErrors('write object', () =>
      this.http.send({
        method: 'PUT',
        path: `/${escapeKey(key)}`,
        headers: { 'content-type': contentType, 'x-amz-content-sha256': sha256 },
        body: bytes,
      }),
    );
    return { sizeBytes: bytes.length, sha256 };
  }
}
