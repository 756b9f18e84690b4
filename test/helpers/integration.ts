import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { DeleteQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { TableContext } from '../../lambdas/adapters/dynamo-table';
import { loadConfig } from '../../lambdas/shared/config';
import { type AppDeps, buildDeps } from '../../lambdas/shared/deps';
import { table } from '../../lambdas/shared/wiring';
import { createQueues, createTable } from '../../lib/local/provision';
import type { QueueKey } from '../../lib/resources';
import { silentLogger } from './fakes';

/** Dependencies wired to the emulators started by the integration global setup. */
export const emulatorDeps = (overrides: Partial<AppDeps> = {}): AppDeps =>
  buildDeps(loadConfig(process.env), { logger: silentLogger(), allowHttpCallbacks: true, ...overrides });

/** SDK clients of the emulators, for what tests set up and inspect around the code under test. */
export const emulatorClients = () => {
  const config = loadConfig(process.env);
  return {
    dynamo: new DynamoDBClient({ region: config.region, endpoint: config.endpoints.dynamodb }),
    sqs: new SQSClient({ region: config.region, endpoint: config.endpoints.sqs }),
    s3: new S3Client({ region: config.region, endpoint: config.endpoints.s3, forcePathStyle: true }),
  };
};

export const sqsClient = () =>
  new SQSClient({ region: 'us-east-1', endpoint: process.env.AWS_ENDPOINT_URL_SQS });

/** A client id no other test uses, so tests share the emulators without seeing each other's data. */
export const uniqueClient = (): string => `c-${randomUUID().slice(0, 12)}`;

/**
 * A table of one test's own, exactly as lib/resources.ts describes it: for what reads across clients (the
 * outbox, the review queue, the time-out sweep), which other tests would otherwise write into meanwhile.
 */
export const freshTable = async (): Promise<TableContext & { drop(): Promise<void> }> => {
  const { dynamo } = emulatorClients();
  const tableName = `t-${randomUUID()}`;
  await createTable(dynamo, tableName);
  return {
    db: table(loadConfig(process.env)).db,
    tableName,
    drop: async () => {
      await dynamo.send(new DeleteTableCommand({ TableName: tableName }));
    },
  };
};

export interface FreshQueues {
  readonly queueUrls: Record<QueueKey, string>;
  readonly deadLetterQueueUrls: Record<QueueKey, string>;
  /** The bodies now visible on a queue, taken off it. */
  take(url: string): Promise<unknown[]>;
  drop(): Promise<void>;
}

/** Every queue of lib/resources.ts, of one test's own. */
export const freshQueues = async (): Promise<FreshQueues> => {
  const sqs = sqsClient();
  const { queueUrls, deadLetterQueueUrls } = await createQueues(sqs, `t${randomUUID().slice(0, 8)}-`);
  return {
    queueUrls,
    deadLetterQueueUrls,
    take: async (url) => {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }),
      );
      return Messages.map((m) => JSON.parse(m.Body!) as unknown);
    },
    drop: async () => {
      const urls = [...Object.values(queueUrls), ...Object.values(deadLetterQueueUrls)];
      await Promise.all(urls.map((QueueUrl) => sqs.send(new DeleteQueueCommand({ QueueUrl }))));
    },
  };
};
