import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { NotFoundError } from '../core/errors';
import type { Clock, DownloadResponse, ObjectStore, SignedUrl, WrittenObject } from '../core/ports';
import { translateAwsErrors } from './aws-errors';

const isMissing = (error: unknown): boolean => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};

/** `inline` with an ASCII fallback name and the RFC 5987 UTF-8 name, so any file name is safe in the header. */
const inlineDisposition = (fileName: string): string => {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
};

/** Multipart parts of 8 MB, two in flight: the upload holds ~16 MB however large the object. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

/** One bucket behind the ObjectStore port: presigned uploads and downloads, streaming reads and writes. */
export class S3ObjectStore implements ObjectStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly clock: Clock,
  ) {}

  private expiry(seconds: number): string {
    return new Date(this.clock.now().getTime() + seconds * 1000).toISOString();
  }

  async presignUpload(key: string, contentType: string, expiresInSeconds: number): Promise<SignedUrl> {
    const url = await translateAwsErrors('sign upload url', () =>
      getSignedUrl(
        this.s3,
        new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }),
        {
          expiresIn: expiresInSeconds,
        },
      ),
    );
    return { url, expiresAt: this.expiry(expiresInSeconds) };
  }

  async presignDownload(
    key: string,
    expiresInSeconds: number,
    response?: DownloadResponse,
  ): Promise<SignedUrl> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ...(response?.contentType ? { ResponseContentType: response.contentType } : {}),
      ...(response?.fileName ? { ResponseContentDisposition: inlineDisposition(response.fileName) } : {}),
    });
    const url = await translateAwsErrors('sign download url', () =>
      getSignedUrl(this.s3, command, { expiresIn: expiresInSeconds }),
    );
    return { url, expiresAt: this.expiry(expiresInSeconds) };
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return undefined;
      return translateAwsErrors('read object size', () => Promise.reject(error));
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
        params: { Bucket: this.bucket, Key: key, Body: Readable.from(measured()), ContentType: contentType },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        leavePartsOnError: false,
      }).done(),
    );
    return { sizeBytes, sha256: hash.digest('hex') };
  }

  async read(key: string): Promise<AsyncIterable<Uint8Array>> {
    try {
      const result = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return result.Body as AsyncIterable<Uint8Array>;
    } catch (error) {
      if (isMissing(error)) throw new NotFoundError(`No object has the key ${key}.`, { cause: error });
      return translateAwsErrors('read object', () => Promise.reject(error));
    }
  }
}
