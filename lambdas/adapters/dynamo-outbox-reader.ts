import type { OutboxEntry, OutboxReader } from '../core/ports';
import { keys, queryShards, type TableContext } from './dynamo-table';

/**
 * Reads the sparse outbox index, every shard of it: records written whose enqueue has not been confirmed.
 * An entry's sort key is `<created_at>#<kind>#<client>#<id>`: all the reconciler needs, without a read.
 */
export class DynamoOutboxReader implements OutboxReader {
  constructor(private readonly ctx: TableContext) {}

  async pending(olderThan: string, limit: number): Promise<OutboxEntry[]> {
    const entries = await queryShards(
      this.ctx,
      keys.outbox,
      { expression: 'GSI2SK < :before', values: { ':before': olderThan } },
      limit,
      'read outbox',
    );
    return entries
      .map((entry): OutboxEntry => {
        const [createdAt, kind, clientId, id] = String(entry.GSI2SK).split('#') as [
          string,
          string,
          string,
          string,
        ];
        return { kind: kind === 'export' ? 'export' : 'job', clientId, id, createdAt };
      })
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .slice(0, limit);
  }
}
