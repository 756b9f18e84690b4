import { createHash } from 'node:crypto';
import { ConflictError, ValidationError } from '../core/errors';
import type { JobRecord } from '../core/model';
import type { JobListQuery, JobRef, JobRepository, Page, Transition } from '../core/ports';
import type { JobState } from '../core/schemas/job';
import { isTerminalJobState, JOB_TRANSITIONS, type JobStateEvent } from '../core/states';
import { translateAwsErrors } from './aws-errors';
import {
  clientOfKey,
  decodeCursor,
  deleteFromOutbox,
  encodeCursor,
  GSI1,
  GSI2,
  GSI3,
  GSI4,
  getItem,
  type IndexUpdate,
  idOfKey,
  keys,
  outboxSortKey,
  queryShards,
  readRecords,
  shardOf,
  stripKeys,
  type TableContext,
  transitionItem,
} from './dynamo-table';

const CURSOR_FIELDS = ['sk', 'gsk'] as const;

const merchantPartition = (clientId: string, jobType: string, token: string): string =>
  keys.merchantJobs(clientId, jobType, createHash('sha256').update(token, 'utf8').digest('base64url'));
/** A filtered listing reads at most this many pages before answering with what it has and a cursor. */
const MAX_PAGES_PER_LIST = 10;

/**
 * Where a job stands in the sweep index (GSI2) for a given state: in the outbox until enqueued, then among
 * the open jobs by due date, in the review queue while `in_review`, and nowhere once terminal.
 */
const sweepIndexFor = (state: JobState, id: string): IndexUpdate => {
  if (isTerminalJobState(state)) return { remove: ['GSI2PK', 'GSI2SK'] };
  if (state === 'in_review') return { set: { GSI2PK: keys.reviewJobs }, copy: { GSI2SK: 'reviewSortKey' } };
  return { set: { GSI2PK: keys.openJobs(shardOf(id)) }, copy: { GSI2SK: 'openSortKey' } };
};

/** An open job's sweep sort key is `<due_at>#<id>`; a job in review's `<0 rush | 1 standard>#<due_at>#<id>`. */
const refOf = (entry: Record<string, unknown>): JobRef => {
  const parts = String(entry.GSI2SK).split('#');
  return { clientId: clientOfKey(entry.PK), id: parts.at(-1)!, dueAt: parts.at(-2)! };
};

