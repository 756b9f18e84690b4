import { randomBytes } from 'node:crypto';
import {
  generateApiKey,
  generateWebhookSecret,
  keyDigest,
  keyId,
  type Principal,
  parseAuthorization,
  type Scope,
} from '../auth';
import { NotFoundError, UnauthorizedError, ValidationError } from '../errors';
import type { ApiKeyRecord, ClientRecord, Clock, CredentialRepository, WebhookSecret } from '../ports';

export interface CredentialDeps {
  readonly credentials: CredentialRepository;
  readonly clock: Clock;
}

/** How long the previous webhook secret keeps signing after a rotation (receivers switch over meanwhile). */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;

const CLIENT_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** Turns an Authorization header into the key's principal, or throws UnauthorizedError (SPEC 2). */
export const authenticate = async (
  deps: CredentialDeps,
  header: string | undefined,
): Promise<Principal & { usageKey: string }> => {
  const digest = keyDigest(parseAuthorization(header));
  const key = await deps.credentials.findKey(digest);
  if (!key || key.revokedAt !== null) throw new UnauthorizedError('The API key is unknown or revoked.');
  return { clientId: key.clientId, scope: key.scope, keyId: key.keyId, usageKey: key.usageKey };
};

export interface IssuedKey {
  readonly client_id: string;
  readonly scope: Scope;
  readonly key_id: string;
  readonly api_key: string;
  readonly webhook_secret: string;
}

/** Creates the client (its usage key and first webhook secret) unless it exists; returns it either way. */
export const ensureClient = async (
  deps: CredentialDeps,
  input: { clientId: string; webhookSecret?: string },
): Promise<ClientRecord> => {
  if (!CLIENT_ID.test(input.clientId)) {
    throw new ValidationError('The client id is invalid.', [
      {
        pointer: '/client_id',
        code: 'invalid_value',
        message: 'must be 1-63 of a-z, 0-9, _ and -, starting with a letter or digit',
      },
    ]);
  }
  const at = deps.clock.now().toISOString();
  return deps.credentials.ensureClient({
    clientId: input.clientId,
    createdAt: at,
    usageKey: `usage_${randomBytes(20).toString('hex')}`,
    webhookSecrets: [
      { secret: input.webhookSecret ?? generateWebhookSecret(), createdAt: at, expiresAt: null },
    ],
  });
};

/**
 * Issues a key for a client, creating the client (and its webhook secret) the first time. The key itself is
 * returned once and stored only as its SHA-256 digest. `apiKey` lets the local runtime seed a known key.
 */
export const issueKey = async (
  deps: CredentialDeps,
  input: { clientId: string; scope: Scope; apiKey?: string; webhookSecret?: string },
): Promise<IssuedKey> => {
  const client = await ensureClient(deps, input);
  const at = deps.clock.now().toISOString();
  const apiKey = input.apiKey ?? generateApiKey(input.scope);
  parseAuthorization(`Token api_key=${apiKey}`);
  const digest = keyDigest(apiKey);
  await deps.credentials.putKey({
    digest,
    keyId: keyId(digest),
    clientId: input.clientId,
    scope: input.scope,
    createdAt: at,
    revokedAt: null,
    usageKey: client.usageKey,
  });
  return {
    client_id: input.clientId,
    scope: input.scope,
    key_id: keyId(digest),
    api_key: apiKey,
    webhook_secret: client.webhookSecrets[0]!.secret,
  };
};

/** Revokes by key id (`key_…`, as listed) or by the key itself. */
export const revokeKey = async (deps: CredentialDeps, keyOrId: string): Promise<ApiKeyRecord> => {
  const at = deps.clock.now().toISOString();
  if (keyOrId.startsWith('key_')) {
    const match = (await deps.credentials.listKeys()).find((k) => k.keyId === keyOrId);
    if (!match) throw new NotFoundError(`No key has the id ${keyOrId}.`);
    return deps.credentials.revokeKey(match.digest, at);
  }
  return deps.credentials.revokeKey(keyDigest(keyOrId), at);
};

/** The secrets that sign a callback now: the newest, plus the previous one during its overlap. */
export const activeWebhookSecrets = (secrets: readonly WebhookSecret[], now: Date): string[] =>
  secrets.filter((s) => s.expiresAt === null || Date.parse(s.expiresAt) > now.getTime()).map((s) => s.secret);

/** Issues a new webhook secret; the previous one keeps signing for WEBHOOK_SECRET_OVERLAP_HOURS. */
export const rotateWebhookSecret = async (deps: CredentialDeps, clientId: string): Promise<string> => {
  const client = await deps.credentials.getClient(clientId);
  if (!client) throw new NotFoundError(`No client has the id ${clientId}.`);
  const now = deps.clock.now();
  const overlapEnd = new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000).toISOString();
  const secret = generateWebhookSecret();
  const previous = client.webhookSecrets
    .filter((s) => s.expiresAt === null || Date.parse(s.expiresAt) > now.getTime())
    .slice(0, 1)
    .map((s) => ({ ...s, expiresAt: s.expiresAt ?? overlapEnd }));
  await deps.credentials.setWebhookSecrets(clientId, [
    { secret, createdAt: now.toISOString(), expiresAt: null },
    ...previous,
  ]);
  return secret;
};
