import { ENV } from '../../lib/resources';
import type { JobSettings } from '../core/use-cases/jobs';
import { DEFAULT_RETRY_DELAYS, parseRetryDelays } from '../core/webhooks';

/** An AWS credential identity, as the SDK clients take it. */
export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

/** A credential provider, as the SDK clients take it (the CLI commands pass the SDK's provider chain). */
export type CredentialSource = () => Promise<AwsCredentials>;

/** Everything the Lambda code reads from its environment, read once, here and nowhere else. */
export interface Config {
  readonly region: string;
  readonly tableName: string;
  readonly queueUrls: { jobsRush: string; jobsStandard: string; exports: string; callbacks: string };
  readonly callbackDeadLetterQueueUrl: string;
  readonly callbackRetryDelays: readonly number[];
  readonly buckets: { uploads: string; catalogs: string; exports: string };
  /**
   * Set by the local runtime: the emulators' endpoints, and `storage`, the storage front where the URLs
   * handed to clients point (presigned uploads and downloads, checked there as S3 checks them). Unset in AWS.
   */
  readonly endpoints: { dynamodb?: string; sqs?: string; s3?: string; storage?: string };
  /** The role's credentials Lambda puts in the environment (the local runtime sets the same variables). */
  readonly credentials?: AwsCredentials;
  /** Set by programs rather than the environment: the CLI commands pass the SDK's provider chain. */
  readonly credentialSource?: CredentialSource;
  readonly s3ForcePathStyle: boolean;
  readonly allowHttpCallbacks: boolean;
  readonly allowLoopbackUrls: boolean;
  readonly jobSettings: JobSettings;
  /** Where a site owner reads about the service's requests, put in the web-source User-Agent. */
  readonly webContactUrl: string | null;
  readonly serviceName: string;
  readonly metricsNamespace: string;
  /**
   * Where the OCR packages and their language data are installed: the function's root in Lambda
   * (LAMBDA_TASK_ROOT, where the job worker's node_modules are shipped), else the working directory.
   */
  readonly moduleRoot: string;
}

const required = (env: NodeJS.ProcessEnv, name: string): string => {
  const value = env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
};

const flag = (value: string | undefined, fallback: boolean): boolean =>
  value === undefined || value === '' ? fallback : /^(1|true|yes|on)$/i.test(value);

const positive = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number`);
  return n;
};

const credentialsOf = (env: NodeJS.ProcessEnv): AwsCredentials | undefined =>
  env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
    ? {
        accessKeyId: env.AWS_ACCESS_KEY_ID,
        secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
        sessionToken: env.AWS_SESSION_TOKEN || undefined,
      }
    : undefined;

/**
 * Lambda always sets AWS_REGION. Nothing falls back to a region of its own choosing: a command run against a
 * deployed stack resolves it as the AWS CLI does (lib/admin/stack-target.ts) and sets it here.
 */
const regionOf = (env: NodeJS.ProcessEnv): string => {
  const region = env.AWS_REGION || env.AWS_DEFAULT_REGION;
  if (!region) throw new Error('Missing environment variable AWS_REGION');
  return region;
};

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => ({
  region: regionOf(env),
  tableName: required(env, ENV.tableName),
  queueUrls: {
    jobsRush: required(env, ENV.queueUrl.jobsRush),
    jobsStandard: required(env, ENV.queueUrl.jobsStandard),
    exports: required(env, ENV.queueUrl.exports),
    callbacks: required(env, ENV.queueUrl.callbacks),
  },
  callbackDeadLetterQueueUrl: required(env, ENV.callbackDeadLetterQueueUrl),
  callbackRetryDelays: env[ENV.callbackRetryDelays]
    ? parseRetryDelays(env[ENV.callbackRetryDelays]!)
    : DEFAULT_RETRY_DELAYS,
  buckets: {
    uploads: required(env, ENV.bucket.uploads),
    catalogs: required(env, ENV.bucket.catalogs),
    exports: required(env, ENV.bucket.exports),
  },
  endpoints: {
    dynamodb: env.AWS_ENDPOINT_URL_DYNAMODB || undefined,
    sqs: env.AWS_ENDPOINT_URL_SQS || undefined,
    s3: env.AWS_ENDPOINT_URL_S3 || undefined,
    storage: env[ENV.storageEndpoint] || undefined,
  },
  credentials: credentialsOf(env),
  s3ForcePathStyle: flag(env.S3_FORCE_PATH_STYLE, false),
  allowHttpCallbacks: flag(env.ALLOW_HTTP_CALLBACKS, false),
  allowLoopbackUrls: flag(env.ALLOW_LOOPBACK_URLS, false),
  jobSettings: {
    slaHours: {
      rush: positive(env.RUSH_SLA_HOURS, 24, 'RUSH_SLA_HOURS'),
      standard: positive(env.STANDARD_SLA_HOURS, 72, 'STANDARD_SLA_HOURS'),
    },
  },
  webContactUrl: env.WEB_CONTACT_URL?.trim() || null,
  serviceName: env.POWERTOOLS_SERVICE_NAME ?? 'catalog-jobs',
  metricsNamespace: env.POWERTOOLS_METRICS_NAMESPACE ?? 'CatalogJobs',
  moduleRoot: env.LAMBDA_TASK_ROOT ?? process.cwd(),
});

/**
 * True while a Lambda function's module loads (Lambda sets AWS_LAMBDA_FUNCTION_NAME in every function's
 * environment): handlers are then built at once (lazy.ts), so that the init phase creates the clients.
 */
export const isLambdaInit = (env: NodeJS.ProcessEnv = process.env): boolean =>
  Boolean(env.AWS_LAMBDA_FUNCTION_NAME);
