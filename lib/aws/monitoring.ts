import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { QUEUES, type QueueKey, RECONCILER } from '../resources';
import { METRICS, SERVICE_NAME } from './names';

export interface MonitoringProps {
  readonly deadLetterQueues: Readonly<Record<QueueKey, sqs.IQueue>>;
  readonly stage: apigw.Stage;
  readonly reconciler: lambda.IFunction;
  /** Subscribed to the alarm topic when given (context `catalogJobs:alarmEmail`). */
  readonly alarmEmail?: string;
}

/** The 5xx alarm ignores periods with fewer requests than this, so one failed request at night is not 100 %. */
export const API_5XX_MIN_REQUESTS = 20;
/** Percent of requests answered 5xx over 5 minutes, in 2 of 3 periods. */
export const API_5XX_RATE_PERCENT = 5;

/**
 * Alarms on what needs a person: a message in any dead-letter queue, the API's 5xx rate, jobs past their due
 * time (the reconciler's StuckJobs metric), and the reconciler failing or not running. All notify one
 * KMS-encrypted SNS topic.
 */
export class Monitoring extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);

    // CloudWatch cannot publish to a topic encrypted with the AWS-managed aws/sns key: a customer key whose
    // policy lets the CloudWatch service use it, for this account's alarms only.
    const key = new kms.Key(this, 'AlarmTopicKey', {
      description: 'Encrypts the catalog-jobs alarm topic',
      enableKeyRotation: true,
    });
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'AllowCloudWatchAlarmsToPublish',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': key.stack.account } },
      }),
    );
    this.topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: 'catalog-jobs alarms',
      masterKey: key,
      enforceSSL: true,
    });
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));

    for (const queueKey of Object.keys(QUEUES) as QueueKey[]) {
      const def = QUEUES[queueKey];
      this.add(`${def.id}DeadLetterQueueNotEmpty`, {
        alarmDescription:
          `A ${def.localName} message was dead-lettered after ${def.maxReceiveCount} failed attempts of ` +
          `${def.consumer}. Inspect it, fix the cause, then redrive it to the source queue.` +
          (queueKey === 'callbacks'
            ? ' This queue also keeps callbacks whose receiver never accepted them (SPEC 6): npm run callbacks -- replay.'
            : ''),
        metric: props.deadLetterQueues[queueKey].metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(1),
          statistic: cloudwatch.Stats.MAXIMUM,
        }),
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    }

    const period = Duration.minutes(5);
    this.add('Api5xxRate', {
      alarmDescription:
        `More than ${API_5XX_RATE_PERCENT} % of API requests answered 5xx (periods with at least ` +
        `${API_5XX_MIN_REQUESTS} requests). Check the access logs (errorType) and the functions' logs.`,
      metric: new cloudwatch.MathExpression({
        label: '5xx rate (%)',
        expression: `IF(requests >= ${API_5XX_MIN_REQUESTS}, 100 * errors / requests, 0)`,
        usingMetrics: {
          errors: props.stage.metricServerError({ period, statistic: cloudwatch.Stats.SUM }),
          requests: props.stage.metricCount({ period, statistic: cloudwatch.Stats.SUM }),
        },
        period,
      }),
      threshold: API_5XX_RATE_PERCENT,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    const schedule = Duration.minutes(RECONCILER.scheduleMinutes);
    this.add('StuckJobs', {
      alarmDescription:
        'Jobs are past their due_at and not terminal (the reconciler counts them every run). Look for a ' +
        'dead-lettered job message, a stalled queue, or jobs waiting in the in_review queue.',
      metric: new cloudwatch.Metric({
        namespace: METRICS.namespace,
        metricName: METRICS.stuckJobs,
        dimensionsMap: { service: SERVICE_NAME },
        statistic: cloudwatch.Stats.MAXIMUM,
        period: schedule,
      }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      // Silence means the reconciler did not run, which ReconcilerNotRunning reports.
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    this.add('ReconcilerErrors', {
      alarmDescription:
        'The reconciler failed in two consecutive runs: outbox records may not be reaching their queues.',
      metric: props.reconciler.metricErrors({ period: schedule, statistic: cloudwatch.Stats.SUM }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    this.add('ReconcilerNotRunning', {
      alarmDescription: `The reconciler (scheduled every ${RECONCILER.scheduleMinutes} minutes) has not run for 15 minutes.`,
      metric: props.reconciler.metricInvocations({
        period: Duration.minutes(15),
        statistic: cloudwatch.Stats.SUM,
      }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    });
  }

  private add(id: string, props: cloudwatch.AlarmProps): void {
    const alarm = new cloudwatch.Alarm(this, id, props);
    alarm.addAlarmAction(new actions.SnsAction(this.topic));
    alarm.addOkAction(new actions.SnsAction(this.topic));
    this.alarms.push(alarm);
  }
}
