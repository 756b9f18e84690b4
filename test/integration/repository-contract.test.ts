import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError } from '../../lambdas/core/errors';
import type { JobRepository } from '../../lambdas/core/ports';
import { aJob } from '../helpers/factories';
import { FakeJobRepository } from '../helpers/fakes';
import { emulatorDeps, uniqueClient } from '../helpers/integration';

/** One suite, two implementations: the in-memory fake the unit tests use must behave like DynamoDB. */
describe.each([
  ['DynamoJobRepository (dynalite)', () => emulatorDeps().jobs],
  ['FakeJobRepository', () => new FakeJobRepository() as JobRepository],
])('%s', (_name, make) => {
  let jobs: JobRepository;
  let client: string;
  beforeEach(() => {
    jobs = make();
    client = uniqueClient();
  });

  it('stores and reads a job within its client only', async () => {
    const job = aJob({ clientId: client, metadata: { a: 'b' } });
    await jobs.create(job);
    expect(await jobs.get(client, job.id)).toEqual(job);
    expect(await jobs.get(uniqueClient(), job.id)).toBeUndefined();
  });

  it('refuses to create the same job twice', async () => {
    const job = aJob({ clientId: client });
    await jobs.create(job);
    await expect(jobs.create(job)).rejects.toBeInstanceOf(ConflictError);
  });

  it('lets exactly one of many concurrent transitions win', async () => {
    const job = aJob({ clientId: client });
    await jobs.create(job);
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        jobs.transition(client, job.id, {
          from: ['initiated'],
          to: 'processing',
          expectedVersion: 1,
          at: `2026-11-22T10:00:0${i}.000Z`,
        }),
      ),
    );
    const won = attempts.filter((a) => a.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const lost of attempts.filter((a) => a.status === 'rejected')) {
      expect((lost as PromiseRejectedResult).reason).toBeInstanceOf(ConflictError);
    }
    expect(await jobs.get(client, job.id)).toMatchObject({ state: 'processing', version: 2 });
  });

  it('never moves a job backwards or from the wrong state', async () => {
    const job = aJob({ clientId: client, state: 'completed', version: 3 });
    await jobs.create(job);
    await expect(
      jobs.transition(client, job.id, {
        from: ['initiated'],
        to: 'processing',
        at: '2026-11-22T11:00:00.000Z',
      }),
    ).rejects.toBeInstanceOf(ConflictError);
    await expect(
      jobs.transition(client, job.id, { from: ['completed'], to: 'failed', expectedVersion: 2, at: 'x' }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(await jobs.get(client, job.id)).toEqual(job);
  });

  it('sets fields with a transition and bumps the version and updatedAt', async () => {
    const job = aJob({ clientId: client });
    await jobs.create(job);
    const next = await jobs.transition(client, job.id, {
      from: ['initiated'],
      to: 'failed',
      set: {
        error: { type: 't', title: 'T', code: 'timed_out', detail: 'late' },
        completedAt: '2026-11-22T12:00:00.000Z',
      },
      at: '2026-11-22T12:00:00.000Z',
    });
    expect(next).toMatchObject({ state: 'failed', version: 2, updatedAt: '2026-11-22T12:00:00.000Z' });
    expect(next.error?.code).toBe('timed_out');
  });

  it('reports a transition of a missing job as NotFoundError', async () => {
    await expect(
      jobs.transition(client, randomUUID(), { from: ['initiated'], to: 'processing', at: 'x' }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lists newest first with a cursor that walks every job exactly once', async () => {
    const created = [];
    for (let i = 0; i < 7; i++) {
      const job = aJob({
        clientId: client,
        createdAt: `2026-11-22T10:00:0${i}.000Z`,
        state: i % 3 === 0 ? 'completed' : 'initiated',
      });
      await jobs.create(job);
      created.push(job);
    }
    await jobs.create(aJob({ clientId: uniqueClient() }));
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await jobs.list(client, { limit: 3, cursor });
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((j) => j.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...created].reverse().map((j) => j.id));

    const completed = await jobs.list(client, { limit: 2, state: 'completed' });
    expect(completed.items.map((j) => j.createdAt)).toEqual([
      '2026-11-22T10:00:06.000Z',
      '2026-11-22T10:00:03.000Z',
    ]);
    expect(completed.nextCursor).not.toBeNull();
    const rest = await jobs.list(client, { limit: 2, state: 'completed', cursor: completed.nextCursor! });
    expect(rest.items.map((j) => j.createdAt)).toEqual(['2026-11-22T10:00:00.000Z']);
    expect(rest.nextCursor).toBeNull();
  });

  it('removes an unqueued job only while it is untouched', async () => {
    const fresh = aJob({ clientId: client });
    await jobs.create(fresh);
    expect(await jobs.deleteUnenqueued(client, fresh.id)).toBe(true);
    expect(await jobs.get(client, fresh.id)).toBeUndefined();

    const queued = aJob({ clientId: client });
    await jobs.create(queued);
    await jobs.markEnqueued(client, queued.id);
    expect(await jobs.deleteUnenqueued(client, queued.id)).toBe(false);
    expect(await jobs.get(client, queued.id)).toBeDefined();
  });
});

describe('DynamoJobRepository cursors', () => {
  it('refuses a forged cursor with a 400, and cannot reach another client', async () => {
    const jobs = emulatorDeps().jobs;
    await expect(jobs.list(uniqueClient(), { limit: 5, cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(
      ValidationError,
    );
    const victim = uniqueClient();
    for (let i = 0; i < 3; i++)
      await jobs.create(aJob({ clientId: victim, createdAt: `2026-11-22T10:00:0${i}.000Z` }));
    const page = await jobs.list(victim, { limit: 1 });
    const attacker = uniqueClient();
    const stolen = await jobs.list(attacker, { limit: 10, cursor: page.nextCursor! });
    expect(stolen.items).toEqual([]);
  });
});
