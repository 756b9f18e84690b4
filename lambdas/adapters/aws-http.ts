import aws4 from 'aws4';
import { isTransientAwsError } from './aws-errors';

/**
 * Signed requests to AWS service APIs over the runtime's own `fetch`: SigV4 (aws4, node:crypto), retries with
 * jittered backoff, a time limit per attempt, and errors shaped as the AWS SDK shapes them (`name`,
 * `$metadata.httpStatusCode`), so that translateAwsErrors reads both alike. The functions call DynamoDB,
 * SQS and S3 through this instead of the SDK clients: a DynamoDB client alone bundles to 320 KiB, this to
 * under 10 KiB (docs/scaling.md, "Cold starts").
 */

export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

/** Where credentials come from: the Lambda environment, or the SDK's provider chain in the CLI commands. */
export type CredentialSource = () => Promise<AwsCredentials>;

export interface AwsEndpoint {
  /** Signing name: `dynamodb`, `sqs`, `s3`. */
  readonly service: string;
  readonly region: string;
  /** Base URL; the service's regional endpoint when unset. */
  readonly endpoint?: string;
  readonly credentials: CredentialSource;
  /** 3 unless set: the first attempt and two retries, as the SDK's standard mode. */
  readonly maxAttempts?: number;
  /** Per attempt, until the response headers (JSON calls: until the whole body). */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

/** An error answer of an AWS API, named as the SDK names it (ConditionalCheckFailedException, ...). */
export class AwsServiceError extends Error {
  readonly $metadata: { readonly httpStatusCode: number; readonly requestId?: string };
  /** The rest of the error document (DynamoDB puts the item of a lost conditional write in `Item`). */
  readonly details: Record<string, unknown>;
  constructor(name: string, message: string, status: number, details: Record<string, unknown> = {}) {
    super(message || name);
    this.name = name;
    this.$metadata = { httpStatusCode: status, requestId: details.requestId as string | undefined };
    this.details = details;
    if ('Item' in details) Object.assign(this, { Item: details.Item });
  }
}

export const regionalEndpoint = (service: string, region: string): string =>
  `https://${service}.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}`;

export interface SignedRequest {
  readonly method: string;
  /** Path (already escaped) and query, appended to the endpoint. */
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Uint8Array;
}

const BASE_DELAY_MS = 50;
const MAX_DELAY_MS = 2000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `__type` ("com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException") or the error header. */
const errorName = (type: unknown, header: string | null): string => {
  const raw = typeof type === 'string' && type !== '' ? type : (header ?? '');
  return raw.split(':')[0]!.split('#').at(-1) || 'UnknownError';
};

/** A response that is not 2xx, as an AwsServiceError. JSON bodies carry `__type`; S3's XML `<Code>`. */
export const errorOf = async (response: Response): Promise<AwsServiceError> => {
  const text = await response.text().catch(() => '');
  const requestId = response.headers.get('x-amzn-requestid') ?? response.headers.get('x-amz-request-id');
  let details: Record<string, unknown> = {};
  if (text.startsWith('{')) {
    try {
      details = JSON.parse(text) as Record<string, unknown>;
    } catch {
      details = {};
    }
  } else {
    const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
    const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
    if (code) details = { __type: code, message };
  }
  const status = response.status;
  const fallback = status === 404 ? 'NotFound' : status >= 500 ? 'ServiceUnavailable' : `Http${status}`;
  const name = errorName(details.__type ?? details.code, response.headers.get('x-amzn-errortype'));
  const message = String(details.message ?? details.Message ?? '');
  return new AwsServiceError(name === 'UnknownError' ? fallback : name, message, status, {
    ...details,
    requestId,
  });
};

/** Throttling and 5xx answers, broken connections and time-outs are retried; nothing else is. */
const retryable = (error: unknown): boolean =>
  isTransientAwsError(error) || (error instanceof AwsServiceError && error.$metadata.httpStatusCode === 429);

/**
 * One AWS endpoint. `send` signs, sends and retries; a 2xx response is returned as is (its body unread),
 * anything else becomes an AwsServiceError (or the network error) after the last attempt.
 */
/**
 * Signs with aws4 (synchronous node:crypto HMACs, signing keys cached per day). `host` carries the port of a
 * local endpoint, which is what fetch sends as Host; the headers fetch sets itself (Host, Content-Length) are
 * signed with the values it will send and then left to it.
 */
const sign = (
  url: URL,
  init: { method: string; headers?: Record<string, string>; body?: string | Uint8Array; signQuery?: boolean },
  service: string,
  region: string,
  credentials: AwsCredentials,
) => {
  const body =
    init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : Buffer.from(init.body);
  const request: aws4.Request = {
    host: url.host,
    path: `${url.pathname}${url.search}`,
    method: init.method,
    headers: { ...init.headers },
    ...(body === undefined ? {} : { body }),
    service,
    region,
    signQuery: init.signQuery,
  };
  aws4.sign(request, credentials);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower !== 'host' && lower !== 'content-length' && value !== undefined) headers[name] = String(value);
  }
  return { url: `${url.protocol}//${url.host}${request.path}`, headers, body };
};

