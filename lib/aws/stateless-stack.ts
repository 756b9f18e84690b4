import { Annotations, Aws, CfnOutput, Duration, Fn, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { SAM_LOCAL_VARIABLES } from '../local/sam-env';
import { BUCKETS, type BucketKey, ENV, QUEUES, type QueueKey, RECONCILER } from '../resources';
import { ConsoleSite } from './console-site';
import {
  type Access,
  type FunctionDefinition,
  nodeOptions,
  type ObjectAccess,
  serviceFunctions,
} from './functions';
import { Monitoring } from './monitoring';
import { METRICS, OUTPUTS, SERVICE_NAME } from './names';
import { ServiceApi } from './service-api';
import { ServiceFunction } from './service-function';
import { type StatefulStack, serviceBucketName } from './stateful-stack';

export interface StatelessStackProps extends StackProps {
  readonly data: StatefulStack;
  readonly projectRoot: string;
  readonly logRetention?: logs.RetentionDays;
  readonly alarmEmail?: string;
  /** Optional settings the Lambda code reads (lambdas/shared/config.ts); unset means the code's default. */
  readonly rushSlaHours?: number;
  readonly standardSlaHours?: number;
  /** Comma-separated seconds (SPEC 6), e.g. "5,300,1800". */
  readonly callbackRetryDelays?: string;
  /** A page or `mailto:` for site owners, named in the User-Agent of web-source requests (WEB_CONTACT_URL). */
  readonly webContactUrl?: string;
  /**
   * Caps on the concurrent invocations each queue feeds its consumer (QUEUES[key].maxConcurrency unless set):
   * standard work never takes the concurrency rush jobs need, and no backlog takes the API's.
   */
  readonly maxConcurrency?: Partial<Record<QueueKey, number>>;
  /**
   * Concurrency reserved for the authorizer (none unless set). An account whose quota is at its new-account
   * default cannot reserve any (Lambda keeps 100 unreserved), so it is opt-in: docs/scaling.md.
   */
  readonly authorizerReservedConcurrency?: number;
  /** Regional WAFv2 web ACL to associate with the API stage. */
  readonly webAclArn?: string;
  /**
   * For `sam local start-api` against the emulators only: every function declares the endpoint variables
   * (lib/local/sam-env.ts SAM_LOCAL_VARIABLES), empty, so that SAM's `--env-vars` file can set them (SAM
   * replaces only variables the template declares). A template for deploying never has them.
   */
  readonly samLocal?: boolean;
}

const OBJECT_READ_ACTIONS = ['s3:GetObject'];
const OBJECT_WRITE_ACTIONS = ['s3:PutObject', 's3:AbortMultipartUpload'];

/**
 * A bucket's name, as the stateful stack's `<Bucket>BucketName` output: CloudFormation names the buckets
 * (nothing to squat, nothing retained that blocks the next deploy), so the functions' environment and IAM
 * statements read the name through Fn::GetStackOutput, as every other cross-stack value.
 */
const bucketNameOf = serviceBucketName;

const bucketArnOf = (key: BucketKey): string => `arn:${Aws.PARTITION}:s3:::${bucketNameOf(key)}`;

/** How cdk-nag names the resource `<bucket ARN>/*` of a statement in an IAM5 finding. */
export const objectArnFinding = (stack: Stack, key: BucketKey): string =>
  `arn:<AWS::Partition>:s3:::${JSON.stringify(stack.resolve(bucketNameOf(key)))}/*`;

/**
 * The code: one function per handler (lib/aws/functions.ts), the REST API in front of the HTTP ones, SQS
 * event sources for the consumers, the reconciler's schedule, and the alarms.
 */
export class StatelessStack extends Stack {
  readonly functions: ReadonlyMap<string, ServiceFunction>;
  readonly api: ServiceApi;
  readonly monitoring: Monitoring;
  readonly console: ConsoleSite;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    const { data } = props;
    const logRetention = props.logRetention ?? logs.RetentionDays.ONE_MONTH;

    const tracingPolicy = new iam.ManagedPolicy(this, 'XRayWrite', {
      description: 'Lets the catalog-jobs functions send X-Ray trace segments (active tracing).',
      statements: [
        new iam.PolicyStatement({
          actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
          resources: ['*'],
        }),
      ],
    });
    Validations.of(tracingPolicy).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions (the ' +
        'Service Authorization Reference lists no resource types for them), so "*" is the only possible ' +
        'resource. This policy holds nothing else; it is what Tracing.ACTIVE would add to every role.',
    });

    const environment: Record<string, string> = {
      [ENV.tableName]: data.table.tableName,
      ...Object.fromEntries(
        (Object.keys(QUEUES) as QueueKey[]).map((key) => [
          ENV.queueUrl[key],
          data.queues[key].queue.queueUrl,
        ]),
      ),
      // Callbacks that failed for good are kept in the callbacks queue's own dead-letter queue.
      [ENV.callbackDeadLetterQueueUrl]: data.queues.callbacks.deadLetterQueue.queueUrl,
      // CloudFormation names the buckets (nothing to squat, nothing left to block a redeploy): passed by reference.
      ...Object.fromEntries(
        (Object.keys(BUCKETS) as BucketKey[]).map((key) => [ENV.bucket[key], bucketNameOf(key)]),
      ),
      POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      POWERTOOLS_METRICS_NAMESPACE: METRICS.namespace,
      POWERTOOLS_LOG_LEVEL: 'INFO',
      // Responses carry presigned URLs and the authorizer's usage key: keep them out of traces.
      POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
      // NODE_OPTIONS per function below (functions.ts nodeOptions): the job worker's also sizes V8's heap.
      ALLOW_LOOPBACK_URLS: 'false',
      ALLOW_HTTP_CALLBACKS: 'false',
      ...(props.rushSlaHours === undefined ? {} : { RUSH_SLA_HOURS: String(props.rushSlaHours) }),
      ...(props.standardSlaHours === undefined ? {} : { STANDARD_SLA_HOURS: String(props.standardSlaHours) }),
      ...(props.callbackRetryDelays === undefined
        ? {}
        : { [ENV.callbackRetryDelays]: props.callbackRetryDelays }),
      ...(props.webContactUrl === undefined ? {} : { WEB_CONTACT_URL: props.webContactUrl }),
      ...(props.samLocal ? Object.fromEntries(SAM_LOCAL_VARIABLES.map((name) => [name, ''])) : {}),
    };
    if (props.samLocal) {
      Annotations.of(this).addWarningV2(
        'catalog-jobs:sam-local',
        'Synthesised for sam local (catalogJobs:samLocal): the functions declare the emulators’ endpoint variables. Do not deploy this template.',
      );
    }

    const functions = new Map<string, ServiceFunction>();
    for (const definition of serviceFunctions()) {
      const fn = new ServiceFunction(this, definition.id, {
        definition,
        projectRoot: props.projectRoot,
        environment: { ...environment, NODE_OPTIONS: nodeOptions(definition) },
        logRetention,
        tracingPolicy,
      });
      if (!definition.explicitAccess) {
        Annotations.of(fn).addWarningV2(
          'catalog-jobs:default-access',
          `${definition.name} has no entry in ACCESS (lib/aws/functions.ts); it got the default: ${definition.access.why}.`,
        );
      }
      this.grant(fn, definition, data);
      functions.set(definition.name, fn);
    }
    if (props.authorizerReservedConcurrency !== undefined) {
      (
        functions.get('authorizer')!.function.node.defaultChild as lambda.CfnFunction
      ).reservedConcurrentExecutions = props.authorizerReservedConcurrency;
    }
    this.functions = functions;

    for (const definition of serviceFunctions().filter((d) => d.kind === 'consumer')) {
      const fn = functions.get(definition.name)!.function;
      for (const queueKey of definition.consumes) {
        const def = QUEUES[queueKey];
        fn.addEventSource(
          new SqsEventSource(data.queues[queueKey].queue, {
            batchSize: def.batchSize,
            // Handlers answer SQSBatchResponse (Powertools processPartialResponse): only failed records return.
            reportBatchItemFailures: true,
            maxConcurrency: props.maxConcurrency?.[queueKey] ?? def.maxConcurrency,
          }),
        );
      }
    }

    const httpHandlers = new Map<string, lambda.IFunction>();
    for (const [name, fn] of functions) httpHandlers.set(name, fn.function);
    this.api = new ServiceApi(this, 'Api', {
      handlers: httpHandlers,
      authorizer: functions.get('authorizer')!.function,
      logRetention,
      webAclArn: props.webAclArn,
    });

    // The operations console at /ops on the same API (same origin as /v1/ops/..., see console-site.ts).
    this.console = new ConsoleSite(this, 'Console', {
      api: this.api.api,
      projectRoot: props.projectRoot,
      logRetention,
    });

    const reconciler = functions.get(RECONCILER.handler)!.function;
    new events.Rule(this, 'ReconcilerSchedule', {
      description: `Runs the reconciler every ${RECONCILER.scheduleMinutes} minutes.`,
      schedule: events.Schedule.rate(Duration.minutes(RECONCILER.scheduleMinutes)),
      targets: [
        new targets.LambdaFunction(reconciler, {
          // A run that cannot be delivered before the next one is pointless: the next run does the same work.
          retryAttempts: 2,
          maxEventAge: Duration.minutes(RECONCILER.scheduleMinutes),
        }),
      ],
    });

    this.monitoring = new Monitoring(this, 'Monitoring', {
      deadLetterQueues: {
        jobsRush: data.queues.jobsRush.deadLetterQueue,
        jobsStandard: data.queues.jobsStandard.deadLetterQueue,
        exports: data.queues.exports.deadLetterQueue,
        callbacks: data.queues.callbacks.deadLetterQueue,
      },
      stage: this.api.api.deploymentStage,
      reconciler,
      alarmEmail: props.alarmEmail,
    });

    new CfnOutput(this, OUTPUTS.region, { value: Aws.REGION, description: 'The region of the stacks.' });
    new CfnOutput(this, OUTPUTS.apiUrl, {
      // Without the trailing slash RestApi.url has: the README builds $API/v1/jobs from it.
      value: Fn.join('', [
        'https://',
        this.api.api.restApiId,
        '.execute-api.',
        Aws.REGION,
        '.',
        Aws.URL_SUFFIX,
        `/${this.api.api.deploymentStage.stageName}`,
      ]),
      description: 'Base URL of the API, without a trailing slash; the routes follow it ($API/v1/jobs).',
    });
    new CfnOutput(this, OUTPUTS.restApiId, { value: this.api.api.restApiId });
    new CfnOutput(this, OUTPUTS.usagePlanId, {
      value: this.api.usagePlan.usagePlanId,
      description: 'Every client API key (value = the client usageKey) must be attached to this usage plan.',
    });
    new CfnOutput(this, OUTPUTS.alarmTopicArn, { value: this.monitoring.topic.topicArn });
  }

  /** Turns a function's Access (lib/aws/functions.ts) into IAM statements on its role, scoped to named resources. */
  private grant(fn: ServiceFunction, definition: FunctionDefinition, data: StatefulStack): void {
    const access: Access = definition.access;
    const role = fn.role;
    if (access.table.actions.length > 0) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: 'Table',
          actions: access.table.actions.map((action) => `dynamodb:${action}`),
          resources: [data.table.tableArn],
        }),
      );
    }
    if (access.table.queries.length > 0) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: 'Indexes',
          actions: ['dynamodb:Query'],
          resources: access.table.queries.map((index) => `${data.table.tableArn}/index/${index}`),
        }),
      );
    }

    for (const [key, mode] of Object.entries(access.buckets) as [BucketKey, ObjectAccess][]) {
      const bucketArn = bucketArnOf(key);
      const reads = mode === 'read' || mode === 'readWrite';
      const writes = mode === 'write' || mode === 'readWrite';
      const actions = [...(reads ? OBJECT_READ_ACTIONS : []), ...(writes ? OBJECT_WRITE_ACTIONS : [])];
      const sid = BUCKETS[key].id;
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({ sid: `${sid}Objects`, actions, resources: [`${bucketArn}/*`] }),
      );
      if (reads) {
        // Without ListBucket, HeadObject of a missing key is a 403 instead of the 404 the code expects.
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            sid: `${sid}List`,
            actions: ['s3:ListBucket'],
            resources: [bucketArn],
          }),
        );
      }
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${objectArnFinding(this, key)}]`,
        reason:
          `${definition.name} ${access.why}. It needs ${actions.join(', ')} on objects of the ` +
          `${BUCKETS[key].localName} bucket, whose keys are ids generated per record, so the statement names ` +
          'that one bucket and covers its objects: no other bucket, no bucket-level write, no delete.',
      });
    }

    for (const queueKey of access.sendTo) data.queues[queueKey].queue.grantSendMessages(role);
    for (const queueKey of access.deadLetterTo ?? [])
      data.queues[queueKey].deadLetterQueue.grantSendMessages(role);
  }
}
