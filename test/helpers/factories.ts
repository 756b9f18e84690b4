import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, Context, SQSRecord } from 'aws-lambda';
import type { JobRecord } from '../../lambdas/core/model';
import type { JobType } from '../../lambdas/core/schemas/job';

/** A valid job request body for each job type (seed 2.1/2.2), with overrides of the `job` object. */
export const aJobRequest = (jobType: JobType = 'new_menu', overrides: Record<string, unknown> = {}) => {
  const jobData: Record<string, unknown> = {
    catalog_sources: ['https://merchant.example.com/menu.csv'],
    merchant_name: "Joe's Diner",
  };
  if (jobType === 'retail_image_mapping')
    jobData.image_sources = ['https://cdn.example.com/012345678905.jpg'];
  return { job: { job_type: jobType, job_data: jobData, processing_type: 'standard', ...overrides } };
};

/** The same request with job_data fields replaced (undefined removes a field). */
export const withJobData = (jobType: JobType, data: Record<string, unknown>) => {
  const request = aJobRequest(jobType);
  const merged: Record<string, unknown> = { ...request.job.job_data, ...data };
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  return { job: { ...request.job, job_data: merged } };
};

/**
 * The instant the factories' records are made at, and the time FakeClock starts from: a test that uses both
 * states its own time. A test that runs code on the real clock gives its records real-clock dates (`at()`),
 * never these: a fixed date compared with the real clock passes the day it is written and fails later.
 */
export const TEST_EPOCH = '2026-11-22T10:00:00.000Z';

/** TEST_EPOCH moved by `ms` milliseconds, as an ISO string. */
export const epochPlus = (ms: number): string => new Date(Date.parse(TEST_EPOCH) + ms).toISOString();

export const aJob = (overrides: Partial<JobRecord> = {}): JobRecord => ({
  id: randomUUID(),
  clientId: 'client-a',
  state: 'initiated',
  version: 1,
  jobType: 'new_menu',
  processingType: 'standard',
  jobData: {
    catalog_sources: ['https://merchant.example.com/menu.csv'],
    merchant_name: 'Joe',
    language: 'en_us',
  },
  metadata: {},
  results: {},
  createdAt: TEST_EPOCH,
  updatedAt: TEST_EPOCH,
  dueAt: epochPlus(72 * 3_600_000),
  completedAt: null,
  error: null,
  ...overrides,
});

export interface ApiEventOptions {
  method?: string;
  resource?: string;
  path?: string;
  body?: unknown;
  rawBody?: string | null;
  headers?: Record<string, string>;
  clientId?: string | null;
  scope?: 'client' | 'operator';
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
}

/** An API Gateway REST proxy event as the authorizer and gateway would hand it to a handler. */
export const apiEvent = (options: ApiEventOptions = {}): APIGatewayProxyEvent => {
  const body =
    options.rawBody !== undefined
      ? options.rawBody
      : options.body === undefined
        ? null
        : JSON.stringify(options.body);
  const headers = { 'Content-Type': 'application/json', ...options.headers };
  return {
    resource: options.resource ?? '/v1/jobs',
    path: options.path ?? options.resource ?? '/v1/jobs',
    httpMethod: options.method ?? 'POST',
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: options.query ?? null,
    multiValueQueryStringParameters: null,
    pathParameters: options.pathParameters ?? null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: {
      requestId: `req-${randomUUID()}`,
      authorizer:
        options.clientId === null
          ? null
          : { clientId: options.clientId ?? 'client-a', scope: options.scope ?? 'client', keyId: 'key_test' },
    } as unknown as APIGatewayProxyEvent['requestContext'],
  };
};

export const lambdaContext = (): Context =>
  ({
    awsRequestId: randomUUID(),
    functionName: 'test',
    getRemainingTimeInMillis: () => 30_000,
  }) as unknown as Context;

export const sqsRecord = (body: unknown, overrides: Partial<SQSRecord> = {}): SQSRecord => ({
  messageId: randomUUID(),
  receiptHandle: randomUUID(),
  body: typeof body === 'string' ? body : JSON.stringify(body),
  attributes: {
    ApproximateReceiveCount: '1',
    SentTimestamp: String(Date.now()),
    SenderId: 'test',
    ApproximateFirstReceiveTimestamp: String(Date.now()),
  },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:test',
  awsRegion: 'us-east-1',
  ...overrides,
});

/** Polls `probe` until it returns a value that is not undefined, or fails after `timeoutMs`. */
export const eventually = async <T>(
  probe: () => Promise<T | undefined>,
  { timeoutMs = 15_000, intervalMs = 50, what = 'condition' } = {},
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
};
