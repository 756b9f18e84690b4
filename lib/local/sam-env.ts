/**
 * The environment file `sam local start-api --env-vars` reads (docs/deploying.md "SAM local"), written by
 * `npm run emulators -- --sam-env <file>` from the environment the emulators were provisioned with: the
 * table, queue URLs and buckets they hold and the endpoints that reach them, under `Parameters` (every
 * function). SAM replaces only variables the template declares: the stateless stack synthesised with
 * `-c catalogJobs:samLocal=true` declares the endpoint ones (SAM_LOCAL_VARIABLES). Credentials and region are
 * not in it (SAM hands the container those of its own process): run SAM with the emulators' `local` keys.
 */

/** Variables the template declares only for SAM (the rest are the stack's own). */
export const SAM_LOCAL_VARIABLES = [
  'AWS_ENDPOINT_URL_DYNAMODB',
  'AWS_ENDPOINT_URL_SQS',
  'AWS_ENDPOINT_URL_S3',
  'STORAGE_ENDPOINT',
  'S3_FORCE_PATH_STYLE',
] as const;

/** Left to SAM: it passes its own process's credentials and region to every container. */
const FROM_SAM = new Set(['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_REGION']);

/**
 * Addresses the functions call (the emulators' endpoints and queue URLs) are given with `host` in place of the
 * loopback address: `127.0.0.1` (the default) for containers on the host's network
 * (`--docker-network host`, Linux), `host.docker.internal` for Docker Desktop. `STORAGE_ENDPOINT` is the
 * address in the presigned URLs a client on this machine uses, so it keeps its own.
 */
export const samEnvFile = (
  environment: Readonly<Record<string, string>>,
  host = '127.0.0.1',
): { Parameters: Record<string, string> } => {
  if (!/^[A-Za-z0-9.-]+$/.test(host))
    throw new Error(`--sam-host must be a host name or IPv4 address: ${host}`);
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (FROM_SAM.has(name)) continue;
    parameters[name] = name === 'STORAGE_ENDPOINT' ? value : onHost(value, host);
  }
  return { Parameters: parameters };
};

const onHost = (value: string, host: string): string => {
  if (!/^https?:\/\//.test(value)) return value;
  const url = new URL(value);
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') return value;
  url.hostname = host;
  // URL keeps a bare origin's trailing slash; the emulators' endpoints are written without one.
  return value.endsWith('/') ? url.href : url.href.replace(/\/$/, '');
};
