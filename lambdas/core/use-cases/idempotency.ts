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
  /** Go on, creating the record under `resourceId` (or finding it created by a request that crashed). */
  | { readonly kind: 'proceed'; readonly resourceId: string }
  | { readonly kind: 'replay'; readonly response: StoredResponse };

/**
 * Claims an idempotency key for a request. A first use proceeds with a new resource id, reserved in the
 * key's record; a repeat of a finished request with the same fingerprint replays its response; a different
 * request under the same key is refused (422), and so is a repeat while the first is in flight (409). A
 * repeat of a request whose lock ran out (its process died at some step of the create) takes the key over
 * and proceeds with the id the first one reserved: the create then makes that record, or finds it made,
 * and never a second one.
 */
export const claimIdempotencyKey = async (
  store: IdempotencyStore,
  input: { clientId: string; key: string; fingerprint: string; nowSeconds: number; resourceId: string },
): Promise<IdempotencyOutcome> => {
  const lockExpiresAt = input.nowSeconds + IDEMPOTENCY_LOCK_SECONDS;
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await store.claim(
      {
        clientId: input.clientId,
        key: input.key,
        fingerprint: input.fingerprint,
        state: 'in_progress',
        response: null,
        resourceId: input.resourceId,
        expiresAt: input.nowSeconds + IDEMPOTENCY_TTL_SECONDS,
        lockExpiresAt,
      },
      input.nowSeconds,
    );
    if (!existing) return { kind: 'proceed', resourceId: input.resourceId };
    if (existing.fingerprint !== input.fingerprint) {
      throw new IdempotencyKeyMismatchError(
        'This Idempotency-Key was already used with a different request; use a new key for a new request.',
      );
    }
    if (existing.state === 'completed' && existing.response) {
      return { kind: 'replay', response: existing.response };
    }
    if (existing.lockExpiresAt >= input.nowSeconds) {
      throw new IdempotencyKeyInUseError(
        'A request with this Idempotency-Key is still being processed; retry shortly.',
      );
    }
    // Abandoned: take it over, unless another retry did so first (then look again).
    if (await store.takeOver(existing, lockExpiresAt)) {
      // A record claimed before ids were reserved has none: the create makes a new one, as it did then.
      return { kind: 'proceed', resourceId: existing.resourceId ?? input.resourceId };
    }
  }
  throw new IdempotencyKeyInUseError(
    'A request with this Idempotency-Key is still being processed; retry shortly.',
  );
};
