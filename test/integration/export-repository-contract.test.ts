import { randomUUID } from 'node:crypto';
import { DynamoExportRepository } from '../../lambdas/adapters/dynamo-export-repository';
import { DynamoJobRepository } from '../../lambdas/adapters/dynamo-job-repository';
import { DynamoOutboxReader } from '../../lambdas/adapters/dynamo-outbox-reader';
import { ConflictError, NotFoundError } from '../../lambdas/core/errors';
import type { CallbackStatus, ExportRecord } from '../../lambdas/core/model';
import type { ExportRepository, JobRepository, OutboxReader } from '../../lambdas/core/ports';
import { EXPORT_STATES } from '../../lambdas/core/schemas/export';
import { EXPORT_TRANSITIONS, type ExportStateEvent } from '../../lambdas/core/states';
import { aJob } from '../helpers/factories';
import { FakeExportRepository, FakeJobRepository, FakeOutboxReader } from '../helpers/fakes';
import { freshTable, uniqueClient } from '../helpers/integration';

const AT = '2026-11-22T11:00:00.000Z';
const EVENTS = Object.keys(EXPORT_TRANSITIONS) as ExportStateEvent[];

const anExport = (overrides: Partial<ExportRecord> = {}): ExportRecord => ({
  id: randomUUID(),
  clientId: 'client-a',
  jobId: randomUUID(),
  jobType: 'new_menu',
  state: 'initiated',
  version: 1,
  callbackUrl: 'https://hooks.example.test/x',
  clientMappings: {},
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '2026-11-22T10:00:00.000Z',
  completedAt: null,
  objectKey: null,
  file: null,
  callback: null,
  error: null,
  ...overrides,
});

interface Harness {
  readonly jobs: JobRepository;
  readonly exports: ExportRepository;
  readonly outbox: OutboxReader;
  drop(): Promise<void>;
}

