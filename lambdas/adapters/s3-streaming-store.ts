import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { PresignedUpload } from '../core/model';
import type { DownloadResponse, ObjectStore, SignedUrl, WrittenObject } from '../core/ports';
import { translateAwsErrors } from './aws-errors';
import type { S3ObjectStore } from './s3-object-store';

/** Multipart parts of 8 MB, two in flight: the upload holds ~16 MB however large the object. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

/**
 * The store of the functions that write objects of any size (catalogs, export files): S3ObjectStore for
 * everything but `write`, which streams through the SDK's multipart upload so that memory stays flat.
 */
export class S3StreamingStore implements ObjectStore {
  constructor(
    private readonly store: S3ObjectStore,
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  presignUpload(
    key: string,
    contentType: string,
    seconds: number,
    maxBytes: number,
  ): Promise<PresignedUpload> {
    return this.store.presignUpload(key, contentType, seconds, maxBytes);
  }

  presignDownload(key: string, seconds: number, response?: DownloadResponse): Promise<SignedUrl> {
    return this.store.presignDownload(key, seconds, response);
  }

  size(key: string): Promise<number | undefined> {
    return this.store.size(key);
  }

  read(key: string): Promise<AsyncIterable<Uint8Array>> {
    return this.store.read(key);
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
}
