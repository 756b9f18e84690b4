import { Tracer } from '@aws-lambda-powertools/tracer';
import type { S3Client } from '@aws-sdk/client-s3';
import type { BucketKey } from '../../lib/resources';
import type { S3ObjectStore } from '../adapters/s3-object-store';
import type { Clock } from '../core/ports';
import type { Config } from './config';
import { objectStore, s3Client } from './storage-wiring';
import { systemClock } from './wiring';

const traced = new WeakMap<Config, S3Client>();

/**
 * A bucket of a function that reads and writes large objects (the job and export workers), through the same
 * S3 client traced by Powertools: its reads and multipart uploads are the long part of a worker's
 * invocation. Only the workers carry the tracer.
 */
export const tracedObjectStore = (
  config: Config,
  bucket: BucketKey,
  clock: Clock = systemClock,
): S3ObjectStore => {
  let s3 = traced.get(config);
  if (!s3) {
    s3 = new Tracer({ serviceName: config.serviceName }).captureAWSv3Client(s3Client(config));
    traced.set(config, s3);
  }
  return objectStore(config, bucket, clock, s3);
};
