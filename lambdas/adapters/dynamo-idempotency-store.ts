import { createHash } from 'node:crypto';
import { ConflictError } from '../core/errors';
import type { IdempotencyRecord, IdempotencyStore, StoredResponse } from '../core/ports';
import { translateAwsErrors } from './aws-errors';
import { itemOfConflict, keys, stripKeys, type TableContext } from './dynamo-table';

/**
 * Idempotency records in the client's partition, keyed by a hash of the client's Idempotency-Key. Expiry is
 * checked in the condition (DynamoDB's TTL deletes expired items only eventually, and the local emulator
 * never does).
 */
export class DynamoIdempotencyStore implements IdempotencyStore {
  constructor(private readonly ctx: TableContext) {}

  private key(clientId: string, key: string) {
    const hash = createHash('sha256').update(key, 'utf8').digest('hex');
    return { PK: keys.client(clientId), SK: keys.idempotency(hash) };
  }

  async claim(record: IdempotencyRecord, nowSeconds: number): Promise<IdempotencyRecord | undefined> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await translateAwsErrors('claim idempotency key', () =>
          this.ctx.db.put({
            TableName: this.ctx.tableName,
            Item: { ...this.key(record.clientId, record.key), entity: 'idempotency', ...record },
            ConditionExpression: 'attribute_not_exists(PK) OR expiresAt < :now',
            ExpressionAttributeValues: { ':now': nowSeconds },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return undefined;
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        const key = this.key(record.clientId, record.key);
        const existing = await itemOfConflict(this.ctx, key, error, 'read idempotency key');
        // Released between our write and our read (the emulator's case): try to claim it again.
        if (existing) return stripKeys<IdempotencyRecord>(existing);
      }
    }
    throw new ConflictError('The idempotency key is contended.');
  }

  async takeOver(found: IdempotencyRecord, lockExpiresAt: number): Promise<boolean> {
    try {
      await translateAwsErrors('take over idempotency key', () =>
        this.ctx.db.update({
          TableName: this.ctx.tableName,
          Key: this.key(found.clientId, found.key),
          UpdateExpression: 'SET lockExpiresAt = :lock',
          ConditionExpression: '#state = :inProgress AND lockExpiresAt = :found',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':lock': lockExpiresAt,
            ':inProgress': 'in_progress',
            ':found': found.lockExpiresAt,
          },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConflictError) return false;
      throw error;
    }
  }

  async complete(clientId: string, key: string, response: StoredResponse): Promise<void> {
    await translateAwsErrors('complete idempotency key', () =>
      this.ctx.db.update({
        TableName: this.ctx.tableName,
        Key: this.key(clientId, key),
        UpdateExpression: 'SET #state = :completed, #response = :response',
        ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
        ExpressionAttributeValues: { ':completed': 'completed', ':response': response },
      }),
    );
  }

  async release(clientId: string, key: string): Promise<void> {
    await translateAwsErrors('release idempotency key', () =>
      this.ctx.db.delete({ TableName: this.ctx.tableName, Key: this.key(clientId, key) }),
    );
  }
}
