import { createHash } from 'node:crypto';
import { IdempotencyKeyInUseError, IdempotencyKeyMismatchError, ValidationError } from '../errors';
import type { IdempotencyStore, StoredResponse } from '../ports';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** SPEC 5.1: keys are kept 24 h. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
/** A request still "in flight" after this long is taken to have crashed, and the key may be used again. */
export const IDEMPOTENCY_LOCK_SECONDS = 60;

/** JSON with object keys sorted, so that key order and whitespace do not change a request's fingerprint. */
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
};

/** What makes two requests "the same": the route and the parsed body. */
export const requestFingerprint = (route: string, body: unknown): string =>
  createHash('sha256').update(route).update('\n').update(canonical(body)).digest('hex');

export const checkIdempotencyKey = (key: string): string => {
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || /[^\x20-\x7e]/.test(key)) {
    throw new ValidationError('The Idempotency-Key header is invalid.', [
      {
        pointer: '/headers/idempotency-key',
        code: 'invalid_value',
        message: `must be 1-${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`,
      },
    ]);
  }
  return key;
};

export type IdempotencyOutcome =
  | { readonly kind: 'proceed' }
  | { readonly kind: 'replay'; readonly response: StoredResponse };

/**
 * Claims an idempotency key for a request. A first use proceeds; a repeat of a finished request with the
 * same fingerprint replays its response; a different request under the same key is refused (422), and so
 * is a repeat while the first is still in flight (409).
 */
export const claimIdempotencyKey = async (
  store: IdempotencyStore,
  input: { clientId: string; key: string; fingerprint: string; nowSeconds: number },
): Promise<IdempotencyOutcome> => {
  const existing = await store.claim(
    {
      clientId: input.clientId,
      key: input.key,
      fingerprint: input.fingerprint,
      state: 'in_progress',
      response: null,
      expiresAt: input.nowSeconds + IDEMPOTENCY_TTL_SECONDS,
      lockExpiresAt: input.nowSeconds + IDEMPOTENCY_LOCK_SECONDS,
    },
    input.nowSeconds,
  );
  if (!existing) return { kind: 'proceed' };
  if (existing.fingerprint !== input.fingerprint) {
    throw new IdempotencyKeyMismatchError(
      'This Idempotency-Key was already used with a different request; use a new key for a new request.',
    );
  }
  if (existing.state === 'in_progress' || !existing.response) {
    throw new IdempotencyKeyInUseError(
      'A request with this Idempotency-Key is still being processed; retry shortly.',
    );
  }
  return { kind: 'replay', response: existing.response };
};
