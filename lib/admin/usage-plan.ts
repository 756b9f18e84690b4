import {
  type APIGatewayClient,
  type ApiKey,
  ConflictException,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  GetApiKeysCommand,
  UpdateApiKeyCommand,
} from '@aws-sdk/client-api-gateway';

/**
 * In AWS every method requires an API key that the authorizer names (`usageIdentifierKey` = the client's
 * usage key), and API Gateway accepts it only if an enabled API key with that value is attached to the
 * stage's usage plan: otherwise every request of the client answers 403 (INVALID_API_KEY). Registration is
 * idempotent and checks each of those three facts, because a key may exist from an earlier stack (the
 * stateless stack recreated with a new usage plan), be detached, or be disabled.
 */
export interface Registration {
  readonly clientId: string;
  readonly apiKeyId: string;
  /** The API key was created now (else it existed with the client's usage key as its value). */
  readonly createdKey: boolean;
  /** The key was attached to the usage plan now (else it was already). */
  readonly attachedNow: boolean;
  /** The key existed but was disabled, and was enabled now. */
  readonly enabledNow: boolean;
}

export const apiKeyName = (clientId: string): string => `client-${clientId}`;

/** Every API key of the account and region (paged), with values, whose name starts with `nameQuery`. */
const listApiKeys = async (apigw: APIGatewayClient, nameQuery?: string): Promise<ApiKey[]> => {
  const keys: ApiKey[] = [];
  let position: string | undefined;
  do {
    const page = await apigw.send(
      new GetApiKeysCommand({ nameQuery, includeValues: true, limit: 500, position }),
    );
    keys.push(...(page.items ?? []));
    position = page.position;
  } while (position);
  return keys;
};

export const registerUsageKey = async (
  apigw: APIGatewayClient,
  input: { usagePlanId: string; clientId: string; usageKey: string },
): Promise<Registration> => {
  const name = apiKeyName(input.clientId);
  let key = (await listApiKeys(apigw, name)).find((k) => k.value === input.usageKey);
  let createdKey = false;
  if (!key) {
    try {
      key = await apigw.send(new CreateApiKeyCommand({ name, value: input.usageKey, enabled: true }));
      createdKey = true;
    } catch (error) {
      // The value exists under another name (API key values are unique per account and region).
      if (!(error instanceof ConflictException)) throw error;
      key = (await listApiKeys(apigw)).find((k) => k.value === input.usageKey);
      if (!key) throw error;
    }
  }
  if (!key.id) throw new Error(`API Gateway returned the API key ${name} without an id`);
  let enabledNow = false;
  if (key.enabled === false) {
    await apigw.send(
      new UpdateApiKeyCommand({
        apiKey: key.id,
        patchOperations: [{ op: 'replace', path: '/enabled', value: 'true' }],
      }),
    );
    enabledNow = true;
  }
  let attachedNow = true;
  try {
    await apigw.send(
      new CreateUsagePlanKeyCommand({ usagePlanId: input.usagePlanId, keyId: key.id, keyType: 'API_KEY' }),
    );
  } catch (error) {
    // Already attached to this plan.
    if (!(error instanceof ConflictException)) throw error;
    attachedNow = false;
  }
  return { clientId: input.clientId, apiKeyId: key.id, createdKey, attachedNow, enabledNow };
};
