import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import {
  generateApiKey,
  generateWebhookSecret,
  keyDigest,
  parseAuthorization,
} from '../../lambdas/core/auth';
import { UnauthorizedError } from '../../lambdas/core/errors';
import {
  activeWebhookSecrets,
  issueKey,
  revokeKey,
  rotateWebhookSecret,
} from '../../lambdas/core/use-cases/credentials';
import { makeAuthorizerHandler } from '../../lambdas/handlers/authorizer';
import { fakeDeps } from '../helpers/fakes';

const authorizerEvent = (authorization?: string): APIGatewayRequestAuthorizerEvent =>
  ({
    type: 'REQUEST',
    methodArn: 'arn:aws:execute-api:us-east-1:123456789012:abc123/prod/POST/v1/jobs',
    headers: authorization === undefined ? {} : { Authorization: authorization },
  }) as unknown as APIGatewayRequestAuthorizerEvent;

describe('Authorization header (seed 5)', () => {
  const key = generateApiKey('client');

  it('reads Token api_key=<KEY>', () => {
    expect(parseAuthorization(`Token api_key=${key}`)).toBe(key);
    expect(parseAuthorization(`token  api_key=${key} `)).toBe(key);
  });

  it.each([
    undefined,
    '',
    key,
    `Bearer ${key}`,
    `Token ${key}`,
    `Token api_key=`,
    'Token api_key=short',
    `Token api_key=${key} extra`,
  ])('refuses %j', (header) => {
    expect(() => parseAuthorization(header)).toThrow(UnauthorizedError);
  });

  it('generates prefixed keys with 192 random bits and whsec_ secrets of 32 bytes', () => {
    expect(generateApiKey('client')).toMatch(/^cjk_live_[A-Za-z0-9_-]{32}$/);
    expect(generateApiKey('operator')).toMatch(/^cjk_ops_[A-Za-z0-9_-]{32}$/);
    expect(generateApiKey('client')).not.toBe(generateApiKey('client'));
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
  });
});

describe('authorizer (SPEC 2)', () => {
  it('allows a known key for the whole stage, with the tenant in the context', async () => {
    const deps = fakeDeps();
    const issued = await issueKey(deps, { clientId: 'acme', scope: 'client' });
    const result = await makeAuthorizerHandler(deps)(authorizerEvent(`Token api_key=${issued.api_key}`));
    expect(result.principalId).toBe('acme');
    expect(result.context).toEqual({ clientId: 'acme', scope: 'client', keyId: issued.key_id });
    expect(result.policyDocument.Statement).toEqual([
      {
        Action: 'execute-api:Invoke',
        Effect: 'Allow',
        Resource: 'arn:aws:execute-api:us-east-1:123456789012:abc123/prod/*/*',
      },
    ]);
    expect(result.usageIdentifierKey).toBe(deps.credentials.clients.get('acme')?.usageKey);
  });

  it('stores only the digest of a key', async () => {
    const deps = fakeDeps();
    const issued = await issueKey(deps, { clientId: 'acme', scope: 'client' });
    expect([...deps.credentials.keys.keys()]).toEqual([keyDigest(issued.api_key)]);
    expect(JSON.stringify([...deps.credentials.keys.values()])).not.toContain(issued.api_key);
  });

  it.each([undefined, 'Token api_key=cjk_live_unknownunknownunknownunknown1'])(
    'refuses %j as Unauthorized',
    async (h) => {
      const deps = fakeDeps();
      await expect(makeAuthorizerHandler(deps)(authorizerEvent(h))).rejects.toThrow('Unauthorized');
    },
  );

  it('refuses a revoked key at once', async () => {
    const deps = fakeDeps();
    const issued = await issueKey(deps, { clientId: 'acme', scope: 'client' });
    await revokeKey(deps, issued.key_id);
    await expect(
      makeAuthorizerHandler(deps)(authorizerEvent(`Token api_key=${issued.api_key}`)),
    ).rejects.toThrow('Unauthorized');
  });

  it('does not turn a dependency failure into a 401', async () => {
    const deps = fakeDeps();
    deps.credentials.findKey = () => Promise.reject(new Error('ddb down'));
    await expect(
      makeAuthorizerHandler(deps)(authorizerEvent(`Token api_key=${generateApiKey('client')}`)),
    ).rejects.toThrow('ddb down');
  });
});

describe('webhook secret rotation', () => {
  it('keeps the previous secret signing for 24 hours', async () => {
    const deps = fakeDeps();
    const issued = await issueKey(deps, { clientId: 'acme', scope: 'client' });
    const fresh = await rotateWebhookSecret(deps, 'acme');
    const secrets = deps.credentials.clients.get('acme')!.webhookSecrets;
    expect(activeWebhookSecrets(secrets, deps.clock.now())).toEqual([fresh, issued.webhook_secret]);
    deps.clock.advance(24 * 3600 * 1000 + 1);
    expect(activeWebhookSecrets(secrets, deps.clock.now())).toEqual([fresh]);
  });
});
