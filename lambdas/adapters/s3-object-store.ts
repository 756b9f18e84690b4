import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Clock, ObjectStore, SignedUrl } from '../core/ports';
import { translateAwsErrors } from './aws-errors';

/** One bucket behind the ObjectStore port: presigned uploads and downloads, and existence checks. */
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

  async presignDownload(key: string, expiresInSeconds: number): Promise<SignedUrl> {
    const url = await translateAwsErrors('sign download url', () =>
      getSignedUrl(this.s3, new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
        expiresIn: expiresInSeconds,
      }),
    );
    return { url, expiresAt: this.expiry(expiresInSeconds) };
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404)
        return undefined;
      return translateAwsErrors('read object size', () => Promise.reject(error));
    }
  }
}
