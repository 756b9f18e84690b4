import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { OutboxEntry, OutboxReader } from '../core/ports';
import { translateAwsErrors } from './aws-errors';
import { GSI2, keys, type TableContext } from './dynamo-table';

/** Reads the sparse outbox index: records written whose enqueue has not been confirmed. */
export class DynamoOutboxReader implements OutboxReader {
  constructor(private readonly ctx: TableContext) {}

  async pending(olderThan: string, limit: number): Promise<OutboxEntry[]> {
    const result = await translateAwsErrors('read outbox', () =>
      this.ctx.doc.send(
        new QueryCommand({
          TableName: this.ctx.tableName,
          IndexName: GSI2,
          KeyConditionExpression: 'GSI2PK = :p AND GSI2SK < :before',
          ExpressionAttributeValues: { ':p': keys.outbox, ':before': olderThan },
          Limit: limit,
        }),
      ),
    );
    return (result.Items ?? []).map((item) => ({
      kind: item.entity === 'export' ? 'export' : 'job',
      clientId: String(item.clientId),
      id: String(item.id),
      createdAt: String(item.createdAt),
    }));
  }
}
