import {
  BatchGetCommand,
  DeleteCommand,
  type DeleteCommandInput,
  type DynamoDBDocumentClient,
  GetCommand,
  type GetCommandInput,
  PutCommand,
  type PutCommandInput,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';

type Item = Record<string, unknown>;

/**
 * The DynamoDB operations the repositories use, with plain JavaScript values in and out: the inputs of
 * @aws-sdk/lib-dynamodb's commands, sent through one DynamoDBDocumentClient (marshalling, SigV4, retries
 * with backoff on throttling and 5xx, and error classes are the SDK's).
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

/** Rounds of BatchGetItem for the keys DynamoDB left unprocessed (it does so when throttled). */
const MAX_BATCH_ROUNDS = 8;

/** DocumentTable over the SDK's document client. */
export class DynamoDocumentTable implements DocumentTable {
  constructor(private readonly doc: DynamoDBDocumentClient) {}

  async get(input: GetCommandInput) {
    const { Item } = await this.doc.send(new GetCommand(input));
    return { Item };
  }

  async put(input: PutCommandInput) {
    const { Attributes } = await this.doc.send(new PutCommand(input));
    return { Attributes };
  }

  async update(input: UpdateCommandInput) {
    const { Attributes } = await this.doc.send(new UpdateCommand(input));
    return { Attributes };
  }

  async delete(input: DeleteCommandInput) {
    const { Attributes } = await this.doc.send(new DeleteCommand(input));
    return { Attributes };
  }

  async query(input: QueryCommandInput) {
    const { Items = [], LastEvaluatedKey } = await this.doc.send(new QueryCommand(input));
    return { Items, LastEvaluatedKey };
  }

  /**
   * BatchGetItem answers what it could read and leaves the rest in `UnprocessedKeys` rather than failing
   * (the SDK's retries do not cover that): those are asked for again with a growing pause, and a batch still
   * unread after MAX_BATCH_ROUNDS fails as throttling does (a DependencyUnavailableError once translated).
   */
  async batchGet(tableName: string, keys: readonly Item[], consistent = false): Promise<Item[]> {
    if (keys.length > 100) throw new RangeError('BatchGetItem takes at most 100 keys');
    const items: Item[] = [];
    let pending: Item[] = [...keys];
    for (let round = 0; pending.length > 0; round++) {
      if (round === MAX_BATCH_ROUNDS) {
        throw Object.assign(new Error(`BatchGetItem left ${pending.length} keys unprocessed`), {
          name: 'ProvisionedThroughputExceededException',
        });
      }
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** round));
      const out = await this.doc.send(
        new BatchGetCommand({
          RequestItems: { [tableName]: { Keys: pending, ConsistentRead: consistent } },
        }),
      );
      items.push(...(out.Responses?.[tableName] ?? []));
      pending = out.UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
    return items;
  }
}
