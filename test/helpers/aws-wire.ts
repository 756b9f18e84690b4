import { AwsHttp, AwsJsonApi } from '../../lambdas/adapters/aws-http';

export interface WireCall {
  /** `DynamoDB_20120810.PutItem` -> `PutItem`. */
  readonly operation: string;
  readonly input: Record<string, unknown>;
  readonly headers: Record<string, string>;
}

/**
 * What a scripted operation answers: a status and a JSON body, an error `fetch` throws, or `hang`: no
 * answer until the caller gives up (aborts).
 */
export type WireAnswer = { status: number; body?: Record<string, unknown> } | Error | 'hang';

/**
 * A `fetch` that answers AWS JSON-protocol calls (DynamoDB, SQS) from a script and records them, wire format
 * and all: the lean client's signing, marshalling, retries and error parsing run for real.
 */
export class ScriptedAws {
  readonly calls: WireCall[] = [];
  private readonly script = new Map<string, (input: Record<string, unknown>) => WireAnswer>();

  on(operation: string, answer: WireAnswer | ((input: Record<string, unknown>) => WireAnswer)): this {
    this.script.set(operation, typeof answer === 'function' ? answer : () => answer);
    return this;
  }

  /** An error answer as DynamoDB or SQS sends it. */
  static error(name: string, status = 400, extra: Record<string, unknown> = {}): WireAnswer {
    return { status, body: { __type: `com.amazonaws.dynamodb.v20120810#${name}`, message: name, ...extra } };
  }

  calledWith(operation: string): Record<string, unknown>[] {
    return this.calls.filter((c) => c.operation === operation).map((c) => c.input);
  }

  readonly fetch = (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const operation = (headers['x-amz-target'] ?? '').split('.').at(-1) ?? '';
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    this.calls.push({ operation, input: body, headers });
    void input;
    const answer = this.script.get(operation)?.(body) ?? { status: 200, body: {} };
    if (answer === 'hang') {
      return new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    }
    if (!('status' in answer)) throw answer;
    return new Response(JSON.stringify(answer.body ?? {}), {
      status: answer.status,
      headers: { 'content-type': 'application/x-amz-json-1.0' },
    });
  }) as typeof fetch;

  api(service: 'dynamodb' | 'sqs', options: { timeoutMs?: number } = {}): AwsJsonApi {
    return new AwsJsonApi(
      new AwsHttp({
        service,
        region: 'us-east-1',
        timeoutMs: options.timeoutMs,
        credentials: async () => ({ accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' }),
        fetch: this.fetch,
      }),
      service === 'dynamodb' ? 'DynamoDB_20120810' : 'AmazonSQS',
    );
  }
}
