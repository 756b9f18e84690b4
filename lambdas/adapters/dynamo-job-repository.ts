import { PutCommand, QueryCommand, type QueryCommandOutput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, ValidationError } from '../core/errors';
import type { JobRecord } from '../core/model';
import type { JobListQuery, JobRepository, Page, Transition } from '../core/ports';
import type { JobState } from '../core/schemas/job';
import { isTerminalJobState, JOB_TRANSITIONS, type JobStateEvent } from '../core/states';
import { translateAwsErrors } from './aws-errors';
import {
  decodeCursor,
  deleteFromOutbox,
  encodeCursor,
  GSI1,
  GSI2,
  GSI3,
  getItem,
  type IndexUpdate,
  keys,
  outboxSortKey,
  stripKeys,
  type TableContext,
  transitionItem,
} from './dynamo-table';

const CURSOR_FIELDS = ['sk', 'gsk'] as const;
/** A filtered listing reads at most this many pages before answering with what it has and a cursor. */
const MAX_PAGES_PER_LIST = 10;

/**
 * Where a job stands in the sweep index (GSI2) for a given state: in the outbox until enqueued, then among
 * the open jobs by due date, in the review queue while `in_review`, and nowhere once terminal.
 */
const sweepIndexFor = (state: JobState): IndexUpdate => {
  if (isTerminalJobState(state)) return { remove: ['GSI2PK', 'GSI2SK'] };
  if (state === 'in_review') return { set: { GSI2PK: keys.reviewJobs }, copy: { GSI2SK: 'reviewSortKey' } };
  return { set: { GSI2PK: keys.openJobs }, copy: { GSI2SK: 'openSortKey' } };
};

const REVIEW_CURSOR_FIELDS = ['sk', 'pk', 'gsk'] as const;

/**
 * Jobs in the single table: one item per job in its client's partition, listed through GSI1 newest first,
 * swept through GSI2 (outbox, open jobs, review queue) and found by id alone through GSI3.
 */
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
            GSI3PK: keys.jobById(job.id),
            GSI3SK: keys.client(job.clientId),
            // Sort keys the job takes in the sweep index later (copied there by transitions).
            openSortKey: `${job.dueAt}#${job.id}`,
            reviewSortKey: `${job.processingType === 'rush' ? 0 : 1}#${job.dueAt}#${job.id}`,
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

  transition(clientId: string, id: string, t: Transition<JobStateEvent, JobRecord>): Promise<JobRecord> {
    const move = JOB_TRANSITIONS[t.event];
    return transitionItem(
      this.ctx,
      this.key(clientId, id),
      move,
      t,
      'job transition',
      sweepIndexFor(move.to),
    );
  }

  /** Moves the job from the outbox to the open jobs, unless a transition has already moved it on. */
  async markEnqueued(clientId: string, id: string): Promise<void> {
    try {
      await translateAwsErrors('mark job enqueued', () =>
        this.ctx.doc.send(
          new UpdateCommand({
            TableName: this.ctx.tableName,
            Key: this.key(clientId, id),
            UpdateExpression: 'SET GSI2PK = :open, GSI2SK = openSortKey',
            ConditionExpression: 'GSI2PK = :outbox',
            ExpressionAttributeValues: { ':open': keys.openJobs, ':outbox': keys.outbox },
          }),
        ),
      );
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }

  async listForReview(limit: number, cursor?: string): Promise<Page<JobRecord>> {
    let startKey: Record<string, unknown> | undefined;
    if (cursor) {
      const c = decodeCursor(cursor, REVIEW_CURSOR_FIELDS);
      if (!c) {
        throw new ValidationError('The cursor is invalid.', [
          {
            pointer: '/query/cursor',
            code: 'invalid_value',
            message: 'use the next_cursor of a previous page',
          },
        ]);
      }
      startKey = { PK: c.pk, SK: c.sk, GSI2PK: keys.reviewJobs, GSI2SK: c.gsk };
    }
    const result = await translateAwsErrors('list review queue', () =>
      this.ctx.doc.send(
        new QueryCommand({
          TableName: this.ctx.tableName,
          IndexName: GSI2,
          KeyConditionExpression: 'GSI2PK = :p',
          ExpressionAttributeValues: { ':p': keys.reviewJobs },
          ExclusiveStartKey: startKey,
          Limit: limit,
        }),
      ),
    );
    const items = result.Items ?? [];
    const last = result.LastEvaluatedKey;
    return {
      items: items.map((item) => stripKeys<JobRecord>(item)),
      nextCursor: last
        ? encodeCursor({ sk: String(last.SK), pk: String(last.PK), gsk: String(last.GSI2SK) })
        : null,
    };
  }

  async listOverdue(dueBefore: string, limit: number): Promise<JobRecord[]> {
    const open = await translateAwsErrors('list overdue jobs', () =>
      this.ctx.doc.send(
        new QueryCommand({
          TableName: this.ctx.tableName,
          IndexName: GSI2,
          KeyConditionExpression: 'GSI2PK = :p AND GSI2SK < :before',
          ExpressionAttributeValues: { ':p': keys.openJobs, ':before': dueBefore },
          Limit: limit,
        }),
      ),
    );
    // The review queue is sorted by priority first, so its overdue jobs are found by filter.
    const review = await translateAwsErrors('list overdue reviews', () =>
      this.ctx.doc.send(
        new QueryCommand({
          TableName: this.ctx.tableName,
          IndexName: GSI2,
          KeyConditionExpression: 'GSI2PK = :p',
          FilterExpression: 'dueAt < :before',
          ExpressionAttributeValues: { ':p': keys.reviewJobs, ':before': dueBefore },
        }),
      ),
    );
    return [...(open.Items ?? []), ...(review.Items ?? [])]
      .map((item) => stripKeys<JobRecord>(item))
      .sort((a, b) => a.dueAt.localeCompare(b.dueAt))
      .slice(0, limit);
  }

  async findById(id: string): Promise<JobRecord | undefined> {
    const result = await translateAwsErrors('find job', () =>
      this.ctx.doc.send(
        new QueryCommand({
          TableName: this.ctx.tableName,
          IndexName: GSI3,
          KeyConditionExpression: 'GSI3PK = :p',
          ExpressionAttributeValues: { ':p': keys.jobById(id) },
        }),
      ),
    );
    const item = result.Items?.[0];
    if (!item) return undefined;
    // The index is eventually consistent: read the item itself for the current state.
    return this.get(String(item.clientId), id);
  }

  deleteUnenqueued(clientId: string, id: string): Promise<boolean> {
    return deleteFromOutbox(this.ctx, this.key(clientId, id), 'delete unqueued job');
  }
}
