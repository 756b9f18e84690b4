import { ConflictError, NotFoundError } from '../core/errors';
import type { ApiKeyRecord, ClientRecord, CredentialRepository, WebhookSecret } from '../core/ports';
import { translateAwsErrors } from './aws-errors';
import {
  GSI1,
  getItem,
  itemOfConflict,
  keys,
  readRecords,
  stripKeys,
  type TableContext,
} from './dynamo-table';

/**
 * Clients and their API keys. A key item is addressed by the SHA-256 digest of the key (the key itself is
 * never stored), so the authorizer finds it with one GetItem.
 */
export class DynamoCredentialRepository implements CredentialRepository {
  constructor(private readonly ctx: TableContext) {}

  private keyKey(digest: string) {
    return { PK: keys.apiKey(digest), SK: keys.apiKey(digest) };
  }

  private clientKey(clientId: string) {
    return { PK: keys.client(clientId), SK: keys.profile };
  }

  async findKey(digest: string): Promise<ApiKeyRecord | undefined> {
    const item = await getItem(this.ctx, this.keyKey(digest), 'read api key');
    return item ? stripKeys<ApiKeyRecord>(item) : undefined;
  }

  async putKey(key: ApiKeyRecord): Promise<void> {
    await translateAwsErrors('store api key', () =>
      this.ctx.db.put({
        TableName: this.ctx.tableName,
        Item: {
          ...this.keyKey(key.digest),
          GSI1PK: keys.allKeys,
          GSI1SK: `${key.clientId}#${key.createdAt}#${key.keyId}`,
          entity: 'api_key',
          ...key,
        },
      }),
    );
  }

  /** GSI1 lists the keys (client, creation time); each is read whole from the table. */
  async listKeys(clientId?: string): Promise<ApiKeyRecord[]> {
    const entries: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const result = await translateAwsErrors('list api keys', () =>
        this.ctx.db.query({
          TableName: this.ctx.tableName,
          IndexName: GSI1,
          KeyConditionExpression: clientId ? 'GSI1PK = :p AND begins_with(GSI1SK, :c)' : 'GSI1PK = :p',
          ExpressionAttributeValues: clientId
            ? { ':p': keys.allKeys, ':c': `${clientId}#` }
            : { ':p': keys.allKeys },
          ExclusiveStartKey: startKey,
        }),
      );
      entries.push(...result.Items);
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    return (await readRecords(this.ctx, entries, 'list api keys')).map((item) =>
      stripKeys<ApiKeyRecord>(item),
    );
  }

  async revokeKey(digest: string, at: string): Promise<ApiKeyRecord> {
    try {
      const result = await translateAwsErrors('revoke api key', () =>
        this.ctx.db.update({
          TableName: this.ctx.tableName,
          Key: this.keyKey(digest),
          UpdateExpression: 'SET revokedAt = :at',
          // Revoking twice keeps the first revocation time.
          ConditionExpression:
            'attribute_exists(PK) AND (attribute_not_exists(revokedAt) OR revokedAt = :null)',
          ExpressionAttributeValues: { ':at': at, ':null': null },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return stripKeys<ApiKeyRecord>(result.Attributes ?? {});
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      const existing = await itemOfConflict(this.ctx, this.keyKey(digest), error, 'read api key');
      if (!existing) throw new NotFoundError('No such API key.', { cause: error });
      return stripKeys<ApiKeyRecord>(existing);
    }
  }

  async getClient(clientId: string): Promise<ClientRecord | undefined> {
    const item = await getItem(this.ctx, this.clientKey(clientId), 'read client');
    return item ? stripKeys<ClientRecord>(item) : undefined;
  }

  async ensureClient(client: ClientRecord): Promise<ClientRecord> {
    try {
      await translateAwsErrors('create client', () =>
        this.ctx.db.put({
          TableName: this.ctx.tableName,
          Item: { ...this.clientKey(client.clientId), entity: 'client', ...client },
          ConditionExpression: 'attribute_not_exists(PK)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return client;
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      const existing = await itemOfConflict(this.ctx, this.clientKey(client.clientId), error, 'read client');
      if (!existing) throw error;
      return stripKeys<ClientRecord>(existing);
    }
  }

  async setWebhookSecrets(clientId: string, secrets: readonly WebhookSecret[]): Promise<void> {
    try {
      await translateAwsErrors('rotate webhook secret', () =>
        this.ctx.db.update({
          TableName: this.ctx.tableName,
          Key: this.clientKey(clientId),
          UpdateExpression: 'SET webhookSecrets = :s',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':s': secrets },
        }),
      );
    } catch (error) {
      if (error instanceof ConflictError)
        throw new NotFoundError(`No client has the id ${clientId}.`, { cause: error });
      throw error;
    }
  }
}
