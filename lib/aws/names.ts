/**
 * Names shared between the CDK app and the programs that talk to a deployed stack (`npm run keys`, the docs,
 * the Lambda code's metrics). Deliberately free of aws-cdk-lib imports, so that importing it is cheap.
 */
import { BUCKETS, type BucketKey, QUEUES, type QueueKey } from '../resources';

/** CloudFormation stack names (also the construct ids). Data lives in the stateful one, code in the other. */
export const STACK_NAMES = {
  stateful: 'CatalogJobsStateful',
  stateless: 'CatalogJobsStateless',
} as const;

/** Output keys of the two stacks (`aws cloudformation describe-stacks --stack-name ... `). */
export const OUTPUTS = {
  /** In both stacks: where they are, so that `npm run keys -- --outputs` needs no region of its own. */
  region: 'Region',
  /** In STACK_NAMES.stateful. */
  tableName: 'TableName',
  bucketName: (key: BucketKey): string => `${BUCKETS[key].id}BucketName`,
  queueUrl: (key: QueueKey): string => `${QUEUES[key].id}QueueUrl`,
  deadLetterQueueUrl: (key: QueueKey): string => `${QUEUES[key].id}DeadLetterQueueUrl`,
  /** In STACK_NAMES.stateless. */
  apiUrl: 'ApiUrl',
  restApiId: 'RestApiId',
  usagePlanId: 'UsagePlanId',
  alarmTopicArn: 'AlarmTopicArn',
  /** The operations console's address (`<ApiUrl>ops/`). */
  consoleUrl: 'ConsoleUrl',
} as const;

/** The API Gateway stage. Route paths in lib/resources.ts already start with /v1, so the stage is not `v1`. */
export const STAGE_NAME = 'prod';

/** Powertools service name (the `service` dimension of every metric and field of every log line). */
export const SERVICE_NAME = 'catalog-jobs';

/**
 * Custom metrics the CDK app alarms on. Powertools Metrics publishes them as EMF under POWERTOOLS_METRICS_NAMESPACE
 * with the default dimension `service` = POWERTOOLS_SERVICE_NAME (both set on every function by the stack).
 */
export const METRICS = {
  namespace: 'CatalogJobs',
  /**
   * Emitted by the reconciler on every run (0 included): jobs that are not terminal although their `due_at`
   * has passed. Unit Count. The "stuck jobs" alarm fires when the maximum over a run is above 0.
   */
  stuckJobs: 'StuckJobs',
} as const;
