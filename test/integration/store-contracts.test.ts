import { randomUUID } from 'node:crypto';
import { DynamoCredentialRepository } from '../../lambdas/adapters/dynamo-credential-repository';
import { DynamoFileRepository } from '../../lambdas/adapters/dynamo-file-repository';
import { DynamoIdempotencyStore } from '../../lambdas/adapters/dynamo-idempotency-store';
import { ConflictError, NotFoundError } from '../../lambdas/core/errors';
import type { FileRecord } from '../../lambdas/core/model';
import type {
  ApiKeyRecord,
  ClientRecord,
  CredentialRepository,
  FileRepository,
  IdempotencyRecord,
  IdempotencyStore,
} from '../../lambdas/core/ports';
import { FakeCredentialRepository, FakeFileRepository, FakeIdempotencyStore } from '../helpers/fakes';
import { freshTable, uniqueClient } from '../helpers/integration';

/** One suite per port, each run against its DynamoDB adapter and its in-memory fake. */
const implementations = <P>(dynamo: (table: Awaited<ReturnType<typeof freshTable>>) => P, fake: () => P) =>
  [
    [
      'DynamoDB (dynalite)',
      async () => {
        const table = await freshTable();
        return { port: dynamo(table), drop: table.drop };
      },
    ],
    ['in memory', async () => ({ port: fake(), drop: async () => {} })],
  ] as const;

const useHarness = <P>(make: () => Promise<{ port: P; drop: () => Promise<void> }>) => {
  const state = {} as { port: P; drop: () => Promise<void> };
  beforeEach(async () => Object.assign(state, await make()));
  afterEach(async () => {
    await state.drop();
  });
  return state;
};

