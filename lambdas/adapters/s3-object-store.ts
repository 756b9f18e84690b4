import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { NotFoundError } from '../core/errors';
import type { PresignedUpload } from '../core/model';
import type { Clock, DownloadResponse, ObjectStore, SignedUrl, WrittenObject } from '../core/ports';
import { translateAwsErrors } from './aws-errors';

export interface S3Location {
  readonly bucket: string;
  /**
   * The client that signs the URLs handed to clients, when they go elsewhere than `s3` sends its requests:
   * locally, the storage front (lib/local/storage-front.ts) that checks them as S3 does. In AWS, `s3` itself.
   */
  readonly publicS3?: S3Client;
}

/** Multipart parts of 8 MB, two in flight: a write holds ~16 MB however large the object. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

/**
 * `attachment` with an ASCII fallback name and the RFC 5987 UTF-8 name, so any file name is safe in the header.
 * Always an attachment: a merchant's HTML or SVG opened from a download URL is saved, never rendered on the
 * storage's origin (the console reads sources with fetch, which the disposition does not affect).
 */
export const attachmentDisposition = (fileName: string): string => {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
};

/** An S3 error for "no such object": GetObject says NoSuchKey, HeadObject (no body) NotFound or a bare 404. */
const isMissing = (error: unknown): boolean => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * One bucket behind the ObjectStore port, through the SDK's S3Client: presigned upload forms
 * (@aws-sdk/s3-presigned-post), presigned PUTs and downloads (@aws-sdk/s3-request-presigner), HeadObject for
 * sizes, streamed GetObject, and writes of any size through @aws-sdk/lib-storage (one PutObject for a small
 * object, a multipart upload for a large one: memory stays flat).
 */
export class S3ObjectStore implements ObjectStore {
  constructor(
    private readonly s3: S3Client,
    private readonly location: S3Location,
    private readonly clock: Clock,
  ) {}

  private get signer(): S3Client {
    return this.location.publicS3 ?? this.s3;
  }

  private expiry(seconds: number): string {
    return new Date(this.clock.now().getTime() + seconds * 1000).toISOString();
  }

  /**
   * The form (S3's POST object: `content-length-range` bounds the size, S3 refuses a larger body before it
   * stores it) and the PUT of SPEC 3.3, whose signature covers the Content-Type: the object is stored as the
   * type it was declared, nothing else. `If-None-Match: *` is offered in `putHeaders` but not signed: SPEC 3.3's
   * client PUTs with the declared Content-Type alone and must be able to; a client that sends it (the CLI, the
   * console) gets S3's conditional write, a second PUT of the key answered 412 PreconditionFailed. S3 cannot bound a presigned
   * PUT's size: the service checks it when it reads the file (file_too_large, source_too_large). URLs are
   * signed at the store's clock; the form at the SDK's (createPresignedPost takes no date), the same in use.
   */
  async presignUpload(
    key: string,
    contentType: string,
    expiresInSeconds: number,
    maxBytes: number,
  ): Promise<PresignedUpload> {
    const { bucket } = this.location;
    const [form, putUrl] = await translateAwsErrors('sign upload', () =>
      Promise.all([
        createPresignedPost(this.signer, {
          Bucket: bucket,
          Key: key,
          Conditions: [['content-length-range', 0, maxBytes]],
          Fields: { 'Content-Type': contentType },
          Expires: expiresInSeconds,
        }),
        getSignedUrl(
          this.signer,
          new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: contentType }),
          {
            expiresIn: expiresInSeconds,
            signingDate: this.clock.now(),
            signableHeaders: new Set(['content-type']),
          },
        ),
      ]),
    );
    return {
      putUrl,
      putHeaders: { 'content-type': contentType, 'if-none-match': '*' },
      url: form.url,
      fields: form.fields,
      maxBytes,
      expiresAt: this.expiry(expiresInSeconds),
    };
  }

  /** `response` sets the Content-Type S3 answers the GET with and the file name of its attachment (signed). */
  async presignDownload(
    key: string,
    expiresInSeconds: number,
    response?: DownloadResponse,
  ): Promise<SignedUrl> {
    const url = await translateAwsErrors('sign download', () =>
      getSignedUrl(
        this.signer,
        new GetObjectCommand({
          Bucket: this.location.bucket,
          Key: key,
          ...(response?.contentType ? { ResponseContentType: response.contentType } : {}),
          ...(response?.fileName
            ? { ResponseContentDisposition: attachmentDisposition(response.fileName) }
            : {}),
        }),
        { expiresIn: expiresInSeconds, signingDate: this.clock.now() },
      ),
    );
    return { url, expiresAt: this.expiry(expiresInSeconds) };
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return undefined;
      return translateAwsErrors('read object size', () => Promise.reject(error));
    }
  }

  async read(key: string): Promise<AsyncIterable<Uint8Array>> {
    try {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: key }));
      // In Node.js the body is an http.IncomingMessage (a Readable, so async-iterable).
      return (object.Body as AsyncIterable<Uint8Array> | undefined) ?? Readable.from([]);
    } catch (error) {
      if (isMissing(error)) throw new NotFoundError(`No object has the key ${key}.`, { cause: error });
      return translateAwsErrors('read object', () => Promise.reject(error));
    }
  }

  async write(
    key: string,
    body: AsyncIterable<Uint8Array | string>,
    contentType: string,
  ): Promise<WrittenObject> {
    const hash = createHash('sha256');
    let sizeBytes = 0;
    async function* measured(): AsyncGenerator<Buffer> {
      for await (const chunk of body) {
        const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
        hash.update(buffer);
        sizeBytes += buffer.length;
        yield buffer;
      }
    }
    await translateAwsErrors('write object', () =>
      new Upload({
        client: this.s3,
        params: {
          Bucket: this.location.bucket,
          Key: key,
          Body: Readable.from(measured()),
          ContentType: contentType,
        },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        leavePartsOnError: false,
      }).done(),
    );
    return { sizeBytes, sha256: hash.digest('hex') };
  }
}
