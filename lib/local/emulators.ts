import type { AddressInfo } from 'node:net';
import { S3Client } from '@aws-sdk/client-s3';
import dynalite from 'dynalite';
import { startFauxqs } from 'fauxqs';
import { startUploadForms } from './upload-form';

/** The credentials the local functions sign with (lambdaEnvironment sets them). */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

export interface Emulators {
  /** DynamoDB-compatible endpoint (dynalite). */
  readonly dynamodb: string;
  /** SQS- and S3-compatible endpoint (fauxqs). */
  readonly aws: string;
  /** S3's POST object (presigned upload forms), which fauxqs lacks: lib/local/upload-form.ts. */
  readonly uploadForm: string;
  stop(): Promise<void>;
}

/**
 * Starts the embedded emulators on 127.0.0.1: dynalite (DynamoDB API, in memory) and fauxqs (SQS and S3
 * APIs, in memory). Port 0 picks free ports. Both are plain npm packages: no Docker, no cloud account.
 */
export const startEmulators = async (
  options: { dynamodbPort?: number; awsPort?: number } = {},
): Promise<Emulators> => {
  const dynamo = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    dynamo.once('error', reject);
    dynamo.listen(options.dynamodbPort ?? 0, '127.0.0.1', () => resolve());
  });
  const dynamoPort = (dynamo.address() as AddressInfo).port;
  const fauxqs = await startFauxqs({ port: options.awsPort ?? 0, host: '127.0.0.1', logger: false });
  const aws = `http://127.0.0.1:${fauxqs.port}`;
  const forms = await startUploadForms({
    s3: new S3Client({
      region: 'us-east-1',
      endpoint: aws,
      forcePathStyle: true,
      credentials: LOCAL_CREDENTIALS,
    }),
    secrets: { [LOCAL_CREDENTIALS.accessKeyId]: LOCAL_CREDENTIALS.secretAccessKey },
  });
  return {
    dynamodb: `http://127.0.0.1:${dynamoPort}`,
    aws,
    uploadForm: forms.url,
    stop: async () => {
      await forms.stop();
      await fauxqs.stop();
      await new Promise<void>((resolve) => dynamo.close(() => resolve()));
    },
  };
};
