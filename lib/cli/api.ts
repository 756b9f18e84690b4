/**
 * The HTTP side of the command-line client: one request helper that sends the API key, reads JSON and
 * problem+json answers, and retries what is safe to retry (429 and 503, honouring Retry-After).
 */

export interface ProblemBody {
  readonly type?: string;
  readonly title?: string;
  readonly status?: number;
  readonly detail?: string;
  readonly code?: string;
  readonly request_id?: string;
  readonly errors?: readonly { pointer?: string; code?: string; message?: string }[];
}

/** The service answered with an error (a problem+json body, or something unexpected). */
export class ApiProblemError extends Error {
  constructor(
    readonly status: number,
    readonly problem: ProblemBody,
    readonly method: string,
    readonly path: string,
  ) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
    this.name = 'ApiProblemError';
  }
}

/** The service could not be reached at all. */
export class TransportError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TransportError';
  }
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export interface ApiResponse<T> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

export interface RequestOptions {
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Retry 429 and 503 after Retry-After (GETs, and creates that carry an Idempotency-Key). */
  readonly retry?: boolean;
}

export interface ApiClientOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly fetch: Fetch;
  readonly sleep: (ms: number) => Promise<void>;
  /** Told about each retry, for the progress output. */
  readonly onRetry?: (message: string) => void;
}

const MAX_ATTEMPTS = 5;

/** Seconds from a Retry-After header (delta-seconds only; the service sends nothing else), or undefined. */
export const retryAfterSeconds = (headers: Headers): number | undefined => {
  const value = headers.get('retry-after');
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
};

const parseBody = (text: string, contentType: string | null): unknown => {
  if (text === '') return null;
  if (contentType && /json/i.test(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
};

const asProblem = (status: number, body: unknown): ProblemBody => {
  if (body && typeof body === 'object' && !Array.isArray(body)) return body as ProblemBody;
  const detail = typeof body === 'string' && body.trim() !== '' ? body.trim().slice(0, 500) : undefined;
  return { status, title: `HTTP ${status}`, ...(detail ? { detail } : {}) };
};

export class ApiClient {
  private readonly base: string;

  constructor(private readonly options: ApiClientOptions) {
    // A stage path (…/prod) is part of the base: paths are appended to it, not resolved against it.
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  get baseUrl(): string {
    return this.base;
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Token api_key=${this.options.apiKey}`,
      ...options.headers,
    };
    let payload: string | undefined;
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    for (let attempt = 1; ; attempt += 1) {
      let response: Response;
      try {
        response = await this.options.fetch(`${this.base}${path}`, { method, headers, body: payload });
      } catch (error) {
        const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
        throw new TransportError(
          `could not reach ${this.base}${cause ? ` (${cause})` : ''}. Is the service running (npm start), and ` +
            'is --url / CATALOG_API_URL right?',
          { cause: error },
        );
      }
      const body = parseBody(await response.text(), response.headers.get('content-type'));
      if (response.ok) return { status: response.status, headers: response.headers, body: body as T };
      const wait = retryAfterSeconds(response.headers);
      if (options.retry && (response.status === 429 || response.status === 503) && attempt < MAX_ATTEMPTS) {
        const seconds = wait ?? attempt * 2;
        this.options.onRetry?.(`${method} ${path} answered ${response.status}; retrying in ${seconds}s`);
        await this.options.sleep(seconds * 1000);
        continue;
      }
      throw new ApiProblemError(response.status, asProblem(response.status, body), method, path);
    }
  }

  get<T>(path: string): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path, { retry: true });
  }
}
