import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  CreateTableCommand,
  DynamoDBClient,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { closeDynaliteIterators } from '../../lib/local/dynalite-iterators';
import { eventually } from '../helpers/factories';

/**
 * Issue 25, finding 5: dynalite never closed the LevelDB iterators of its Queries and Scans, and each one
 * pinned LevelDB's memory for the life of the process (the local service grew ~20 MB a minute under load).
 * Every iterator dynalite opens must be closed once its request is answered.
 */

/** Counts the iterators dynalite's in-memory store opens and closes (the same abstract-level as dynalite's). */
const watchIterators = () => {
  const fromProject = createRequire(path.join(process.cwd(), 'package.json'));
  const fromDynalite = createRequire(fromProject.resolve('dynalite/package.json'));
  const fromMemory = createRequire(fromDynalite.resolve('memory-level/package.json'));
  const { AbstractLevel, AbstractIterator } = fromMemory('abstract-level') as {
    AbstractLevel: { prototype: Record<string, (...args: unknown[]) => unknown> };
    AbstractIterator: { prototype: object };
  };
  const common = Object.getPrototypeOf(AbstractIterator.prototype) as Record<
    string,
    (...a: unknown[]) => unknown
  >;
  const open = new Set<object>();
  let opened = 0;
  const restore: (() => void)[] = [];
  for (const method of ['iterator', 'keys', 'values']) {
    const original = AbstractLevel.prototype[method]!;
    AbstractLevel.prototype[method] = function (this: unknown, ...args: unknown[]) {
      const iterator = original.apply(this, args) as object;
      open.add(iterator);
      opened++;
      return iterator;
    };
    restore.push(() => {
      AbstractLevel.prototype[method] = original;
    });
  }
  const close = common.close!;
  common.close = function (this: object, ...args: unknown[]) {
    open.delete(this);
    return close.apply(this, args);
  };
  restore.push(() => {
    common.close = close;
  });
  return {
    open: () => open.size,
    opened: () => opened,
    restore: () => {
      for (const undo of restore) undo();
    },
  };
};

describe('dynalite, as the local runtime runs it', () => {
  let server: Server;
  let client: DynamoDBClient;
  let watch: ReturnType<typeof watchIterators>;

  beforeAll(async () => {
    closeDynaliteIterators();
    watch = watchIterators();
    server = dynalite({ createTableMs: 0 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    client = new DynamoDBClient({
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
  });

  afterAll(async () => {
    watch?.restore();
    client?.destroy();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  it('closes every iterator of its Queries and Scans, those cut short by a Limit too', async () => {
    await client.send(
      new CreateTableCommand({
        TableName: 'iterators',
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'PK', KeyType: 'HASH' },
          { AttributeName: 'SK', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: [
          { AttributeName: 'PK', AttributeType: 'S' },
          { AttributeName: 'SK', AttributeType: 'S' },
          { AttributeName: 'G', AttributeType: 'S' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: 'byG',
            KeySchema: [
              { AttributeName: 'G', KeyType: 'HASH' },
              { AttributeName: 'SK', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'KEYS_ONLY' },
          },
        ],
      }),
    );
    for (let i = 0; i < 12; i++) {
      await client.send(
        new PutItemCommand({
          TableName: 'iterators',
          Item: { PK: { S: 'p' }, SK: { S: `s${String(i).padStart(2, '0')}` }, G: { S: 'g' } },
        }),
      );
    }
    const query = (indexName?: string, limit?: number) =>
      client.send(
        new QueryCommand({
          TableName: 'iterators',
          ...(indexName ? { IndexName: indexName } : {}),
          KeyConditionExpression: indexName ? 'G = :v' : 'PK = :v',
          ExpressionAttributeValues: { ':v': { S: indexName ? 'g' : 'p' } },
          ...(limit ? { Limit: limit } : {}),
        }),
      );
    const before = watch.opened();
    for (let i = 0; i < 10; i++) {
      expect((await query(undefined, 3)).Items).toHaveLength(3);
      expect((await query('byG', 2)).Items).toHaveLength(2);
      expect((await query()).Items).toHaveLength(12);
    }
    expect((await client.send(new ScanCommand({ TableName: 'iterators', Limit: 5 }))).Items).toHaveLength(5);
    expect(watch.opened() - before).toBeGreaterThanOrEqual(31);
    await eventually(async () => (watch.open() === 0 ? true : undefined), {
      timeoutMs: 3_000,
      what: 'every iterator to be closed',
    });
  });
});
