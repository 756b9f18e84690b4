import { ConflictError, NotFoundError } from '../core/errors';
import type { FileRecord } from '../core/model';
import type { FileRepository } from '../core/ports';
import { translateAwsErrors } from './aws-errors';
import { getItem, itemOfConflict, keys, stripKeys, type TableContext } from './dynamo-table';

export class DynamoFileRepository implements FileRepository {
  constructor(private readonly ctx: TableContext) {}

  private key(clientId: string, id: string) {
    return { PK: keys.client(clientId), SK: keys.file(id) };
  }

  async create(file: FileRecord): Promise<void> {
    await translateAwsErrors('create file', () =>
      this.ctx.db.put({
        TableName: this.ctx.tableName,
        Item: { ...this.key(file.clientId, file.id), entity: 'file', ...file },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async get(clientId: string, id: string): Promise<FileRecord | undefined> {
    const item = await getItem(this.ctx, this.key(clientId, id), 'read file');
    return item ? stripKeys<FileRecord>(item) : undefined;
  }

  async markUploaded(clientId: string, id: string, sizeBytes: number, at: string): Promise<FileRecord> {
    try {
      const result = await translateAwsErrors('mark file uploaded', () =>
        this.ctx.db.update({
          TableName: this.ctx.tableName,
          Key: this.key(clientId, id),
          UpdateExpression: 'SET #state = :uploaded, sizeBytes = :size, updatedAt = :at',
          ConditionExpression: 'attribute_exists(PK) AND #state = :pending',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':uploaded': 'uploaded',
            ':pending': 'pending',
            ':size': sizeBytes,
            ':at': at,
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return stripKeys<FileRecord>(result.Attributes ?? {});
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      // Two readers saw the upload at once: the other one marked it, and this is what it wrote.
      const current = await itemOfConflict(this.ctx, this.key(clientId, id), error, 'read file');
      if (!current) throw new NotFoundError('No such file.', { cause: error });
      return stripKeys<FileRecord>(current);
    }
  }
}
