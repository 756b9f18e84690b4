import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * The embedded S3/SQS and DynamoDB emulators hold merchants' files and the job queues without any
 * authentication: they must answer on loopback only, never on the machine's other networks.
 */

const portOf = (endpoint: string | undefined): number => Number(new URL(endpoint ?? '').port);

const reachable = (host: string, port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });

const externalAddresses = (): string[] =>
  Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && !a.internal && a.family === 'IPv4')
    .map((a) => a!.address);

describe('the embedded emulators listen on loopback only', () => {
  const endpoints = {
    'sqs+s3 (fauxqs)': portOf(process.env.AWS_ENDPOINT_URL_SQS),
    'dynamodb (dynalite)': portOf(process.env.AWS_ENDPOINT_URL_DYNAMODB),
  };

  it.each(Object.entries(endpoints))('%s answers on 127.0.0.1 and on no other address', async (_, port) => {
    expect(port).toBeGreaterThan(0);
    await expect(reachable('127.0.0.1', port)).resolves.toBe(true);
    for (const address of externalAddresses()) {
      await expect(reachable(address, port)).resolves.toBe(false);
    }
  });
});
