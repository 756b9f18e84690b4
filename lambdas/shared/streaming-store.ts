import { Tracer } from '@aws-lambda-powertools/tracer';
import { S3Client } from '@aws-sdk/client-s3';
import type { BucketKey } from '../../lib/resources';
import { S3StreamingStore } from '../adapters/s3-streaming-store';
import type { Clock } from '../core/ports';
import type { Config } from './config';
import { objectStore, systemClock } from './wiring';

let client: { config: Config; s3: S3Client } | undefined;

/**
 * The SDK's S3 client, for the multipart uploads of the functions that write objects of any size (the job
 * and export workers). Traced: those uploads are the long part of a worker's invocation.
 */
const s3Of = (config: Config): S3Client => {
  if (client?.config !== config) {
    const s3 = new S3Client({
      region: config.region,
      endpoint: config.endpoints.s3,
      forcePathStyle: config.s3ForcePathStyle,
      ...(config.credentialSource
        ? { credentials: config.credentialSource }
        : config.credentials
          ? { credentials: config.credentials }
          : {}),
    });
    client = { config, s3: new Tracer({ serviceName: config.serviceName }).captureAWSv3Client(s3) };
  }
  return client.s3;
};

/** A bucket whose objects may be written at any size: reads and presigning as objectStore, writes streamed. */
export const streamingObjectStore = (config: Config, bucket: BucketKey, clock: Clock = systemClock) =>
  new S3StreamingStore(objectStore(config, bucket, clock), s3Of(config), config.buckets[bucket]);