/** One suite, two implementations: exports and the outbox, in DynamoDB and in memory. */
describe.each([
  [
    'DynamoExportRepository and DynamoOutboxReader (dynalite)',
    async (): Promise<Harness> => {
      const table = await freshTable();
      return {
        jobs: new DynamoJobRepository(table),
        exports: new DynamoExportRepository(table),
        outbox: new DynamoOutboxReader(table),
        drop: table.drop,
      };
    },
  ],
  [
    'FakeExportRepository and FakeOutboxReader',
    async (): Promise<Harness> => {
      const jobs = new FakeJobRepository();
      const exports = new FakeExportRepository();
      return { jobs, exports, outbox: new FakeOutboxReader(jobs, exports), drop: async () => {} };
    },
  ],
])('%s', (_name, make) => {
  let h: Harness;
  let client: string;
  beforeEach(async () => {
    h = await make();
    client = uniqueClient();
  });
  afterEach(async () => {
    await h.drop();
  });

  it('stores an export once, reads it within its client only, and lists the exports of a job', async () => {
    const exp = anExport({ clientId: client });
    const sibling = anExport({ clientId: client, jobId: exp.jobId });
    await h.exports.create(exp);
    await h.exports.create(sibling);
    await h.exports.create(anExport({ clientId: client }));
    await expect(h.exports.create(exp)).rejects.toBeInstanceOf(ConflictError);
    expect(await h.exports.get(client, exp.id)).toEqual(exp);
    expect(await h.exports.get(uniqueClient(), exp.id)).toBeUndefined();
    const listed = await h.exports.listForJob(client, exp.jobId);
    expect(listed.map((e) => e.id).sort()).toEqual([exp.id, sibling.id].sort());
    expect(await h.exports.findById(exp.id)).toEqual(exp);
    expect(await h.exports.findById(randomUUID())).toBeUndefined();
  });

  it('makes every move of EXPORT_TRANSITIONS and refuses every other, saying what it found', async () => {
    const outcomes = await Promise.all(
      EXPORT_STATES.flatMap((state) =>
        EVENTS.map(async (event) => {
          const exp = anExport({ clientId: client, state });
          await h.exports.create(exp);
          try {
            const moved = await h.exports.transition(client, exp.id, { event, at: AT });
            return `${event} ${state}: ${moved.state} v${moved.version}`;
          } catch (error) {
            if (!(error instanceof ConflictError)) throw error;
            expect(error.current).toEqual(exp);
            return `${event} ${state}: refused`;
          }
        }),
      ),
    );
    expect(outcomes).toEqual(
      EXPORT_STATES.flatMap((state) =>
        EVENTS.map((event) =>
          (EXPORT_TRANSITIONS[event].from as readonly string[]).includes(state)
            ? `${event} ${state}: ${EXPORT_TRANSITIONS[event].to} v2`
            : `${event} ${state}: refused`,
        ),
      ),
    );
    await expect(
      h.exports.transition(client, randomUUID(), { event: 'start', at: AT }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('records a callback attempt only from the expected status, leaving state and version alone', async () => {
    const exp = anExport({ clientId: client, state: 'completed', version: 3 });
    await h.exports.create(exp);
    const first: CallbackStatus = { state: 'pending', attempts: 1, last_status: 500, last_attempt_at: AT };
    // A null callback counts as pending with no attempts.
    const after = await h.exports.updateCallback(client, exp.id, {
      expected: { state: 'pending', attempts: 0 },
      next: first,
    });
    expect(after).toEqual({ ...exp, callback: first });
    const stale = h.exports.updateCallback(client, exp.id, {
      expected: { state: 'pending', attempts: 0 },
      next: { ...first, attempts: 2 },
    });
    await expect(stale).rejects.toBeInstanceOf(ConflictError);
    await expect(stale).rejects.toMatchObject({ current: { ...exp, callback: first } });
    await expect(
      h.exports.updateCallback(client, randomUUID(), {
        expected: { state: 'pending', attempts: 0 },
        next: first,
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await h.exports.get(client, exp.id)).toEqual({ ...exp, callback: first });
  });

  it('removes an unqueued export only while it is untouched', async () => {
    const fresh = anExport({ clientId: client });
    await h.exports.create(fresh);
    expect(await h.exports.deleteUnenqueued(client, fresh.id)).toBe(true);
    expect(await h.exports.get(client, fresh.id)).toBeUndefined();
    const moved = anExport({ clientId: client });
    await h.exports.create(moved);
    await h.exports.transition(client, moved.id, { event: 'start', at: AT });
    expect(await h.exports.deleteUnenqueued(client, moved.id)).toBe(false);
    const queued = anExport({ clientId: client });
    await h.exports.create(queued);
    await h.exports.markEnqueued(client, queued.id);
    expect(await h.exports.deleteUnenqueued(client, queued.id)).toBe(false);
  });

  it('keeps in the outbox, oldest first, what was written but not confirmed on its queue', async () => {
    const at = (second: number) => `2026-11-22T10:00:0${second}.000Z`;
    const job = aJob({ clientId: client, createdAt: at(1) });
    const exp = anExport({ clientId: client, createdAt: at(2) });
    const confirmed = aJob({ clientId: client, createdAt: at(0) });
    const claimed = aJob({ clientId: client, createdAt: at(0) });
    const young = anExport({ clientId: client, createdAt: at(8) });
    for (const j of [job, confirmed, claimed]) await h.jobs.create(j);
    for (const e of [exp, young]) await h.exports.create(e);
    await h.jobs.markEnqueued(client, confirmed.id);
    // A worker that took the job had it from its queue: it is no longer waiting to be enqueued.
    await h.jobs.transition(client, claimed.id, { event: 'claim', at: AT });

    expect(await h.outbox.pending(at(5), 10)).toEqual([
      { kind: 'job', clientId: client, id: job.id, createdAt: job.createdAt },
      { kind: 'export', clientId: client, id: exp.id, createdAt: exp.createdAt },
    ]);
    expect((await h.outbox.pending(at(5), 1)).map((e) => e.id)).toEqual([job.id]);
    await h.exports.markEnqueued(client, exp.id);
    expect((await h.outbox.pending(at(9), 10)).map((e) => e.id)).toEqual([job.id, young.id]);
  });
});
