import { Match } from 'aws-cdk-lib/assertions';
import { OUTPUTS } from '../../lib/aws/names';
import {
  BUCKETS,
  type BucketKey,
  DLQ_RETENTION_SECONDS,
  QUEUES,
  type QueueKey,
  TABLE,
  visibilityTimeoutSeconds,
} from '../../lib/resources';
import { cleanUp, logicalId, synthesized } from './synth';

afterAll(cleanUp);

const queueKeys = Object.keys(QUEUES) as QueueKey[];
const bucketKeys = Object.keys(BUCKETS) as BucketKey[];

describe('table', () => {
  it('is the single table of lib/resources.ts: keys, both GSIs, TTL', () => {
    const { stateful$ } = synthesized();
    stateful$.resourceCountIs('AWS::DynamoDB::Table', 1);
    stateful$.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE.indexes.map((index) =>
        Match.objectLike({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection:
            index.projection.type === 'INCLUDE'
              ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection.attributes] }
              : { ProjectionType: 'KEYS_ONLY' },
          OnDemandThroughput: {
            MaxReadRequestUnits: Match.anyValue(),
            MaxWriteRequestUnits: Match.anyValue(),
          },
        }),
      ),
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
    });
  });

  it('has point-in-time recovery, encryption, on-demand with a maximum, deletion protection, and is retained', () => {
    const { stateful$ } = synthesized();
    stateful$.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        OnDemandThroughput: { MaxReadRequestUnits: 12_000, MaxWriteRequestUnits: 4_000 },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
        DeletionProtectionEnabled: true,
      }),
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });
});

