import { Aws, CfnOutput, Duration, Fn, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
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
import { OUTPUTS, STACK_NAMES } from './names';

export interface StatefulStackProps extends StackProps {
  /** On-demand maximum throughput of the table and of each index (a cost and runaway-loop ceiling). */
  readonly maxReadRequestUnits?: number;
  readonly maxWriteRequestUnits?: number;
  /**
   * Origins allowed to upload (POST forms, presigned PUTs) to the uploads bucket from a browser. None by default: clients upload
   * from their own programs (SPEC 3.3) and the operations console uploads nothing.
   */
  readonly uploadCorsOrigins?: readonly string[];
}

/**
 * The name CloudFormation gave a bucket, for the stateless stack (functions' environment, IAM statements, the
 * console's page policy): the stateful stack's `<Bucket>BucketName` output, through Fn::GetStackOutput like
 * every other value that crosses between the stacks. No bucket has a fixed name: nothing to squat, and none
 * left behind (retained) that blocks the next deploy.
 */
export const serviceBucketName = (key: BucketKey): string =>
  Fn.getStackOutput(STACK_NAMES.stateful, OUTPUTS.bucketName(key), Aws.REGION);

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
    const maxRead = props.maxReadRequestUnits ?? TABLE.maxThroughput.readRequestUnits;
    const maxWrite = props.maxWriteRequestUnits ?? TABLE.maxThroughput.writeRequestUnits;

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
        // Only what the queries on the index read (lib/resources.ts): records are read from the table.
        ...(index.projection.type === 'INCLUDE'
          ? {
              projectionType: dynamodb.ProjectionType.INCLUDE,
              nonKeyAttributes: [...index.projection.attributes],
            }
          : { projectionType: dynamodb.ProjectionType.KEYS_ONLY }),
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

    const uploadOrigins = props.uploadCorsOrigins ?? [];
    /** The console's origin: the service's own API (its id is the stateless stack's, hence the pattern). */
    const consoleOrigin = `https://*.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`;
    const corsOf = (key: BucketKey): s3.CorsRule[] | undefined => {
      const rules: s3.CorsRule[] = [];
      if (key === 'uploads' || key === 'catalogs') {
        rules.push({
          allowedMethods: [s3.HttpMethods.GET, s3.HttpMethods.HEAD],
          allowedOrigins: [consoleOrigin],
          maxAge: 3000,
        });
      }
      if (key === 'uploads' && uploadOrigins.length > 0) {
        rules.push({
          allowedMethods: [s3.HttpMethods.POST, s3.HttpMethods.PUT],
          allowedOrigins: [...uploadOrigins],
          allowedHeaders: ['*'],
          exposedHeaders: ['etag', 'location'],
          maxAge: 3000,
        });
      }
      return rules.length > 0 ? rules : undefined;
    };
    const bucket = (key: BucketKey): s3.Bucket => {
      const def = BUCKETS[key];
      const lifecycleRules: s3.LifecycleRule[] = [
        { id: 'abort-incomplete-multipart', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ];
      if (def.expireAfterDays !== undefined) {
        lifecycleRules.push({ id: 'expire', expiration: Duration.days(def.expireAfterDays) });
      }
      return new s3.Bucket(this, def.id, {
        blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
        encryption: s3.BucketEncryption.S3_MANAGED,
        enforceSSL: true,
        minimumTLSVersion: 1.2,
        objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
        serverAccessLogsBucket: this.accessLogsBucket,
        serverAccessLogsPrefix: `${def.localName}/`,
        lifecycleRules,
        // CloudFormation names every bucket (serviceBucketName). The operations console (served by the API)
        // reads sources and drafts through presigned GETs; browser uploads only from the origins a deployer
        // lists (context catalogJobs:uploadCorsOrigins): clients upload from their own programs.
        cors: corsOf(key),
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

    new CfnOutput(this, OUTPUTS.region, { value: Aws.REGION, description: 'The region of the stacks.' });
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
