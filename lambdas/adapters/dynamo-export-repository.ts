import { ConflictError, NotFoundError } from '../core/errors';
import type { ExportRecord } from '../core/model';
import type { CallbackWrite, ExportRef, ExportRepository, Transition } from '../core/ports';
import { EXPORT_TRANSITIONS, type ExportStateEvent } from '../core/states';
import { translateAwsErrors } from './aws-errors';
import {
  clearOutbox,
  clientOfKey,
  deleteFromOutbox,
  GSI1,
  GSI3,
  getItem,
  idOfKey,
  itemOfConflict,
  keys,
  outboxSortKey,
  shardOf,
  stripKeys,
  type TableContext,
  transitionItem,
} from './dynamo-table';

/**
 * Data exports: one item per export in its client's partition; GSI1 lists the exports of one job (with their
 * state), GSI3 finds one by its id alone.
 */
export class DynamoExportRepository implements ExportRepository {
  constructor(private readonly ctx: TableContext) {}

  private key(clientId: string, id: string) {
    return { PK: keys.client(clientId), SK: keys.export(id) };
  }

  async create(exp: ExportRecord): Promise<void> {
    await translateAwsErrors('create export', () =>
      this.ctx.db.put({
        TableName: this.ctx.tableName,
        Item: {
          ...this.key(exp.clientId, exp.id),
          GSI1PK: keys.jobExports(exp.clientId, exp.jobId),
          GSI1SK: `${exp.createdAt}#${exp.id}`,
          GSI2PK: keys.outbox(shardOf(exp.id)),
          GSI2SK: outboxSortKey(exp.createdAt, 'export', exp.clientId, exp.id),
          GSI3PK: keys.exportById(exp.id),
          GSI3SK: keys.client(exp.clientId),
          entity: 'export',
          ...exp,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async get(clientId: string, id: string): Promise<ExportRecord | undefined> {
    const item = await getItem(this.ctx, this.key(clientId, id), 'read export');
    return item ? stripKeys<ExportRecord>(item) : undefined;
  }

  async listForJob(clientId: string, jobId: string): Promise<ExportRef[]> {
    const refs: ExportRef[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const result = await translateAwsErrors('list exports of job', () =>
        this.ctx.db.query({
          TableName: this.ctx.tableName,
          IndexName: GSI1,
          KeyConditionExpression: 'GSI1PK = :p',
          ExpressionAttributeValues: { ':p': keys.jobExports(clientId, jobId) },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const entry of result.Items) {
        refs.push({
          clientId: clientOfKey(entry.PK),
          id: idOfKey(entry.SK),
          state: entry.state as ExportRef['state'],
        });
      }
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    return refs;
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
    return deleteFromOutbox(this.ctx, this.key(clientId, id), id, 'delete unqueued export');
  }

  /**
   * Records a callback attempt: only `callback` changes (never the export's state or version), and only
   * while the stored callback is still at the expected state and attempt count.
   */
  async updateCallback(clientId: string, id: string, write: CallbackWrite): Promise<ExportRecord> {
    const isFirst = write.expected.state === 'pending' && write.expected.attempts === 0;
    try {
      const result = await translateAwsErrors('record callback attempt', () =>
        this.ctx.db.update({
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

  /** An export by id alone, for the operator's replay command: GSI3 gives its client, the table the rest. */
  async findById(id: string): Promise<ExportRecord | undefined> {
    const result = await translateAwsErrors('find export', () =>
      this.ctx.db.query({
        TableName: this.ctx.tableName,
        IndexName: GSI3,
        KeyConditionExpression: 'GSI3PK = :p',
        ExpressionAttributeValues: { ':p': keys.exportById(id) },
      }),
    );
    const entry = result.Items[0];
    return entry ? this.get(clientOfKey(entry.PK), id) : undefined;
  }
}
