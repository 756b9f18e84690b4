import { type App, Tags, Validations } from 'aws-cdk-lib';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { STACK_NAMES } from './names';
import { repoRoot } from './paths';
import { StatefulStack } from './stateful-stack';
import { StatelessStack } from './stateless-stack';

/** Context keys (cdk.json "context", or `cdk synth -c key=value`). All optional. */
export const CONTEXT = {
  alarmEmail: 'catalogJobs:alarmEmail',
  logRetentionDays: 'catalogJobs:logRetentionDays',
  uploadCorsOrigins: 'catalogJobs:uploadCorsOrigins',
  maxReadRequestUnits: 'catalogJobs:maxReadRequestUnits',
  maxWriteRequestUnits: 'catalogJobs:maxWriteRequestUnits',
  rushSlaHours: 'catalogJobs:rushSlaHours',
  standardSlaHours: 'catalogJobs:standardSlaHours',
  callbackRetryDelays: 'catalogJobs:callbackRetryDelays',
  rushJobsMaxConcurrency: 'catalogJobs:rushJobsMaxConcurrency',
  standardJobsMaxConcurrency: 'catalogJobs:standardJobsMaxConcurrency',
  exportsMaxConcurrency: 'catalogJobs:exportsMaxConcurrency',
  callbacksMaxConcurrency: 'catalogJobs:callbacksMaxConcurrency',
  authorizerReservedConcurrency: 'catalogJobs:authorizerReservedConcurrency',
  webAclArn: 'catalogJobs:webAclArn',
  webContactUrl: 'catalogJobs:webContactUrl',
  /** `true`: the functions declare the emulators' endpoint variables for `sam local` (never deploy that). */
  samLocal: 'catalogJobs:samLocal',
} as const;

export interface CatalogJobs {
  readonly stateful: StatefulStack;
  readonly stateless: StatelessStack;
}

const numberContext = (app: App, key: string): number | undefined => {
  const value = app.node.tryGetContext(key) as unknown;
  if (value === undefined || value === null || value === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new Error(`Context ${key} must be a positive number, not ${String(value)}`);
  return n;
};

const stringContext = (app: App, key: string): string | undefined => {
  const value = app.node.tryGetContext(key) as unknown;
  return value === undefined || value === null || value === '' ? undefined : String(value);
};

const listContext = (app: App, key: string): string[] | undefined => {
  const value = app.node.tryGetContext(key) as unknown;
  if (value === undefined || value === null || value === '') return undefined;
  return Array.isArray(value)
    ? value.map(String)
    : String(value)
        .split(',')
        .map((s) => s.trim());
};

/**
 * The whole service in an App: the stateful and the stateless stack, environment-agnostic (no lookups, so
 * `cdk synth` needs no credentials), checked by cdk-nag's AwsSolutions pack.
 */
export const addCatalogJobs = (app: App, options: { projectRoot?: string } = {}): CatalogJobs => {
  const projectRoot = options.projectRoot ?? repoRoot();
  const logRetentionDays = numberContext(app, CONTEXT.logRetentionDays);

  const stateful = new StatefulStack(app, STACK_NAMES.stateful, {
    description: 'catalog-jobs: table, buckets and queues (retained on delete)',
    maxReadRequestUnits: numberContext(app, CONTEXT.maxReadRequestUnits),
    maxWriteRequestUnits: numberContext(app, CONTEXT.maxWriteRequestUnits),
    uploadCorsOrigins: listContext(app, CONTEXT.uploadCorsOrigins),
  });
  const stateless = new StatelessStack(app, STACK_NAMES.stateless, {
    description: 'catalog-jobs: API, functions, schedule and alarms',
    data: stateful,
    projectRoot,
    logRetention: logRetentionDays === undefined ? undefined : (logRetentionDays as logs.RetentionDays),
    alarmEmail: stringContext(app, CONTEXT.alarmEmail),
    rushSlaHours: numberContext(app, CONTEXT.rushSlaHours),
    standardSlaHours: numberContext(app, CONTEXT.standardSlaHours),
    callbackRetryDelays: stringContext(app, CONTEXT.callbackRetryDelays),
    maxConcurrency: {
      jobsRush: numberContext(app, CONTEXT.rushJobsMaxConcurrency),
      jobsStandard: numberContext(app, CONTEXT.standardJobsMaxConcurrency),
      exports: numberContext(app, CONTEXT.exportsMaxConcurrency),
      callbacks: numberContext(app, CONTEXT.callbacksMaxConcurrency),
    },
    authorizerReservedConcurrency: numberContext(app, CONTEXT.authorizerReservedConcurrency),
    webAclArn: stringContext(app, CONTEXT.webAclArn),
    webContactUrl: stringContext(app, CONTEXT.webContactUrl),
    samLocal: stringContext(app, CONTEXT.samLocal) === 'true',
  });
  stateless.addStackDependency(stateful);

  Tags.of(app).add('service', 'catalog-jobs');
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  return { stateful, stateless };
};
