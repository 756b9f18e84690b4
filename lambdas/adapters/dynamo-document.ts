import type {
  BatchGetCommandInput,
  DeleteCommandInput,
  GetCommandInput,
  PutCommandInput,
  QueryCommandInput,
  UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { AwsJsonApi } from './aws-http';
import { shieldConstructorKeys } from './dynamo-marshalling';

type Item = Record<string, unknown>;
type Wire = Record<string, unknown>;

/**
 * The DynamoDB operations the repositories use, with plain JavaScript values in and out (the inputs are
 * those of @aws-sdk/lib-dynamodb's commands, so the calls read as they did with the document client).
 */
export interface DocumentTable {
  get(input: GetCommandInput): Promise<{ Item?: Item }>;
  put(input: PutCommandInput): Promise<{ Attributes?: Item }>;
  update(input: UpdateCommandInput): Promise<{ Attributes?: Item }>;
  delete(input: DeleteCommandInput): Promise<{ Attributes?: Item }>;
  query(input: QueryCommandInput): Promise<{ Items: Item[]; LastEvaluatedKey?: Item }>;
  /** Up to 100 keys of one table; keys DynamoDB leaves unprocessed are asked for again. */
  batchGet(tableName: string, keys: readonly Item[], consistent?: boolean): Promise<Item[]>;
}

const MARSHALL = { removeUndefinedValues: true, convertClassInstanceToMap: false } as const;
/**
 * util-dynamodb tells a value's type by `value.constructor.name`: a client's object with its own
 * `constructor` key is handed to it as a Map (dynamo-marshalling.ts), which it marshals entry by entry.
 */
const toWire = (value: Item | undefined): Wire | undefined =>
  value ? marshall(shieldConstructorKeys(value) as Item, MARSHALL) : undefined;
const fromWire = (value: unknown): Item | undefined =>
  value ? unmarshall(value as Parameters<typeof unmarshall>[0]) : undefined;

/** Input with its item, key and values in DynamoDB's attribute-value format. */
const wireInput = (input: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...input };
  for (const field of ['Key', 'Item', 'ExpressionAttributeValues', 'ExclusiveStartKey'] as const) {
    if (input[field] !== undefined) out[field] = toWire(input[field] as Item);
  }
  return out;
};

const MAX_BATCH_ROUNDS = 8;

/** DocumentTable over DynamoDB's JSON API (`DynamoDB_20120810`), through the lean signed client. */
export class DynamoDocumentTable implements DocumentTable {
  constructor(private readonly api: AwsJsonApi) {}

  async get(input: GetCommandInput) {
    const out = await this.api.call<{ Item?: Wire }>('GetItem', wireInput(input));
    return { Item: fromWire(out.Item) };
  }

  async put(input: PutCommandInput) {
    const out = await this.api.call<{ Attributes?: Wire }>('PutItem', wireInput(input));
    return { Attributes: fromWire(out.Attributes) };
  }

  async update(input: UpdateCommandInput) {
    const out = await this.api.call<{ Attributes?: Wire }>('UpdateItem', wireInput(input));
    return { Attributes: fromWire(out.Attributes) };
  }

  async delete(input: DeleteCommandInput) {
    const out = await this.api.call<{ Attributes?: Wire }>('DeleteItem', wireInput(input));
    return { Attributes: fromWire(out.Attributes) };
  }

  async query(input: QueryCommandInput) {
    const out = await this.api.call<{ Items?: Wire[]; LastEvaluatedKey?: Wire }>('Query', wireInput(input));
    return {
      Items: (out.Items ?? []).map((item) => fromWire(item)!),
      LastEvaluatedKey: fromWire(out.LastEvaluatedKey),
    };
  }

  async batchGet(tableName: string, keys: readonly Item[], consistent = false): Promise<Item[]> {
    if (keys.length > 100) throw new RangeError('BatchGetItem takes at most 100 keys');
    const items: Item[] = [];
    let pending: Wire[] = keys.map((key) => toWire(key)!);
    for (let round = 0; pending.length > 0; round++) {
      if (round === MAX_BATCH_ROUNDS) {
        throw Object.assign(new Error(`BatchGetItem left ${pending.length} keys unprocessed`), {
          name: 'ProvisionedThroughputExceededException',
        });
      }
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** round));
      const input: BatchGetCommandInput | Record<string, unknown> = {
        RequestItems: { [tableName]: { Keys: pending, ConsistentRead: consistent } },
      };
      const out = await this.api.call<{
        Responses?: Record<string, Wire[]>;
        UnprocessedKeys?: Record<string, { Keys?: Wire[] }>;
      }>('BatchGetItem', input);
      items.push(...(out.Responses?.[tableName] ?? []).map((item) => fromWire(item)!));
      pending = out.UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
    return items;
  }
}
