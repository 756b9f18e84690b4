import { DomainError } from './errors';
import type { OutboundResponse } from './ports';

/**
 * Failures of the outbound HTTP port (OutboundHttp in ports.ts): SPEC 8. The adapter
 * (lambdas/adapters/guarded-http.ts) throws them; workers tell permanent from retryable by `retryable`.
 */

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

/** The response's Content-Encoding is one the client cannot decode, or its body is not what it claims. */
export class OutboundEncodingError extends OutboundError {
  readonly code = 'outbound_bad_encoding';
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
