import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  QueueNameExists,
  SetQueueAttributesCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import {
  BUCKETS,
  type BucketKey,
  DLQ_RETENTION_SECONDS,
  deadLetterQueueName,
  ENV,
  QUEUES,
  type QueueKey,
  TABLE,
  visibilityTimeoutSeconds,
} from '../resources';

export interface ProvisionedResources {
  readonly tableName: string;
  readonly queueUrls: Record<QueueKey, string>;
  readonly deadLetterQueueUrls: Record<QueueKey, string>;
  readonly buckets: Record<BucketKey, string>;
}

/** Creates the table exactly as lib/resources.ts describes it (the CDK stack reads the same description). */
export const createTable = async (
  dynamo: DynamoDBClient,
  tableName: string = TABLE.localName,
): Promise<void> => {
  const attributes = new Set<string>([TABLE.partitionKey, TABLE.sortKey]);
  for (const index of TABLE.indexes) {
    attributes.add(index.partitionKey);
    attributes.add(index.sortKey);
  }
  try {
    await dynamo.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: TABLE.indexes.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection:
            index.projection.type === 'INCLUDE'
              ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection.attributes] }
              : { ProjectionType: 'KEYS_ONLY' },
        })),
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  for (let i = 0; i < 100; i++) {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // dynalite records the setting but never expires items: code checks expiry itself.
  await dynamo
    .send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      }),
    )
    .catch(() => undefined);
};

/**
 * The queue's URL on the endpoint the client talks to. fauxqs names queues `sqs.<region>.localhost:<port>`
 * and a queue kept from an earlier run has that run's port; it finds a queue by the URL's path alone.
 */
const onEndpoint = async (sqs: SQSClient, queueUrl: string): Promise<string> => {
  const endpoint = await sqs.config.endpoint?.();
  if (!endpoint) return queueUrl;
  const port = endpoint.port ? `:${endpoint.port}` : '';
  return `${endpoint.protocol}//${endpoint.hostname}${port}${queueUrl.replace(/^[a-z]+:\/\/[^/]+/i, '')}`;
};

/**
 * Creates a queue, or brings an existing one (kept from an earlier run) to `attributes`, as a CDK deployment
 * would update it.
 */
const ensureQueue = async (
  sqs: SQSClient,
  name: string,
  attributes: Record<string, string>,
): Promise<string> => {
  try {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
    return onEndpoint(sqs, QueueUrl!);
  } catch (error) {
    if (!(error instanceof QueueNameExists)) throw error;
    const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: name }));
    const url = await onEndpoint(sqs, QueueUrl!);
    await sqs.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: attributes }));
    return url;
  }
};

/**
 * Creates every queue with its dead-letter queue, redrive policy and visibility timeout. `prefix` gives a
 * test its own set of queues.
 */
export const createQueues = async (
  sqs: SQSClient,
  prefix = '',
): Promise<{ queueUrls: Record<QueueKey, string>; deadLetterQueueUrls: Record<QueueKey, string> }> => {
  const queueUrls = {} as Record<QueueKey, string>;
  const deadLetterQueueUrls = {} as Record<QueueKey, string>;
  for (const [key, q] of Object.entries(QUEUES) as [QueueKey, (typeof QUEUES)[QueueKey]][]) {
    const dlqUrl = await ensureQueue(sqs, prefix + deadLetterQueueName(q), {
      MessageRetentionPeriod: String(DLQ_RETENTION_SECONDS),
    });
    const dlqArn = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['QueueArn'] }),
    );
    queueUrls[key] = await ensureQueue(sqs, prefix + q.localName, {
      VisibilityTimeout: String(visibilityTimeoutSeconds(q)),
      RedrivePolicy: JSON.stringify({
        deadLetterTargetArn: dlqArn.Attributes?.QueueArn,
        maxReceiveCount: q.maxReceiveCount,
      }),
    });
    deadLetterQueueUrls[key] = dlqUrl;
  }
  return { queueUrls, deadLetterQueueUrls };
};

export const createBuckets = async (s3: S3Client): Promise<Record<BucketKey, string>> => {
  const buckets = {} as Record<BucketKey, string>;
  for (const [key, bucket] of Object.entries(BUCKETS) as [BucketKey, (typeof BUCKETS)[BucketKey]][]) {
    await s3.send(new CreateBucketCommand({ Bucket: bucket.localName })).catch((error: { name?: string }) => {
      if (error.name !== 'BucketAlreadyOwnedByYou' && error.name !== 'BucketAlreadyExists') throw error;
    });
    buckets[key] = bucket.localName;
  }
  return buckets;
};

export const provisionAll = async (clients: {
  dynamo: DynamoDBClient;
  sqs: SQSClient;
  s3: S3Client;
}): Promise<ProvisionedResources> => {
  await createTable(clients.dynamo);
  const { queueUrls, deadLetterQueueUrls } = await createQueues(clients.sqs);
  const buckets = await createBuckets(clients.s3);
  return { tableName: TABLE.localName, queueUrls, deadLetterQueueUrls, buckets };
};

/** The environment the Lambda code reads (lambdas/shared/config.ts), pointing at the local resources. */
export const lambdaEnvironment = (
  resources: ProvisionedResources,
  endpoints: { dynamodb: string; aws: string; storage?: string },
): Record<string, string> => ({
  [ENV.tableName]: resources.tableName,
  [ENV.queueUrl.jobsRush]: resources.queueUrls.jobsRush,
  [ENV.queueUrl.jobsStandard]: resources.queueUrls.jobsStandard,
  [ENV.queueUrl.exports]: resources.queueUrls.exports,
  [ENV.queueUrl.callbacks]: resources.queueUrls.callbacks,
  [ENV.callbackDeadLetterQueueUrl]: resources.deadLetterQueueUrls.callbacks,
  [ENV.bucket.uploads]: resources.buckets.uploads,
  [ENV.bucket.catalogs]: resources.buckets.catalogs,
  [ENV.bucket.exports]: resources.buckets.exports,
  AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
  AWS_ENDPOINT_URL_SQS: endpoints.aws,
  AWS_ENDPOINT_URL_S3: endpoints.aws,
  ...(endpoints.storage ? { [ENV.storageEndpoint]: endpoints.storage } : {}),
  S3_FORCE_PATH_STYLE: 'true',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
});
