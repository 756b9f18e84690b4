import { randomUUID } from 'node:crypto';
import { DynamoJobRepository } from '../../lambdas/adapters/dynamo-job-repository';
import { ConflictError, NotFoundError, ValidationError } from '../../lambdas/core/errors';
import type { JobRecord } from '../../lambdas/core/model';
import type { JobRepository } from '../../lambdas/core/ports';
import { JOB_STATES } from '../../lambdas/core/schemas/job';
import { JOB_TRANSITIONS, type JobStateEvent, jobMayMove } from '../../lambdas/core/states';
import { aJob } from '../helpers/factories';
import { FakeJobRepository } from '../helpers/fakes';
import { emulatorDeps, freshTable, uniqueClient } from '../helpers/integration';

const AT = '2026-11-22T11:00:00.000Z';
const EVENTS = Object.keys(JOB_TRANSITIONS) as JobStateEvent[];

/** One suite, two implementations: the in-memory fake the unit tests use must behave like DynamoDB. */
describe.each([
  [
    'DynamoJobRepository (dynalite)',
    async () => {
      const table = await freshTable();
      return { jobs: new DynamoJobRepository(table) as JobRepository, drop: table.drop };
    },
  ],
  [
    'FakeJobRepository',
    async () => ({ jobs: new FakeJobRepository() as JobRepository, drop: async () => {} }),
  ],
])('%s', (_name, make) => {
  let jobs: JobRepository;
  let drop: () => Promise<void>;
  let client: string;
  beforeEach(async () => {
    ({ jobs, drop } = await make());
    client = uniqueClient();
  });
  afterEach(async () => {
    await drop();
  });

  /** A job created and confirmed on its queue, then moved by `events`. */
  const queued = async (overrides: Partial<JobRecord>, ...events: JobStateEvent[]): Promise<JobRecord> => {
    let job = aJob({ clientId: client, ...overrides });
    await jobs.create(job);
    await jobs.markEnqueued(job.clientId, job.id);
    for (const event of events) job = await jobs.transition(job.clientId, job.id, { event, at: AT });
    return job;
  };

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

  it('makes every move of JOB_TRANSITIONS and refuses every other, saying what it found', async () => {
    const outcomes = await Promise.all(
      JOB_STATES.flatMap((state) =>
        EVENTS.map(async (event) => {
          const job = aJob({ clientId: client, state });
          await jobs.create(job);
          try {
            const moved = await jobs.transition(client, job.id, { event, at: AT });
            return `${event} ${state}: ${moved.state} v${moved.version}`;
          } catch (error) {
            if (!(error instanceof ConflictError)) throw error;
            expect(error.current).toEqual(job);
            expect(await jobs.get(client, job.id)).toEqual(job);
            return `${event} ${state}: refused`;
          }
        }),
      ),
    );
    const expected = JOB_STATES.flatMap((state) =>
      EVENTS.map((event) =>
        jobMayMove(event, state)
          ? `${event} ${state}: ${JOB_TRANSITIONS[event].to} v2`
          : `${event} ${state}: refused`,
      ),
    );
    expect(outcomes).toEqual(expected);
  });

  it('lets exactly one of many concurrent transitions win', async () => {
    const job = aJob({ clientId: client });
    await jobs.create(job);
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        jobs.transition(client, job.id, {
          event: 'claim',
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

  it('refuses a move pinned to another version, and hands back the job as it is', async () => {
    const job = aJob({ clientId: client, state: 'in_review', version: 3 });
    await jobs.create(job);
    const refused = jobs.transition(client, job.id, { event: 'ops_complete', expectedVersion: 2, at: AT });
    await expect(refused).rejects.toMatchObject({ current: job });
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    expect(await jobs.get(client, job.id)).toEqual(job);
  });

  it('sets fields with a transition and bumps the version and updatedAt', async () => {
    const job = aJob({ clientId: client });
    await jobs.create(job);
    const next = await jobs.transition(client, job.id, {
      event: 'fail',
      set: {
        error: { type: 't', title: 'T', code: 'timed_out', detail: 'late' },
        completedAt: '2026-11-22T12:00:00.000Z',
      },
      at: '2026-11-22T12:00:00.000Z',
    });
    expect(next).toMatchObject({ state: 'failed', version: 2, updatedAt: '2026-11-22T12:00:00.000Z' });
    expect(next.error?.code).toBe('timed_out');
    expect(await jobs.get(client, job.id)).toEqual(next);
  });

  it('reports a transition of a missing job as NotFoundError', async () => {
    await expect(jobs.transition(client, randomUUID(), { event: 'claim', at: AT })).rejects.toBeInstanceOf(
      NotFoundError,
    );
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

    const queuedJob = await queued({});
    expect(await jobs.deleteUnenqueued(client, queuedJob.id)).toBe(false);
    expect(await jobs.get(client, queuedJob.id)).toBeDefined();

    const moved = aJob({ clientId: client });
    await jobs.create(moved);
    await jobs.transition(client, moved.id, { event: 'claim', at: AT });
    expect(await jobs.deleteUnenqueued(client, moved.id)).toBe(false);
  });

  it('lists the review queue rush first, then by due date, page by page', async () => {
    const review = (processingType: 'rush' | 'standard', dueAt: string) =>
      queued({ state: 'processing', processingType, dueAt }, 'send_to_review');
    const late = await review('standard', '2026-11-26T10:00:00.000Z');
    const early = await review('standard', '2026-11-24T10:00:00.000Z');
    const rush = await review('rush', '2026-11-27T10:00:00.000Z');
    await queued({ state: 'processing' }, 'complete');
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await jobs.listForReview(2, cursor);
      seen.push(...page.items.map((j) => j.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([rush.id, early.id, late.id]);
  });

  it('lists the open and reviewed jobs due before a time, oldest first (the time-out sweep)', async () => {
    const open = await queued({ dueAt: '2026-11-20T10:00:00.000Z' });
    const reviewed = await queued(
      { state: 'processing', dueAt: '2026-11-19T10:00:00.000Z' },
      'send_to_review',
    );
    await queued({ dueAt: '2026-11-30T10:00:00.000Z' });
    await queued({ state: 'processing', dueAt: '2026-11-18T10:00:00.000Z' }, 'complete');
    const overdue = await jobs.listOverdue('2026-11-21T00:00:00.000Z', 10);
    expect(overdue.map((j) => j.id)).toEqual([reviewed.id, open.id]);
    expect((await jobs.listOverdue('2026-11-21T00:00:00.000Z', 1)).map((j) => j.id)).toEqual([reviewed.id]);
  });

  it("finds a merchant's latest completed job of a type, by one query (SPEC 5.5 results.changes)", async () => {
    const merchant = (token: string, jobType: JobRecord['jobType'] = 'new_menu') =>
      ({
        jobType,
        jobData: {
          catalog_sources: ['https://m.example/a.csv'],
          merchant_name: 'Joe',
          merchant_token: token,
        },
      }) as Partial<JobRecord>;
    const completedAt = async (overrides: Partial<JobRecord>, at: string, clientId = client) => {
      const job = aJob({ clientId, ...overrides });
      await jobs.create(job);
      await jobs.markEnqueued(job.clientId, job.id);
      await jobs.transition(job.clientId, job.id, { event: 'claim', at });
      return jobs.transition(job.clientId, job.id, { event: 'complete', at });
    };
    const older = await completedAt(merchant('joe'), '2026-11-20T10:00:00.000Z');
    const newer = await completedAt(merchant('joe'), '2026-11-21T10:00:00.000Z');
    await completedAt(merchant('other'), '2026-11-22T10:00:00.000Z');
    await completedAt(merchant('joe', 'new_retail_catalog'), '2026-11-22T10:00:00.000Z');
    await completedAt(merchant('joe'), '2026-11-22T10:00:00.000Z', uniqueClient());
    const reviewing = aJob({ clientId: client, ...merchant('joe') });
    await jobs.create(reviewing);
    await jobs.transition(client, reviewing.id, { event: 'claim', at: '2026-11-23T10:00:00.000Z' });
    expect((await jobs.findPreviousCompleted(client, 'new_menu', 'joe', reviewing.id))?.id).toBe(newer.id);
    expect((await jobs.findPreviousCompleted(client, 'new_menu', 'joe', newer.id))?.id).toBe(older.id);
    expect(await jobs.findPreviousCompleted(client, 'new_menu', 'nobody', reviewing.id)).toBeUndefined();
    expect(await jobs.findPreviousCompleted(uniqueClient(), 'new_menu', 'joe', reviewing.id)).toBeUndefined();
  });

  it('finds a job by its id alone, whatever its client', async () => {
    const job = await queued({ clientId: uniqueClient() });
    expect(await jobs.findById(job.id)).toEqual(job);
    expect(await jobs.findById(randomUUID())).toBeUndefined();
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

  const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

  it.each([
    ['empty keys', { sk: '', gsk: '' }],
    ['an empty index key', { sk: 'JOB#x', gsk: '' }],
    ['a key past DynamoDB’s 1 KB sort-key limit', { sk: `JOB#${'€'.repeat(400)}`, gsk: '2026' }],
    ['a control character', { sk: 'JOB#\u0000', gsk: '2026' }],
  ])('refuses a well-formed cursor holding %s with a 400, not a 500', async (_what, forged) => {
    const jobs = emulatorDeps().jobs;
    await expect(jobs.list(uniqueClient(), { limit: 5, cursor: cursorOf(forged) })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });

  it('refuses a forged review-queue cursor with a 400, not a 500', async () => {
    const jobs = emulatorDeps().jobs;
    await expect(jobs.listForReview(5, cursorOf({ sk: '', pk: '', gsk: '' }))).rejects.toBeInstanceOf(
      ValidationError,
    );
  });
});