describe.each(
  implementations<FileRepository>(
    (table) => new DynamoFileRepository(table),
    () => new FakeFileRepository(),
  ),
)('FileRepository: %s', (_name, make) => {
  const h = useHarness(make);
  const aFile = (clientId: string): FileRecord => ({
    id: randomUUID(),
    clientId,
    state: 'pending',
    filename: 'menu.csv',
    contentType: 'text/csv',
    objectKey: `uploads/${clientId}/x`,
    sizeBytes: null,
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:00.000Z',
    uploadExpiresAt: '2026-11-22T10:15:00.000Z',
  });

  it('stores a file once and reads it within its client only', async () => {
    const file = aFile(uniqueClient());
    await h.port.create(file);
    await expect(h.port.create(file)).rejects.toBeInstanceOf(ConflictError);
    expect(await h.port.get(file.clientId, file.id)).toEqual(file);
    expect(await h.port.get(uniqueClient(), file.id)).toBeUndefined();
  });

  it('marks a pending file uploaded once; a second mark returns the first', async () => {
    const file = aFile(uniqueClient());
    await h.port.create(file);
    const marked = await h.port.markUploaded(file.clientId, file.id, 42, '2026-11-22T10:01:00.000Z');
    expect(marked).toEqual({
      ...file,
      state: 'uploaded',
      sizeBytes: 42,
      updatedAt: '2026-11-22T10:01:00.000Z',
    });
    expect(await h.port.markUploaded(file.clientId, file.id, 7, '2026-11-22T10:02:00.000Z')).toEqual(marked);
    await expect(h.port.markUploaded(file.clientId, randomUUID(), 1, 'x')).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe.each(
  implementations<CredentialRepository>(
    (table) => new DynamoCredentialRepository(table),
    () => new FakeCredentialRepository(),
  ),
)('CredentialRepository: %s', (_name, make) => {
  const h = useHarness(make);
  const aKey = (clientId: string, createdAt: string): ApiKeyRecord => {
    const digest = randomUUID().replaceAll('-', '');
    return {
      digest,
      keyId: `key_${digest.slice(0, 16)}`,
      clientId,
      scope: 'client',
      createdAt,
      revokedAt: null,
      usageKey: 'usage_x',
    };
  };
  const aClient = (clientId: string): ClientRecord => ({
    clientId,
    createdAt: '2026-11-22T10:00:00.000Z',
    usageKey: 'usage_x',
    webhookSecrets: [{ secret: 'whsec_AAAA', createdAt: '2026-11-22T10:00:00.000Z', expiresAt: null }],
  });

  it('finds keys by digest and lists them by client, oldest first', async () => {
    const [a, b] = [uniqueClient(), uniqueClient()].sort();
    const second = aKey(a!, '2026-11-22T10:00:02.000Z');
    const first = aKey(a!, '2026-11-22T10:00:01.000Z');
    const other = aKey(b!, '2026-11-22T10:00:00.000Z');
    for (const key of [second, first, other]) await h.port.putKey(key);
    expect(await h.port.findKey(first.digest)).toEqual(first);
    expect(await h.port.findKey('0'.repeat(32))).toBeUndefined();
    expect(await h.port.listKeys(a)).toEqual([first, second]);
    expect(await h.port.listKeys()).toEqual([first, second, other]);
  });

  it('revokes a key once: revoking again keeps the first time', async () => {
    const key = aKey(uniqueClient(), '2026-11-22T10:00:00.000Z');
    await h.port.putKey(key);
    const revoked = await h.port.revokeKey(key.digest, '2026-11-22T11:00:00.000Z');
    expect(revoked).toEqual({ ...key, revokedAt: '2026-11-22T11:00:00.000Z' });
    expect(await h.port.revokeKey(key.digest, '2026-11-22T12:00:00.000Z')).toEqual(revoked);
    await expect(h.port.revokeKey('f'.repeat(32), 'x')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('creates a client once and replaces its webhook secrets', async () => {
    const client = aClient(uniqueClient());
    expect(await h.port.ensureClient(client)).toEqual(client);
    expect(await h.port.ensureClient({ ...client, usageKey: 'usage_other' })).toEqual(client);
    const secrets = [{ secret: 'whsec_BBBB', createdAt: '2026-11-23T10:00:00.000Z', expiresAt: null }];
    await h.port.setWebhookSecrets(client.clientId, secrets);
    expect(await h.port.getClient(client.clientId)).toEqual({ ...client, webhookSecrets: secrets });
    await expect(h.port.setWebhookSecrets(uniqueClient(), secrets)).rejects.toBeInstanceOf(NotFoundError);
    expect(await h.port.getClient(uniqueClient())).toBeUndefined();
  });
});

describe.each(
  implementations<IdempotencyStore>(
    (table) => new DynamoIdempotencyStore(table),
    () => new FakeIdempotencyStore(),
  ),
)('IdempotencyStore: %s', (_name, make) => {
  const h = useHarness(make);
  const NOW = 1_800_000_000;
  const aRecord = (clientId: string, overrides: Partial<IdempotencyRecord> = {}): IdempotencyRecord => ({
    clientId,
    key: 'key-1',
    fingerprint: 'f1',
    state: 'in_progress',
    response: null,
    resourceId: 'b1946ac9-2a5f-4d3e-9c1e-0f6f1a2b3c4d',
    expiresAt: NOW + 86_400,
    lockExpiresAt: NOW + 60,
    ...overrides,
  });
  const response = { statusCode: 201, headers: { location: '/v1/jobs/x' }, body: '{"id":"x"}' };

  it('claims a key once per client, then replays what the first request completed', async () => {
    const record = aRecord(uniqueClient());
    expect(await h.port.claim(record, NOW)).toBeUndefined();
    expect(await h.port.claim({ ...record, fingerprint: 'f2' }, NOW)).toEqual(record);
    expect(await h.port.claim(aRecord(uniqueClient()), NOW)).toBeUndefined();
    await h.port.complete(record.clientId, record.key, response);
    expect(await h.port.claim(record, NOW + 1)).toEqual({ ...record, state: 'completed', response });
  });

  it('lets a key be claimed again once released or expired', async () => {
    const released = aRecord(uniqueClient());
    await h.port.claim(released, NOW);
    await h.port.release(released.clientId, released.key);
    expect(await h.port.claim(released, NOW)).toBeUndefined();

    const expired = aRecord(uniqueClient());
    await h.port.claim(expired, NOW);
    await h.port.complete(expired.clientId, expired.key, response);
    expect(await h.port.claim({ ...expired, fingerprint: 'f3' }, expired.expiresAt + 1)).toBeUndefined();
  });

  it('never overwrites a record abandoned in flight: it is taken over once, keeping its resource id', async () => {
    const abandoned = aRecord(uniqueClient());
    await h.port.claim(abandoned, NOW);
    const later = abandoned.lockExpiresAt + 1;
    const retry = {
      ...abandoned,
      resourceId: 'c0ffee00-0000-4000-8000-000000000000',
      lockExpiresAt: later + 60,
    };
    const found = await h.port.claim(retry, later);
    expect(found).toEqual(abandoned);
    // Two retries race for it: one takes it over, the other sees it taken.
    const outcomes = await Promise.all([
      h.port.takeOver(found!, later + 60),
      h.port.takeOver(found!, later + 61),
    ]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const now = await h.port.claim(retry, later);
    expect(now?.resourceId).toBe(abandoned.resourceId);
    expect([later + 60, later + 61]).toContain(now?.lockExpiresAt);
    // A completed or released record is not taken over.
    await h.port.complete(abandoned.clientId, abandoned.key, response);
    expect(await h.port.takeOver(now!, later + 120)).toBe(false);
    await h.port.release(abandoned.clientId, abandoned.key);
    expect(await h.port.takeOver(now!, later + 120)).toBe(false);
  });
});
