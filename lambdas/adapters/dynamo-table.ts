import { TABLE } from '../../lib/resources';
import { ConflictError, NotFoundError } from '../core/errors';
import type { Transition } from '../core/ports';
import type { Move } from '../core/states';
import { translateAwsErrors } from './aws-errors';
import type { DocumentTable } from './dynamo-document';

/** The single table's key layout. Every tenant-owned record lives in its client's partition. */
export const keys = {
  client: (clientId: string) => `CLIENT#${clientId}`,
  job: (id: string) => `JOB#${id}`,
  export: (id: string) => `EXPORT#${id}`,
  file: (id: string) => `FILE#${id}`,
  profile: 'PROFILE',
  idempotency: (keyHash: string) => `IDEMPOTENCY#${keyHash}`,
  apiKey: (digest: string) => `APIKEY#${digest}`,
  clientJobs: (clientId: string) => `CLIENT#${clientId}#JOBS`,
  jobExports: (clientId: string, jobId: string) => `CLIENT#${clientId}#JOB#${jobId}#EXPORTS`,
  allKeys: 'APIKEYS',
  /** Records written whose enqueue is not confirmed, in one of TABLE.sweepShards partitions. */
  outbox: (shard: number) => `OUTBOX#${shard}`,
  /** Jobs queued or processing, by due date: the time-out sweep reads every shard. */
  openJobs: (shard: number) => `OPEN_JOBS#${shard}`,
  /** Jobs waiting for the operations team, rush first, then by due date. */
  reviewJobs: 'REVIEW_JOBS',
  jobById: (id: string) => `JOB#${id}`,
  /** One merchant's jobs of one type: the token is hashed (it is the client's text, up to 255 characters). */
  merchantJobs: (clientId: string, jobType: string, merchantTokenDigest: string) =>
    `CLIENT#${clientId}#MERCHANT#${jobType}#${merchantTokenDigest}`,
  exportById: (id: string) => `EXPORT#${id}`,
} as const;

/** The sweep partition of a record: a hash of its id, so that one partition never takes every write. */
export const shardOf = (id: string): number => {
  let hash = 2166136261;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 16777619) >>> 0;
  return hash % TABLE.sweepShards;
};

export const SHARDS: readonly number[] = Array.from({ length: TABLE.sweepShards }, (_, i) => i);

/** `CLIENT#<id>` -> `<id>`: indexes projecting only keys give the client of a record through its PK. */
export const clientOfKey = (pk: unknown): string => String(pk).slice('CLIENT#'.length);

/** `JOB#<id>` or `EXPORT#<id>` -> `<id>`. */
export const idOfKey = (sk: unknown): string => String(sk).slice(String(sk).indexOf('#') + 1);

export const GSI1 = TABLE.indexes[0]!.name;
export const GSI2 = TABLE.indexes[1]!.name;
export const GSI3 = TABLE.indexes[2]!.name;
export const GSI4 = TABLE.indexes[3]!.name;

export interface TableContext {
  readonly db: DocumentTable;
  readonly tableName: string;
}

const KEY_ATTRIBUTES = [
  'PK',
  'SK',
  'GSI1PK',
  'GSI1SK',
  'GSI2PK',
  'GSI2SK',
  'GSI3PK',
  'GSI3SK',
  'GSI4PK',
  'GSI4SK',
  'entity',
  'openSortKey',
  'reviewSortKey',
] as const;

/** Index attributes a transition moves along with the state (the adapter's business, not the domain's). */
export interface IndexUpdate {
  /** `attribute = :value` assignments. */
  readonly set?: Readonly<Record<string, string>>;
  /** `attribute = otherAttribute` copies, evaluated by DynamoDB. */
  readonly copy?: Readonly<Record<string, string>>;
  readonly remove?: readonly string[];
}

/** Strips the table's key attributes from an item, leaving the record. */
export const stripKeys = <T>(item: Record<string, unknown>): T => {
  const record = { ...item };
  for (const attribute of KEY_ATTRIBUTES) delete record[attribute];
  return record as T;
};

