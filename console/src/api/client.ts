import type { OpsJob, ProblemBody, QueuePage } from './types';

/**
 * The operations API as the console calls it: same origin, `Authorization: Token api_key=<key>` on every
 * request, problem+json errors turned into ApiError. The API root is the console's own location without
 * its `/ops/...` part: `''` locally, `/prod` behind API Gateway's stage.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: ProblemBody,
  ) {
    super(problem.detail ?? problem.title ?? `The service answered ${status}.`);
    this.name = 'ApiError';
  }
}

/** `/prod/ops/` → `/prod`; `/ops/` → `` */
export const apiRootOf = (pathname: string): string => pathname.replace(/\/ops(\/.*)?$/, '');

export interface SourceBytes {
  readonly contentType: string;
  readonly bytes: ArrayBuffer;
  /** Set for an image shown straight from storage (its bytes are then not fetched). */
  readonly url?: string;
}

export class OpsApi {
  constructor(
    private readonly key: string,
    private readonly root: string = apiRootOf(location.pathname),
  ) {}

  private async call(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Token api_key=${this.key}`);
    if (init.body !== undefined) headers.set('content-type', 'application/json');
    let response: Response;
    try {
      response = await fetch(`${this.root}${path}`, { ...init, headers, cache: 'no-store' });
    } catch {
      throw new ApiError(0, {
        title: 'Network error',
        detail: 'The service could not be reached. Try again.',
      });
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      let problem: ProblemBody = { status: response.status, title: response.statusText };
      try {
        const parsed = JSON.parse(text) as unknown;
        if (parsed && typeof parsed === 'object') problem = parsed as ProblemBody;
      } catch {
        // Not problem+json (a proxy's page): the status says enough.
      }
      throw new ApiError(response.status, problem);
    }
    return response;
  }

  private async json<T>(path: string, init?: RequestInit): Promise<T> {
    return (await (await this.call(path, init)).json()) as T;
  }

  /** A JSON document from a presigned URL of the service (it carries its own signature: no key). */
  async download(url: string): Promise<unknown> {
    const response = await fetch(url, { cache: 'no-store', credentials: 'omit' });
    if (!response.ok)
      throw new ApiError(response.status, { detail: 'The document could not be downloaded.' });
    return response.json();
  }

  listQueue(cursor?: string | null, limit = 50): Promise<QueuePage> {
    const query = new URLSearchParams({ state: 'in_review', limit: String(limit) });
    if (cursor) query.set('cursor', cursor);
    return this.json(`/v1/ops/jobs?${query}`);
  }

  getJob(id: string): Promise<OpsJob> {
    return this.json(`/v1/ops/jobs/${encodeURIComponent(id)}`);
  }

  putCatalog(id: string, document: unknown): Promise<OpsJob> {
    return this.json(`/v1/ops/jobs/${encodeURIComponent(id)}/catalog`, {
      method: 'PUT',
      body: JSON.stringify(document),
    });
  }

  complete(id: string): Promise<OpsJob> {
    return this.json(`/v1/ops/jobs/${encodeURIComponent(id)}/complete`, { method: 'POST' });
  }

  fail(id: string, reason: { code: string; message: string }): Promise<OpsJob> {
    return this.json(`/v1/ops/jobs/${encodeURIComponent(id)}/fail`, {
      method: 'POST',
      body: JSON.stringify(reason),
    });
  }

  /**
   * A source to show. The service answers where its bytes are (`Accept: application/json` → `{ url, index,
   * source, content_type }`, a short-lived presigned URL of the object store), or the bytes themselves. An
   * image is shown from its URL; anything else is fetched (the URL carries its own signature: no key).
   */
  async source(viewPath: string): Promise<SourceBytes> {
    const response = await this.call(viewPath, { headers: { accept: 'application/json' } });
    const type = response.headers.get('content-type') ?? 'application/octet-stream';
    if (/^application\/json\b/i.test(type)) {
      const body = (await response
        .clone()
        .json()
        .catch(() => null)) as Record<string, unknown> | null;
      // The service's description of a download, not a JSON source itself.
      if (body && typeof body.url === 'string' && typeof body.index === 'number' && 'source' in body) {
        const contentType =
          typeof body.content_type === 'string' ? body.content_type : 'application/octet-stream';
        if (/^image\//i.test(contentType)) return { contentType, bytes: new ArrayBuffer(0), url: body.url };
        let followed: Response;
        try {
          followed = await fetch(body.url, { cache: 'no-store', credentials: 'omit' });
        } catch {
          throw new ApiError(0, { detail: 'The source could not be downloaded from storage.' });
        }
        if (!followed.ok)
          throw new ApiError(followed.status, { detail: 'The source could not be downloaded.' });
        return {
          contentType: followed.headers.get('content-type') ?? contentType,
          bytes: await followed.arrayBuffer(),
        };
      }
    }
    return { contentType: type, bytes: await response.arrayBuffer() };
  }
}
