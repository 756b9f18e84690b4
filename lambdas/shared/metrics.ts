import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { AppDeps } from './deps';

/** The service's own metrics (SPEC: jobs created/completed/failed, export duration, callback attempts). */
export const METRIC = {
  jobsCreated: 'JobsCreated',
  jobsCompleted: 'JobsCompleted',
  jobsInReview: 'JobsInReview',
  jobsFailed: 'JobsFailed',
  exportsCompleted: 'ExportsCompleted',
  exportsFailed: 'ExportsFailed',
  exportDuration: 'ExportDuration',
  callbackAttempts: 'CallbackAttempts',
  callbacksDelivered: 'CallbacksDelivered',
  callbacksFailed: 'CallbacksFailed',
  stuckJobs: 'StuckJobs',
} as const;

export const count = (deps: Pick<AppDeps, 'metrics'>, name: string, value = 1): void => {
  deps.metrics.addMetric(name, MetricUnit.Count, value);
};

export const milliseconds = (deps: Pick<AppDeps, 'metrics'>, name: string, value: number): void => {
  deps.metrics.addMetric(name, MetricUnit.Milliseconds, value);
};

/** Flushes the invocation's metrics (one EMF line), if it stored any. */
export const publishMetrics = (deps: Pick<AppDeps, 'metrics'>): void => {
  if (deps.metrics.hasStoredMetrics()) deps.metrics.publishStoredMetrics();
};
