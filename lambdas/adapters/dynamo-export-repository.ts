import { PutCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '../core/errors';
import type { ExportRecord } from '../core/model';
import type { CallbackWrite, ExportRepository, Transition } from '../core/ports';
import { EXPORT_TRANSITIONS, type ExportStateEvent } from '../core/states';
import { translateAwsErrors } from './aws-errors';
import {
  clearOutbox,
  deleteFromOutbox,
  GSI1,
  getItem,
  itemOfConflict,
  keys,
  outboxSortKey,
  stripKeys,
  type TableContext,
  transitionItem,
} from './dynamo-table';

/** Data exports: one item per export in its client's partition; GSI1 lists the exports of one job. */
export class DynamoExportRepository implements ExportRepository {
  constructor(private readonly ctx: TableContext) {}

  private key(clientId: string, id: string) {
    return { PK: keys.client(clientId), SK: keys.export(id) };
  }

  async create(exp: ExportRecord): Promise<void> {
    await translateAwsErrors('create export', () =>
      this.ctx.doc.send(
        new PutCommand({
          TableName: this.ctx.tableName,
          Item: {
            ...this.key(exp.clientId, exp.id),
            GSI1PK: keys.jobExports(exp.clientId, exp.jobId),
            GSI1SK: `${exp.createdAt}#${exp.id}`,
            GSI2PK: keys.outbox,
            GSI2SK: outboxSortKey(exp.createdAt, 'export', exp.clientId, exp.id),
            entity: 'export',
            ...exp,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      ),
    );
  }

  async get(clientId: string, id: string): Promise<ExportRecord | undefined> {
    const item = await getItem(this.ctx, this.key(clientId, id), 'read export');
    return item ? stripKeys<ExportRecord>(item) : undefined;
  }

  async listForJob(clientId: string, jobId: string): Promise<ExportRecord[]> {
    const items: ExportRecord[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const result = await translateAwsErrors('list exports of job', () =>
        this.ctx.doc.send(
          new QueryCommand({
            TableName: this.ctx.tableName,
            IndexName: GSI1,
            KeyConditionExpression: 'GSI1PK = :p',
            ExpressionAttributeValues: { ':p': keys.jobExports(clientId, jobId) },
            ExclusiveStartKey: startKey,
          }),
        ),
      );
      items.push(...(result.Items ?? []).map((item) => stripKeys<ExportRecord>(item)));
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    return items;
  }

  transition(
    clientId: string,
    id: string,
    t: Transition<ExportStateEvent, ExportRecord>,
  ): Promise<ExportRecord> {
    return transitionItem(
      this.ctx,
      this.key(clientId, id),
      EXPORT_TRANSITIONS[t.event],
      t,
      'export transition',
    );
  }

  markEnqueued(clientId: string, id: string): Promise<void> {
    return clearOutbox(this.ctx, this.key(clientId, id), 'mark export enqueued');
  }

  deleteUnenqueued(clientId: string, id: string): Promise<boolean> {
    return deleteFromOutbox(this.ctx, this.key(clientId, id), 'delete unqueued export');
  }

  /**
   * Records a callback attempt: only `callback` changes (never the export's state or version), and only
   * while the stored callback is still at the expected state and attempt count.
   */
  async updateCallback(clientId: string, id: string, write: CallbackWrite): Promise<ExportRecord> {
    const isFirst = write.expected.state === 'pending' && write.expected.attempts === 0;
    try {
      const result = await translateAwsErrors('record callback attempt', () =>
        this.ctx.doc.send(
          new UpdateCommand({
            TableName: this.ctx.tableName,
            Key: this.key(clientId, id),
            UpdateExpression: 'SET #callback = :next',
            ConditionExpression: isFirst
              ? 'attribute_exists(PK) AND (attribute_not_exists(#callback) OR #callback = :null OR (#callback.#state = :state AND #callback.attempts = :attempts))'
              : 'attribute_exists(PK) AND #callback.#state = :state AND #callback.attempts = :attempts',
            ExpressionAttributeNames: { '#callback': 'callback', '#state': 'state' },
            ExpressionAttributeValues: {
              ':next': write.next,
              ':state': write.expected.state,
              ':attempts': write.expected.attempts,
              ...(isFirst ? { ':null': null } : {}),
            },
            ReturnValues: 'ALL_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      return stripKeys<ExportRecord>(result.Attributes ?? {});
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      const current = await itemOfConflict(this.ctx, this.key(clientId, id), error, 'read export');
      if (!current) throw new NotFoundError('No such export.', { cause: error });
      throw new ConflictError('The callback changed meanwhile.', {
        cause: error.cause,
        current: stripKeys<ExportRecord>(current),
      });
    }
  }

  /** An export by id alone, for the operator's replay command. A scan: operators run it rarely, by hand. */
  async findById(id: string): Promise<ExportRecord | undefined> {
    let startKey: Record<string, unknown> | undefined;
    do {
      const result = await translateAwsErrors('find export', () =>
        this.ctx.doc.send(
          new ScanCommand({
            TableName: this.ctx.tableName,
            FilterExpression: 'SK = :sk',
            ExpressionAttributeValues: { ':sk': keys.export(id) },
            ExclusiveStartKey: startKey,
          }),
        ),
      );
      const item = result.Items?.[0];
      if (item) return stripKeys<ExportRecord>(item);
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    return undefined;
  }
}