export class AwsHttp {
  private readonly base: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: AwsEndpoint) {
    this.base = (options.endpoint ?? regionalEndpoint(options.service, options.region)).replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  get endpoint(): string {
    return this.base;
  }

  get region(): string {
    return this.options.region;
  }

  credentials(): Promise<AwsCredentials> {
    return this.options.credentials();
  }

  /**
   * Signs a request with its query in the URL (a presigned URL). `expiresInSeconds` becomes X-Amz-Expires.
   */
  async presign(url: string, expiresInSeconds: number, method = 'GET'): Promise<string> {
    const credentials = await this.options.credentials();
    const target = new URL(url);
    // As the SDK's presigner: S3 signs no payload for a presigned URL, and says so in the query.
    if (this.options.service === 's3') target.searchParams.set('X-Amz-Content-Sha256', 'UNSIGNED-PAYLOAD');
    target.searchParams.set('X-Amz-Expires', String(expiresInSeconds));
    return sign(target, { method, signQuery: true }, this.options.service, this.options.region, credentials)
      .url;
  }

  async send(request: SignedRequest, options: { streamBody?: boolean } = {}): Promise<Response> {
    const attempts = this.options.maxAttempts ?? 3;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(request, options.streamBody === true);
      } catch (error) {
        if (attempt >= attempts || !retryable(error)) throw error;
        const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1));
        await sleep(Math.random() * ceiling);
      }
    }
  }

  private async attempt(request: SignedRequest, streamBody: boolean): Promise<Response> {
    const credentials = await this.options.credentials();
    const signed = sign(
      new URL(`${this.base}${request.path}`),
      request,
      this.options.service,
      this.options.region,
      credentials,
    );
    const controller = new AbortController();
    const timeoutMs = this.options.timeoutMs ?? 5000;
    const timedOut = Object.assign(new Error(`${this.options.service}: no answer within ${timeoutMs} ms`), {
      name: 'TimeoutError',
    });
    const timer = setTimeout(() => controller.abort(timedOut), timeoutMs);
    try {
      const response = await this.fetch(signed.url, {
        method: request.method,
        headers: signed.headers,
        body: signed.body as RequestInit['body'],
        signal: controller.signal,
      });
      if (!response.ok) throw await errorOf(response);
      if (streamBody) {
        clearTimeout(timer);
        return response;
      }
      // Read the whole body within the time limit, then hand out a response that holds it.
      const bytes = await response.arrayBuffer();
      return new Response(bytes, { status: response.status, headers: response.headers });
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * An AWS API on the JSON protocol (DynamoDB: `DynamoDB_20120810`, SQS: `AmazonSQS`): POST / with
 * `X-Amz-Target: <prefix>.<Operation>`.
 */
export class AwsJsonApi {
  constructor(
    readonly http: AwsHttp,
    private readonly targetPrefix: string,
  ) {}

  async call<T = Record<string, unknown>>(operation: string, input: unknown): Promise<T> {
    const response = await this.http.send({
      method: 'POST',
      path: '/',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `${this.targetPrefix}.${operation}`,
      },
      body: JSON.stringify(input),
    });
    const text = await response.text();
    return (text === '' ? {} : JSON.parse(text)) as T;
  }
}

/** Credentials of the Lambda environment (and of the local runtime, which sets the same variables). */
export const staticCredentials = (credentials: AwsCredentials): CredentialSource => {
  const resolved = Promise.resolve(credentials);
  return () => resolved;
};
