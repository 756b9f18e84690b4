import { DomainError } from './errors';

/**
 * The port every outbound HTTP request goes through (catalog sources, images, callbacks): SPEC 8. The
 * adapter (lambdas/adapters/guarded-http.ts) resolves names, refuses internal addresses, pins the
 * connection to the checked address, re-checks redirects and enforces time and size limits.
 */

export interface OutboundRequest {
  readonly url: string;
  readonly method: 'GET' | 'POST' | 'HEAD';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** Whole request, connection to last byte. */
  readonly timeoutMs: number;
  /** The response body is cut off (OutboundTooLargeError) past this many bytes. */
  readonly maxBytes: number;
  /** At most 3 redirects are followed, each re-checked; callbacks follow none (SPEC 6). */
  readonly followRedirects: boolean;
}

export interface OutboundResponse {
  readonly status: number;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /** The URL finally answered (after redirects). */
  readonly url: string;
  /** The body as a stream of chunks; reading past maxBytes throws OutboundTooLargeError. */
  readonly body: AsyncIterable<Uint8Array>;
}

export interface OutboundHttp {
  request(request: OutboundRequest): Promise<OutboundResponse>;
}

/** Base class of every outbound failure. `retryable` tells a worker whether trying later may help. */
export abstract class OutboundError extends DomainError {
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The URL's scheme or resolved address is not allowed (private, loopback, link-local, ...). Permanent. */
export class OutboundBlockedError extends OutboundError {
  readonly code = 'outbound_blocked';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, false, options);
  }
}

/** The response body exceeded maxBytes. Permanent. */
export class OutboundTooLargeError extends OutboundError {
  readonly code = 'outbound_too_large';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, false, options);
  }
}

/** Time-out, refused or reset connection, DNS failure: may succeed later. */
export class OutboundNetworkError extends OutboundError {
  readonly code = 'outbound_unreachable';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, true, options);
  }
}

/** Reads a whole (bounded) body into one buffer. */
export const readBody = async (response: OutboundResponse): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
};

/** Closes a response whose body will not be read, so that its connection is released at once. */
export const discardBody = async (response: OutboundResponse): Promise<void> => {
  await response.body[Symbol.asyncIterator]().return?.();
};