const invalidCursor = () =>
  new ValidationError('The cursor is invalid.', [
    { pointer: '/query/cursor', code: 'invalid_value', message: 'use the next_cursor of a previous page' },
  ]);

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
      this.ctx.db.put({
        TableName: this.ctx.tableName,
        Item: {
          ...this.key(job.clientId, job.id),
          GSI1PK: keys.clientJobs(job.clientId),
          GSI1SK: `${job.createdAt}#${job.id}`,
          GSI2PK: keys.outbox(shardOf(job.id)),
          GSI2SK: outboxSortKey(job.createdAt, 'job', job.clientId, job.id),
          GSI3PK: keys.jobById(job.id),
          GSI3SK: keys.client(job.clientId),
          // A merchant's history (GSI4) holds the job once it completes, when that transition adds GSI4SK.
          ...(job.jobData.merchant_token
            ? { GSI4PK: merchantPartition(job.clientId, job.jobType, job.jobData.merchant_token) }
            : {}),
          // Sort keys the job takes in the sweep index later (copied there by transitions).
          openSortKey: `${job.dueAt}#${job.id}`,
          reviewSortKey: `${job.processingType === 'rush' ? 0 : 1}#${job.dueAt}#${job.id}`,
          entity: 'job',
          ...job,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async get(clientId: string, id: string): Promise<JobRecord | undefined> {
    const item = await getItem(this.ctx, this.key(clientId, id), 'read job');
    return item ? stripKeys<JobRecord>(item) : undefined;
  }

  /**
   * A client's jobs, newest first. GSI1 holds each job's keys, state and type, which is what the filters
   * read; the page's jobs are then read whole from the table (so they are also current, not the index's
   * eventually consistent copy, and one whose state has moved off the filter since is left out).
   */
  async list(clientId: string, query: JobListQuery): Promise<Page<JobRecord>> {
    const partition = keys.clientJobs(clientId);
    let startKey: Record<string, unknown> | undefined;
    if (query.cursor) {
      const cursor = decodeCursor(query.cursor, CURSOR_FIELDS);
      if (!cursor) throw invalidCursor();
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
    const entries: Record<string, unknown>[] = [];
    let last: Record<string, unknown> | undefined;
    for (let page = 0; page < MAX_PAGES_PER_LIST; page++) {
      const result = await translateAwsErrors('list jobs', () =>
        this.ctx.db.query({
          TableName: this.ctx.tableName,
          IndexName: GSI1,
          KeyConditionExpression: 'GSI1PK = :p',
          FilterExpression: filters.length > 0 ? filters.join(' AND ') : undefined,
          ExpressionAttributeNames: filters.length > 0 ? names : undefined,
          ExpressionAttributeValues: values,
          ScanIndexForward: false,
          ExclusiveStartKey: startKey,
          // One more than asked, to know whether another page exists.
          Limit: filters.length > 0 ? Math.max(50, query.limit + 1) : query.limit + 1 - entries.length,
        }),
      );
      entries.push(...result.Items);
      last = result.LastEvaluatedKey;
      if (entries.length > query.limit || !last) break;
      startKey = last;
    }
    const pageEntries = entries.slice(0, query.limit);
    const lastEntry = pageEntries.at(-1);
    let nextCursor: string | null = null;
    if (entries.length > query.limit && lastEntry) {
      nextCursor = encodeCursor({ sk: String(lastEntry.SK), gsk: String(lastEntry.GSI1SK) });
    } else if (last) {
      nextCursor = encodeCursor({ sk: String(last.SK), gsk: String(last.GSI1SK) });
    }
    const jobs = (await readRecords(this.ctx, pageEntries, 'list jobs'))
      .map((item) => stripKeys<JobRecord>(item))
      .filter(
        (job) =>
          (!query.state || job.state === query.state) && (!query.jobType || job.jobType === query.jobType),
      );
    return { items: jobs, nextCursor };
  }

  transition(clientId: string, id: string, t: Transition<JobStateEvent, JobRecord>): Promise<JobRecord> {
    const move = JOB_TRANSITIONS[t.event];
    const sweep = sweepIndexFor(move.to, id);
    const index: IndexUpdate =
      move.to === 'completed' ? { ...sweep, set: { ...sweep.set, GSI4SK: `${t.at}#${id}` } } : sweep;
    return transitionItem(this.ctx, this.key(clientId, id), move, t, 'job transition', index);
  }

  /** Moves the job from the outbox to the open jobs, unless a transition has already moved it on. */
  async markEnqueued(clientId: string, id: string): Promise<void> {
    try {
      await translateAwsErrors('mark job enqueued', () =>
        this.ctx.db.update({
          TableName: this.ctx.tableName,
          Key: this.key(clientId, id),
          UpdateExpression: 'SET GSI2PK = :open, GSI2SK = openSortKey',
          ConditionExpression: 'GSI2PK = :outbox',
          ExpressionAttributeValues: {
            ':open': keys.openJobs(shardOf(id)),
            ':outbox': keys.outbox(shardOf(id)),
          },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }

  /** The review queue (one GSI2 partition, rush first, then by due date), read whole from the table. */
  async listForReview(limit: number, cursor?: string): Promise<Page<JobRecord>> {
    let startKey: Record<string, unknown> | undefined;
    if (cursor) {
      const c = decodeCursor(cursor, REVIEW_CURSOR_FIELDS);
      if (!c) throw invalidCursor();
      startKey = { PK: c.pk, SK: c.sk, GSI2PK: keys.reviewJobs, GSI2SK: c.gsk };
    }
    const result = await translateAwsErrors('list review queue', () =>
      this.ctx.db.query({
        TableName: this.ctx.tableName,
        IndexName: GSI2,
        KeyConditionExpression: 'GSI2PK = :p',
        ExpressionAttributeValues: { ':p': keys.reviewJobs },
        ExclusiveStartKey: startKey,
        Limit: limit,
      }),
    );
    const last = result.LastEvaluatedKey;
    const jobs = (await readRecords(this.ctx, result.Items, 'list review queue'))
      .map((item) => stripKeys<JobRecord>(item))
      .filter((job) => job.state === 'in_review');
    return {
      items: jobs,
      nextCursor: last
        ? encodeCursor({ sk: String(last.SK), pk: String(last.PK), gsk: String(last.GSI2SK) })
        : null,
    };
  }

  /**
   * Every shard of the open jobs, and the review queue's rush and standard ranges, below `dueBefore`: the
   * sweep index's sort keys hold the due date and the id, so nothing is read from the table.
   */
  async listOverdue(dueBefore: string, limit: number): Promise<JobRef[]> {
    const open = await queryShards(
      this.ctx,
      keys.openJobs,
      { expression: 'GSI2SK < :before', values: { ':before': dueBefore } },
      limit,
      'list overdue jobs',
    );
    const reviews = await Promise.all(
      ['0', '1'].map((priority) =>
        translateAwsErrors('list overdue reviews', () =>
          this.ctx.db.query({
            TableName: this.ctx.tableName,
            IndexName: GSI2,
            KeyConditionExpression: 'GSI2PK = :p AND GSI2SK BETWEEN :from AND :before',
            ExpressionAttributeValues: {
              ':p': keys.reviewJobs,
              ':from': `${priority}#`,
              ':before': `${priority}#${dueBefore}`,
            },
            Limit: limit,
          }),
        ),
      ),
    );
    return [...open, ...reviews.flatMap((page) => page.Items)]
      .map(refOf)
      .sort((a, b) => a.dueAt.localeCompare(b.dueAt) || a.id.localeCompare(b.id))
      .slice(0, limit);
  }

  /**
   * The merchant's latest completed job of this type other than `exceptId`: one query of its partition in
   * the merchant index (GSI4), newest first, then the job read from the table.
   */
  async findPreviousCompleted(
    clientId: string,
    jobType: JobRecord['jobType'],
    merchantToken: string,
    exceptId: string,
  ): Promise<JobRecord | undefined> {
    const result = await translateAwsErrors('find previous job', () =>
      this.ctx.db.query({
        TableName: this.ctx.tableName,
        IndexName: GSI4,
        KeyConditionExpression: 'GSI4PK = :p',
        ExpressionAttributeValues: { ':p': merchantPartition(clientId, jobType, merchantToken) },
        ScanIndexForward: false,
        Limit: 2,
      }),
    );
    for (const entry of result.Items) {
      const id = idOfKey(entry.SK);
      if (id === exceptId) continue;
      const job = await this.get(clientId, id);
      if (job?.state === 'completed') return job;
    }
    return undefined;
  }

  async findById(id: string): Promise<JobRecord | undefined> {
    const result = await translateAwsErrors('find job', () =>
      this.ctx.db.query({
        TableName: this.ctx.tableName,
        IndexName: GSI3,
        KeyConditionExpression: 'GSI3PK = :p',
        ExpressionAttributeValues: { ':p': keys.jobById(id) },
      }),
    );
    const entry = result.Items[0];
    if (!entry) return undefined;
    // The index holds keys only (and is eventually consistent): the job itself is read from the table.
    return this.get(clientOfKey(entry.PK), id);
  }

  deleteUnenqueued(clientId: string, id: string): Promise<boolean> {
    return deleteFromOutbox(this.ctx, this.key(clientId, id), id, 'delete unqueued job');
  }
}
