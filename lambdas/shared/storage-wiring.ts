import { S3Client } from '@aws-sdk/client-s3';
import type { BucketKey } from '../../lib/resources';
import { S3ObjectStore } from '../adapters/s3-object-store';
import type { Clock } from '../core/ports';
import type { Config } from './config';
import { clientOptions, once, systemClock } from './wiring';

/**
 * S3 options: path-style addressing where the emulator needs it; checksums only where S3 requires them, so
 * that a presigned PUT carries no checksum of an empty body (the SDK's default computes one when it signs
 * a PutObject without its body, which S3 would then compare with the file) and a presigned GET asks for no
 * checksum mode.
 */
const s3Options = (config: Config, endpoint: string | undefined) => ({
  ...clientOptions(config, endpoint),
  forcePathStyle: config.s3ForcePathStyle,
  requestChecksumCalculation: 'WHEN_REQUIRED' as const,
  responseChecksumValidation: 'WHEN_REQUIRED' as const,
});

/** The function's S3 client (wiring.ts says why a module of its own). */
export const s3Client = (config: Config): S3Client =>
  once(config, 's3', () => new S3Client(s3Options(config, config.endpoints.s3)));

/**
 * The client that signs URLs for clients: the same one in AWS; locally one whose endpoint is the storage
 * front (it sends nothing: presigning is local computation).
 */
export const publicS3Client = (config: Config): S3Client =>
  config.endpoints.storage
    ? once(config, 's3:public', () => new S3Client(s3Options(config, config.endpoints.storage)))
    : s3Client(config);

/** A bucket: presigned forms, PUTs and downloads, sizes, streamed reads, writes of any size. */
export const objectStore = (
  config: Config,
  bucket: BucketKey,
  clock: Clock = systemClock,
  s3: S3Client = s3Client(config),
): S3ObjectStore =>
  new S3ObjectStore(s3, { bucket: config.buckets[bucket], publicS3: publicS3Client(config) }, clock);