describe('queues', () => {
  it.each(queueKeys)('%s has a dead-letter queue with the redrive settings of lib/resources.ts', (key) => {
    const { stateful, stateful$ } = synthesized();
    const def = QUEUES[key];
    const { queue, deadLetterQueue } = stateful.queues[key];
    expect(def.maxReceiveCount).toBeGreaterThanOrEqual(5);
    const queues = stateful$.findResources('AWS::SQS::Queue');
    expect(queues[logicalId(queue)]?.Properties).toMatchObject({
      VisibilityTimeout: visibilityTimeoutSeconds(def),
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(deadLetterQueue), 'Arn'] },
        maxReceiveCount: def.maxReceiveCount,
      },
      SqsManagedSseEnabled: true,
    });
    expect(queues[logicalId(deadLetterQueue)]?.Properties).toMatchObject({
      MessageRetentionPeriod: DLQ_RETENTION_SECONDS,
      SqsManagedSseEnabled: true,
    });
    expect(queues[logicalId(deadLetterQueue)]?.Properties).not.toHaveProperty('RedrivePolicy');
  });

  it.each(queueKeys)("%s's visibility timeout is at least 6x its consumer's timeout", (key) => {
    const { stateful$, stateless } = synthesized();
    const def = QUEUES[key];
    const consumer = stateless.functions.get(def.consumer)!;
    const fnTimeout = stateless.resolve(consumer.function.timeout?.toSeconds()) as number;
    expect(fnTimeout).toBe(def.consumerTimeoutSeconds);
    const queue =
      stateful$.findResources('AWS::SQS::Queue')[logicalId(synthesized().stateful.queues[key].queue)];
    expect(queue?.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * fnTimeout);
  });

  it('every queue, dead-letter queues included, refuses requests without TLS', () => {
    const { stateful, stateful$ } = synthesized();
    const policies = Object.values(stateful$.findResources('AWS::SQS::QueuePolicy'));
    for (const key of queueKeys) {
      for (const q of [stateful.queues[key].queue, stateful.queues[key].deadLetterQueue]) {
        const policy = policies.find((p) =>
          (p.Properties.Queues as { Ref: string }[]).some((r) => r.Ref === logicalId(q)),
        );
        expect(policy?.Properties.PolicyDocument.Statement).toContainEqual(
          expect.objectContaining({
            Effect: 'Deny',
            Action: 'sqs:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        );
      }
    }
  });
});

describe('buckets', () => {
  it.each(bucketKeys)('%s blocks public access, is encrypted, logs access and is retained', (key) => {
    const { stateful, stateful$ } = synthesized();
    const bucket = stateful$.findResources('AWS::S3::Bucket')[logicalId(stateful.buckets[key])];
    expect(bucket).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: {
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        LoggingConfiguration: { DestinationBucketName: { Ref: logicalId(stateful.accessLogsBucket) } },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      },
    });
  });

  it.each(bucketKeys)('%s expires objects exactly when lib/resources.ts says so', (key) => {
    const { stateful, stateful$ } = synthesized();
    const rules = stateful$.findResources('AWS::S3::Bucket')[logicalId(stateful.buckets[key])]?.Properties
      .LifecycleConfiguration.Rules as { ExpirationInDays?: number }[];
    const expiry = rules.map((r) => r.ExpirationInDays).filter((d) => d !== undefined);
    const days = BUCKETS[key].expireAfterDays;
    expect(expiry).toEqual(days === undefined ? [] : [days]);
  });

  it('every bucket, the access-log bucket included, denies non-TLS and TLS below 1.2', () => {
    const { stateful$ } = synthesized();
    const policies = Object.values(stateful$.findResources('AWS::S3::BucketPolicy'));
    expect(policies).toHaveLength(bucketKeys.length + 1);
    for (const policy of policies) {
      expect(policy.Properties.PolicyDocument.Statement).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            Effect: 'Deny',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
          expect.objectContaining({
            Effect: 'Deny',
            Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } },
          }),
        ]),
      );
    }
  });

  it('takes no fixed name: CloudFormation names every bucket (nothing to squat, no clash on redeploy)', () => {
    const { stateful$ } = synthesized();
    for (const bucket of Object.values(stateful$.findResources('AWS::S3::Bucket'))) {
      expect(bucket.Properties).not.toHaveProperty('BucketName');
    }
  });

  /** The console's origin: the service's own API in the stack's region. */
  const consoleReads = {
    AllowedMethods: ['GET', 'HEAD'],
    AllowedOrigins: [
      {
        'Fn::Join': ['', ['https://*.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]],
      },
    ],
    MaxAge: 3000,
  };

  it('allows no browser upload by default: the console (served by the API) may only read sources and drafts', () => {
    const { stateful, stateful$ } = synthesized();
    const buckets = stateful$.findResources('AWS::S3::Bucket');
    for (const key of ['uploads', 'catalogs'] as const) {
      expect(buckets[logicalId(stateful.buckets[key])]?.Properties.CorsConfiguration).toEqual({
        CorsRules: [consoleReads],
      });
    }
    expect(buckets[logicalId(stateful.buckets.exports)]?.Properties).not.toHaveProperty('CorsConfiguration');
    expect(buckets[logicalId(stateful.accessLogsBucket)]?.Properties).not.toHaveProperty('CorsConfiguration');
  });

  it('lets the origins a deployer lists POST upload forms, and nothing else', () => {
    const { stateful, stateful$ } = synthesized({
      'catalogJobs:uploadCorsOrigins': 'https://app.example.com',
    });
    const buckets = stateful$.findResources('AWS::S3::Bucket');
    expect(buckets[logicalId(stateful.buckets.uploads)]?.Properties.CorsConfiguration).toEqual({
      CorsRules: [
        consoleReads,
        expect.objectContaining({
          AllowedMethods: ['POST', 'PUT'],
          AllowedOrigins: ['https://app.example.com'],
        }),
      ],
    });
    expect(buckets[logicalId(stateful.buckets.catalogs)]?.Properties.CorsConfiguration).toEqual({
      CorsRules: [consoleReads],
    });
  });
});

describe('outputs', () => {
  it('publishes its region, the table name (npm run keys), bucket names and queue URLs', () => {
    const { stateful$ } = synthesized();
    stateful$.hasOutput(OUTPUTS.region, { Value: { Ref: 'AWS::Region' } });
    const outputs = Object.keys(stateful$.findOutputs('*'));
    expect(outputs).toEqual(
      expect.arrayContaining([
        OUTPUTS.region,
        OUTPUTS.tableName,
        ...bucketKeys.map(OUTPUTS.bucketName),
        ...queueKeys.map(OUTPUTS.queueUrl),
        ...queueKeys.map(OUTPUTS.deadLetterQueueUrl),
      ]),
    );
    stateful$.hasOutput(OUTPUTS.tableName, { Value: { Ref: Match.stringLikeRegexp(`^${TABLE.id}`) } });
  });
});