/**
 * The item a conditional write that lost found in the table. DynamoDB returns it with the failure when the
 * write asked for `ALL_OLD` (translateAwsErrors puts it on the error), so a lost race costs no second read.
 * None came back means there is no such item, or that the store is the local emulator, dynalite, which does
 * not implement the option (architect/dynalite#182): only then is the item read, to tell the two apart.
 */
export const itemOfConflict = async (
  ctx: TableContext,
  key: { PK: string; SK: string },
  error: ConflictError,
  what: string,
): Promise<Record<string, unknown> | undefined> =>
  (error.current as Record<string, unknown> | undefined) ?? (await getItem(ctx, key, what));

/**
 * Makes the move of a transitions table (lambdas/core/states.ts) as one conditional UpdateItem: the write
 * happens only if the record is still in one of the move's `from` states (and at `expectedVersion` when
 * given), and bumps `version`. A duplicate or stale message therefore cannot move a record backwards or apply
 * twice. A refused move is a ConflictError carrying the record as found, a missing record a NotFoundError.
 */
export const transitionItem = async <E extends string, S extends string, R>(
  ctx: TableContext,
  key: { PK: string; SK: string },
  move: Move<S>,
  t: Transition<E, R>,
  what: string,
  index: IndexUpdate = {},
): Promise<R> => {
  const names: Record<string, string> = {
    '#state': 'state',
    '#version': 'version',
    '#updatedAt': 'updatedAt',
  };
  const values: Record<string, unknown> = { ':to': move.to, ':one': 1, ':at': t.at };
  const sets = ['#state = :to', '#version = #version + :one', '#updatedAt = :at'];
  Object.entries(t.set ?? {}).forEach(([field, value], i) => {
    if (value === undefined) return;
    names[`#f${i}`] = field;
    values[`:f${i}`] = value;
    sets.push(`#f${i} = :f${i}`);
  });
  Object.entries(index.set ?? {}).forEach(([attribute, value], i) => {
    values[`:i${i}`] = value;
    sets.push(`${attribute} = :i${i}`);
  });
  for (const [attribute, source] of Object.entries(index.copy ?? {})) sets.push(`${attribute} = ${source}`);
  const removes = index.remove && index.remove.length > 0 ? ` REMOVE ${index.remove.join(', ')}` : '';
  const from = move.from.map((state, i) => {
    values[`:from${i}`] = state;
    return `:from${i}`;
  });
  let condition = `attribute_exists(PK) AND #state IN (${from.join(', ')})`;
  if (t.expectedVersion !== undefined) {
    values[':expected'] = t.expectedVersion;
    condition += ' AND #version = :expected';
  }
  try {
    const result = await translateAwsErrors(what, () =>
      ctx.db.update({
        TableName: ctx.tableName,
        Key: key,
        UpdateExpression: `SET ${sets.join(', ')}${removes}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return stripKeys<R>(result.Attributes ?? {});
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const current = await itemOfConflict(ctx, key, error, what);
    if (!current) throw new NotFoundError(`${what}: no such record`, { cause: error });
    const found = `${String(current.state)} at version ${String(current.version)}`;
    throw new ConflictError(`${what}: ${t.event} was refused, the record is ${found}`, {
      cause: error.cause,
      current: stripKeys<R>(current),
    });
  }
};

export const getItem = async (
  ctx: TableContext,
  key: { PK: string; SK: string },
  what: string,
): Promise<Record<string, unknown> | undefined> => {
  const result = await translateAwsErrors(what, () =>
    ctx.db.get({ TableName: ctx.tableName, Key: key, ConsistentRead: true }),
  );
  return result.Item;
};

/** Clears the outbox mark of a record that has reached its queue. */
export const clearOutbox = async (
  ctx: TableContext,
  key: { PK: string; SK: string },
  what: string,
): Promise<void> => {
  try {
    await translateAwsErrors(what, () =>
      ctx.db.update({
        TableName: ctx.tableName,
        Key: key,
        UpdateExpression: 'REMOVE GSI2PK, GSI2SK',
        ConditionExpression: 'attribute_exists(PK)',
      }),
    );
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
  }
};

/**
 * Deletes a record that never reached its queue, if it is still untouched (in the outbox, at version 1).
 * Returns false when it was not: it has moved on, and the reconciler or a worker owns it now.
 */
export const deleteFromOutbox = async (
  ctx: TableContext,
  key: { PK: string; SK: string },
  id: string,
  what: string,
): Promise<boolean> => {
  try {
    await translateAwsErrors(what, () =>
      ctx.db.delete({
        TableName: ctx.tableName,
        Key: key,
        ConditionExpression: 'GSI2PK = :outbox AND #version = :one',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':one': 1, ':outbox': keys.outbox(shardOf(id)) },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConflictError) return false;
    throw error;
  }
};

/** The outbox entry's sort key: creation time first, so the reconciler reads the oldest first. */
export const outboxSortKey = (
  createdAt: string,
  kind: 'job' | 'export',
  clientId: string,
  id: string,
): string => `${createdAt}#${kind}#${clientId}#${id}`;

/** Opaque pagination cursors: base64url of the last item's sort keys. */
export const encodeCursor = (value: Record<string, string>): string =>
  Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

const CURSOR_KEY = /^[\x21-\x7e]{1,512}$/;

export const decodeCursor = (
  cursor: string,
  fields: readonly string[],
): Record<string, string> | undefined => {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (!value || typeof value !== 'object') return undefined;
    const record = value as Record<string, unknown>;
    // Every key the service writes is printable ASCII. Anything else (an empty string, which DynamoDB refuses
    // as a key attribute, or a value past its 1 KB sort-key limit) is a forged cursor: a 400, never a 500.
    if (!fields.every((f) => typeof record[f] === 'string' && CURSOR_KEY.test(record[f] as string)))
      return undefined;
    if (Object.keys(record).length !== fields.length) return undefined;
    return record as Record<string, string>;
  } catch {
    return undefined;
  }
};

/**
 * The records behind index entries, read whole from the table (the indexes project only keys and what
 * their queries filter on), in the order of `entries`; entries whose record is gone are left out.
 */
export const readRecords = async (
  ctx: TableContext,
  entries: readonly Record<string, unknown>[],
  what: string,
): Promise<Record<string, unknown>[]> => {
  const found = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < entries.length; i += 100) {
    const keysOf = entries.slice(i, i + 100).map((e) => ({ PK: e.PK, SK: e.SK }));
    const items = await translateAwsErrors(what, () => ctx.db.batchGet(ctx.tableName, keysOf, true));
    for (const item of items) found.set(`${String(item.PK)}\n${String(item.SK)}`, item);
  }
  return entries.flatMap((e): Record<string, unknown>[] => {
    const item = found.get(`${String(e.PK)}\n${String(e.SK)}`);
    return item ? [item] : [];
  });
};

/** Runs one query per sweep shard and returns every item, in no particular order. */
export const queryShards = async (
  ctx: TableContext,
  partition: (shard: number) => string,
  condition: { expression: string; values?: Record<string, unknown> },
  limit: number,
  what: string,
): Promise<Record<string, unknown>[]> => {
  const pages = await Promise.all(
    SHARDS.map((shard) =>
      translateAwsErrors(what, () =>
        ctx.db.query({
          TableName: ctx.tableName,
          IndexName: GSI2,
          KeyConditionExpression: `GSI2PK = :p AND ${condition.expression}`,
          ExpressionAttributeValues: { ':p': partition(shard), ...condition.values },
          Limit: limit,
        }),
      ),
    ),
  );
  return pages.flatMap((page) => page.Items as Record<string, unknown>[]);
};
