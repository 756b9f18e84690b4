import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';
import { startFauxqs } from 'fauxqs';

export interface Emulators {
  /** DynamoDB-compatible endpoint (dynalite). */
  readonly dynamodb: string;
  /** SQS- and S3-compatible endpoint (fauxqs). */
  readonly aws: string;
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
  return {
    dynamodb: `http://127.0.0.1:${dynamoPort}`,
    aws: `http://127.0.0.1:${fauxqs.port}`,
    stop: async () => {
      await fauxqs.stop();
      await new Promise<void>((resolve) => dynamo.close(() => resolve()));
    },
  };
};
