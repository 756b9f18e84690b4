import { Aws, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import {
  BUCKETS,
  type BucketKey,
  DLQ_RETENTION_SECONDS,
  QUEUES,
  type QueueKey,
  TABLE,
  visibilityTimeoutSeconds,
} from '../resources';
import { OUTPUTS } from './names';

export interface StatefulStackProps extends StackProps {
  /** On-demand maximum throughput of the table and of each index (a cost and runaway-loop ceiling). */
  readonly maxReadRequestUnits?: number;
  readonly maxWriteRequestUnits?: number;
  /** Origins allowed to PUT to presigned upload URLs from a browser. */
  readonly uploadCorsOrigins?: readonly string[];
}

/**
 * Bucket names are fixed per account and region (`catalog-uploads-123456789012-eu-west-1`) rather than
 * generated: the stateless stack then names the buckets in its IAM statements with pseudo parameters instead
 * of cross-stack references, so the policies (and the reviewed cdk-nag acknowledgements) read as
 * `arn:<partition>:s3:::catalog-uploads-<account>-<region>/*`.
 */
export const serviceBucketName = (key: BucketKey): string =>
  `${BUCKETS[key].localName}-${Aws.ACCOUNT_ID}-${Aws.REGION}`;

export interface ServiceQueue {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
}

/**
 * Everything that holds data: the single table, the three buckets (plus their access-log bucket) and the
 * queues with their dead-letter queues. All of it is built from lib/resources.ts and retained on delete.
 */
export class StatefulStack extends Stack {
  readonly table: dynamodb.Table;
  readonly buckets: Record<BucketKey, s3.Bucket>;
  readonly accessLogsBucket: s3.Bucket;
  readonly queues: Record<QueueKey, ServiceQueue>;

  constructor(scope: Construct, id: string, props: StatefulStackProps = {}) {
    super(scope, id, props);
    const maxRead = props.maxReadRequestUnits ?? 2000;
    const maxWrite = props.maxWriteRequestUnits ?? 1000;

    this.table = new dynamodb.Table(this, TABLE.id, {
      partitionKey: { name: TABLE.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      maxReadRequestUnits: maxRead,
      maxWriteRequestUnits: maxWrite,
      timeToLiveAttribute: TABLE.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of TABLE.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        // Repositories read whole records from the indexes (listings, sweeps).
        projectionType: dynamodb.ProjectionType.ALL,
        maxReadRequestUnits: maxRead,
        maxWriteRequestUnits: maxWrite,
      });
    }

    this.accessLogsBucket = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      // The log target of the other buckets (which is why cdk-nag's S1 does not ask it to log itself).
      // Server access log delivery supports SSE-S3 only on the target bucket.
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(365) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const cors = props.uploadCorsOrigins ?? ['*'];
    const bucket = (key: BucketKey): s3.Bucket => {
      const def = BUCKETS[key];
      const lifecycleRules: s3.LifecycleRule[] = [
        { id: 'abort-incomplete-multipart', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ];
      if (def.expireAfterDays !== undefined) {
        lifecycleRules.push({ id: 'expire', expiration: Duration.days(def.expireAfterDays) });
      }
      return new s3.Bucket(this, def.id, {
        bucketName: serviceBucketName(key),
        blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
        encryption: s3.BucketEncryption.S3_MANAGED,
        enforceSSL: true,
        minimumTLSVersion: 1.2,
        objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
        serverAccessLogsBucket: this.accessLogsBucket,
        serverAccessLogsPrefix: `${def.localName}/`,
        lifecycleRules,
        // Clients PUT their source files straight to a presigned URL (SPEC 3.3), possibly from a browser; the
        // operations console reads sources (uploads, and the copies of drafted URL sources in the catalogs
        // bucket) from presigned GET URLs (GET /v1/ops/jobs/{id}/sources/{n}).
        cors:
          key === 'exports'
            ? undefined
            : [
                ...(key === 'uploads'
                  ? [
                      {
                        allowedMethods: [s3.HttpMethods.PUT],
                        allowedOrigins: [...cors],
                        allowedHeaders: ['content-type', 'content-length', 'content-md5', 'x-amz-*'],
                        exposedHeaders: ['etag'],
                        maxAge: 3000,
                      },
                    ]
                  : []),
                {
                  allowedMethods: [s3.HttpMethods.GET, s3.HttpMethods.HEAD],
                  allowedOrigins: [...cors],
                  maxAge: 3000,
                },
              ],
        removalPolicy: RemovalPolicy.RETAIN,
      });
    };
    this.buckets = { uploads: bucket('uploads'), catalogs: bucket('catalogs'), exports: bucket('exports') };

    const serviceQueue = (key: QueueKey): ServiceQueue => {
      const def = QUEUES[key];
      const deadLetterQueue = new sqs.Queue(this, `${def.id}DeadLetterQueue`, {
        retentionPeriod: Duration.seconds(DLQ_RETENTION_SECONDS),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        removalPolicy: RemovalPolicy.RETAIN,
      });
      const queue = new sqs.Queue(this, `${def.id}Queue`, {
        visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(def)),
        // Outlives the longest dead-letter path (maxReceiveCount x visibility timeout) with room to spare.
        retentionPeriod: Duration.days(4),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: def.maxReceiveCount },
        removalPolicy: RemovalPolicy.RETAIN,
      });
      return { queue, deadLetterQueue };
    };
    this.queues = {
      jobsRush: serviceQueue('jobsRush'),
      jobsStandard: serviceQueue('jobsStandard'),
      exports: serviceQueue('exports'),
      callbacks: serviceQueue('callbacks'),
    };

    new CfnOutput(this, OUTPUTS.tableName, {
      value: this.table.tableName,
      description: 'The single DynamoDB table (npm run keys reads it from here).',
    });
    for (const key of Object.keys(BUCKETS) as BucketKey[]) {
      new CfnOutput(this, OUTPUTS.bucketName(key), { value: this.buckets[key].bucketName });
    }
    for (const key of Object.keys(QUEUES) as QueueKey[]) {
      new CfnOutput(this, OUTPUTS.queueUrl(key), { value: this.queues[key].queue.queueUrl });
      new CfnOutput(this, OUTPUTS.deadLetterQueueUrl(key), {
        value: this.queues[key].deadLetterQueue.queueUrl,
      });
    }
  }
}
