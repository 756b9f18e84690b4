import { DeleteCommand, PutCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { ConflictError, ValidationError } from '../core/errors';
import type { JobRecord } from '../core/model';
import type { JobListQuery, JobRepository, Page, Transition } from '../core/ports';
import type { JobState } from '../core/schemas/job';
import { translateAwsErrors } from './aws-errors';
import {
  clearOutbox,
  decodeCursor,
  encodeCursor,
  GSI1,
  getItem,
  keys,
  outboxSortKey,
  stripKeys,
  type TableContext,
  transitionItem,
} from './dynamo-table';

const CURSOR_FIELDS = ['sk', 'gsk'] as const;
/** A filtered listing reads at most this many pages before answering with what it has and a cursor. */
const MAX_PAGES_PER_LIST = 10;

/** Jobs in the single table: one item per job in its client's partition, listed through GSI1 newest first. */
export class DynamoJobRepository implements JobRepository {
  constructor(private readonly ctx: TableContext) {}

  private key(clientId: string, id: string) {
    return { PK: keys.client(clientId), SK: keys.job(id) };
  }

  async create(job: JobRecord): Promise<void> {
    await translateAwsErrors('create job', () =>
      this.ctx.doc.send(
        new PutCommand({
          TableName: this.ctx.tableName,
          Item: {
            ...this.key(job.clientId, job.id),
            GSI1PK: keys.clientJobs(job.clientId),
            GSI1SK: `${job.createdAt}#${job.id}`,
            GSI2PK: keys.outbox,
            GSI2SK: outboxSortKey(job.createdAt, 'job', job.clientId, job.id),
            entity: 'job',
            ...job,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      ),
    );
  }

  async get(clientId: string, id: string): Promise<JobRecord | undefined> {
    const item = await getItem(this.ctx, this.key(clientId, id), 'read job');
    return item ? stripKeys<JobRecord>(item) : undefined;
  }

  async list(clientId: string, query: JobListQuery): Promise<Page<JobRecord>> {
    const partition = keys.clientJobs(clientId);
    let startKey: Record<string, unknown> | undefined;
    if (query.cursor) {
      const cursor = decodeCursor(query.cursor, CURSOR_FIELDS);
      if (!cursor) {
        throw new ValidationError('The cursor is invalid.', [
          {
            pointer: '/query/cursor',
            code: 'invalid_value',
            message: 'use the next_cursor of a previous page',
          },
        ]);
      }
      // The partition comes from the caller's identity, never from the cursor: a cursor cannot reach
      // another client's jobs.
      startKey = { PK: keys.client(clientId), SK: cursor.sk, GSI1PK: partition, GSI1SK: cursor.gsk };
    }
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':p': partition };
    const filters: string[] = [];
    if (query.state) {
      names['#state'] = 'state';
      values[':state'] = query.state;
      filters.push('#state = :state');
    }
    if (query.jobType) {
      names['#jobType'] = 'jobType';
      values[':jobType'] = query.jobType;
      filters.push('#jobType = :jobType');
    }
    const items: Record<string, unknown>[] = [];
    let last: QueryCommandOutput['LastEvaluatedKey'];
    for (let page = 0; page < MAX_PAGES_PER_LIST; page++) {
      const result: QueryCommandOutput = await translateAwsErrors('list jobs', () =>
        this.ctx.doc.send(
          new QueryCommand({
            TableName: this.ctx.tableName,
            IndexName: GSI1,
            KeyConditionExpression: 'GSI1PK = :p',
            FilterExpression: filters.length > 0 ? filters.join(' AND ') : undefined,
            ExpressionAttributeNames: filters.length > 0 ? names : undefined,
            ExpressionAttributeValues: values,
            ScanIndexForward: false,
            ExclusiveStartKey: startKey,
            // One more than asked, to know whether another page exists.
            Limit: filters.length > 0 ? Math.max(50, query.limit + 1) : query.limit + 1 - items.length,
          }),
        ),
      );
      items.push(...(result.Items ?? []));
      last = result.LastEvaluatedKey;
      if (items.length > query.limit || !last) break;
      startKey = last;
    }
    const pageItems = items.slice(0, query.limit);
    const lastItem = pageItems.at(-1);
    let nextCursor: string | null = null;
    if (items.length > query.limit && lastItem) {
      nextCursor = encodeCursor({ sk: String(lastItem.SK), gsk: String(lastItem.GSI1SK) });
    } else if (last) {
      nextCursor = encodeCursor({ sk: String(last.SK), gsk: String(last.GSI1SK) });
    }
    return { items: pageItems.map((item) => stripKeys<JobRecord>(item)), nextCursor };
  }

  transition(clientId: string, id: string, t: Transition<JobState, JobRecord>): Promise<JobRecord> {
    return transitionItem(this.ctx, this.key(clientId, id), t, 'job transition');
  }

  markEnqueued(clientId: string, id: string): Promise<void> {
    return clearOutbox(this.ctx, this.key(clientId, id), 'mark job enqueued');
  }

  async deleteUnenqueued(clientId: string, id: string): Promise<boolean> {
    try {
      await translateAwsErrors('delete unqueued job', () =>
        this.ctx.doc.send(
          new DeleteCommand({
            TableName: this.ctx.tableName,
            Key: this.key(clientId, id),
            ConditionExpression: 'attribute_exists(GSI2PK) AND #version = :one',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':one': 1 },
          }),
        ),
      );
      return true;
    } catch (error) {
      if (error instanceof ConflictError) return false;
      throw error;
    }
  }
}
