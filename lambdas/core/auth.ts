import { createHash, randomBytes } from 'node:crypto';
import { UnauthorizedError } from './errors';

/** What a key may call: the public API, or the operations API too (lib/resources.ts ROUTES). */
export type Scope = 'client' | 'operator';

/** Key prefixes make a leaked key recognisable (secret scanners, logs) and tell its scope at a glance. */
export const KEY_PREFIX: Readonly<Record<Scope, string>> = { client: 'cjk_live_', operator: 'cjk_ops_' };
/** Issued keys match KEY_PREFIX + 32 base64url characters; keys seeded by hand (DEV_API_KEY) need only this. */
const KEY_PATTERN = /^[A-Za-z0-9._~-]{16,256}$/;

/**
 * Reads the API key from `Authorization: Token api_key=<KEY>` (seed section 5). The scheme is
 * case-insensitive as HTTP auth schemes are; the key itself is exact.
 *
 * @example parseAuthorization('Token api_key=cjk_live_...') // 'cjk_live_...'
 */
export const parseAuthorization = (header: string | undefined): string => {
  const match = /^\s*token\s+api_key=(\S+)\s*$/i.exec(header ?? '');
  if (!match?.[1] || !KEY_PATTERN.test(match[1])) {
    throw new UnauthorizedError('A valid API key is required: Authorization: Token api_key=<API_KEY>.');
  }
  return match[1];
};

/** Keys are stored only as this digest (SPEC 2). */
export const keyDigest = (apiKey: string): string =>
  createHash('sha256').update(apiKey, 'utf8').digest('hex');

/** A short, non-secret handle for a key, safe to list and log. */
export const keyId = (digest: string): string => `key_${digest.slice(0, 16)}`;

/** 24 random bytes: 192 bits, base64url so the key is safe in a header. */
export const generateApiKey = (scope: Scope): string =>
  KEY_PREFIX[scope] + randomBytes(24).toString('base64url');

/** SPEC 2: `whsec_` + base64 of 32 random bytes (the Standard Webhooks format). */
export const generateWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

export interface Principal {
  readonly clientId: string;
  readonly scope: Scope;
  readonly keyId: string;
}
