import { randomUUID } from 'node:crypto';
import type { JobRecord } from '../../lambdas/core/model';
import { OutboundNetworkError, OutboundTooLargeError } from '../../lambdas/core/outbound';
import type { OutboundRequest, OutboundResponse } from '../../lambdas/core/ports';
import { LIMITS } from '../../lambdas/core/schemas/job';
import { processJob } from '../../lambdas/core/use-cases/job-processing';
import { aJob } from '../helpers/factories';
import { type FakeDeps, fakeDeps } from '../helpers/fakes';

/**
 * SPEC 5.2 and 9: a source over 100 MB fails with `source_too_large`, and no source is ever cut short
 * silently, whichever way its read ends early. The 100 MB stream itself is read in the integration test
 * (test/integration/source-limits.test.ts); here the ways a read can end are scripted.
 */

const MENU = 'category,name,price\nPizza,Margherita,12.50\nDrinks,Cola,2.50\n';

type Answer = (request: OutboundRequest) => Promise<OutboundResponse>;

const ok = (url: string, chunks: () => AsyncGenerator<Uint8Array>): OutboundResponse => ({
  status: 200,
  headers: { 'content-type': 'text/csv' },
  url,
  body: chunks(),
});

const depsAnswering = (answers: Record<string, Answer>): FakeDeps => {
  const deps = fakeDeps();
  Object.assign(deps, {
    http: {
      request: (request: OutboundRequest) => {
        const answer = answers[request.url];
        if (!answer) throw new Error(`unexpected fetch of ${request.url}`);
        return answer(request);
      },
    },
  });
  return deps;
};

const jobWith = async (deps: FakeDeps, sources: string[]): Promise<JobRecord> => {
  const job = aJob({
    jobData: { catalog_sources: sources, merchant_name: 'Joe', language: 'en_us' } as JobRecord['jobData'],
  });
  await deps.jobs.create(job);
  return job;
};

const run = (deps: FakeDeps, job: JobRecord, attempt = 1) =>
  processJob(deps, job.clientId, job.id, { attempt, maxAttempts: 5, leaseSeconds: 900 });

const good: Answer = async (request) =>
  ok(request.url, async function* () {
    yield Buffer.from(MENU);
  });

/** Rows, read by the catalog as they arrive, then the stream fails with `error` (a reset, the size limit). */
const failingAfterRows =
  (error: Error): Answer =>
  async (request) =>
    ok(request.url, async function* () {
      yield Buffer.from(MENU);
      for (let i = 0; i < 50; i++) {
        yield Buffer.from(`Pizza,Pizza ${i},13.00\n`.repeat(100));
        await new Promise((resolve) => setImmediate(resolve));
      }
      throw error;
    });

describe('a source over the size limit', () => {
  it('refused before its body (Content-Length): the job fails with source_too_large', async () => {
    const deps = depsAnswering({
      'https://m.example.com/huge.csv': async () => {
        throw new OutboundTooLargeError(
          'https://m.example.com/huge.csv: 200000000 bytes, more than the limit',
        );
      },
    });
    const job = await jobWith(deps, ['https://m.example.com/huge.csv']);
    const outcome = await run(deps, job);
    expect(outcome.kind).toBe('failed');
    expect(outcome.kind !== 'skipped' && outcome.job.error).toMatchObject({
      code: 'source_too_large',
      detail: expect.stringContaining('larger than 100 MB'),
    });
  });

  it('refused before its body while another source has items: completed, with a warning that says so', async () => {
    const deps = depsAnswering({
      'https://m.example.com/huge.csv': async () => {
        throw new OutboundTooLargeError('too large');
      },
      'https://m.example.com/menu.csv': good,
    });
    const job = await jobWith(deps, ['https://m.example.com/huge.csv', 'https://m.example.com/menu.csv']);
    const outcome = await run(deps, job);
    expect(outcome.kind).toBe('completed');
    const results = outcome.kind === 'completed' ? (outcome.job.results as Record<string, unknown>) : {};
    expect(results.warnings).toEqual([
      expect.objectContaining({
        source: 'https://m.example.com/huge.csv',
        message: expect.stringContaining('larger than 100 MB'),
      }),
    ]);
    expect(results.catalog).toMatchObject({ item_count: 2 });
  });

  it('found too large after rows were read (no Content-Length): the job fails, no partial catalog', async () => {
    const deps = depsAnswering({
      'https://m.example.com/menu.csv': good,
      'https://m.example.com/stream.csv': failingAfterRows(new OutboundTooLargeError('past the limit')),
    });
    const job = await jobWith(deps, ['https://m.example.com/menu.csv', 'https://m.example.com/stream.csv']);
    const outcome = await run(deps, job);
    expect(outcome.kind).toBe('failed');
    expect(outcome.kind !== 'skipped' && outcome.job.error).toMatchObject({
      code: 'source_too_large',
      detail: expect.stringContaining('part of it had already been read'),
    });
    expect(deps.catalogs.objects.size).toBe(0);
  });

  it('counts the bytes itself, whatever the client enforced', async () => {
    const chunk = Buffer.alloc(8 * 1024 * 1024, 0x20);
    const deps = depsAnswering({
      'https://m.example.com/catalog.json': async (request) => ({
        ...ok(request.url, async function* () {
          yield Buffer.from('[');
          for (let sent = 0; sent <= LIMITS.sourceFileBytes; sent += chunk.length) yield chunk;
          yield Buffer.from(']');
        }),
        headers: { 'content-type': 'application/json' },
      }),
    });
    const job = await jobWith(deps, ['https://m.example.com/catalog.json']);
    const outcome = await run(deps, job);
    expect(outcome.kind !== 'skipped' && outcome.job.error).toMatchObject({ code: 'source_too_large' });
  });

  it('an uploaded file replaced by a larger one after the job was created fails without being read', async () => {
    const deps = depsAnswering({});
    const fileId = randomUUID();
    await deps.files.create({
      id: fileId,
      clientId: 'client-a',
      state: 'uploaded',
      filename: 'menu.csv',
      contentType: 'text/csv',
      objectKey: `uploads/client-a/${fileId}`,
      sizeBytes: 10,
      createdAt: '2026-11-22T10:00:00.000Z',
      updatedAt: '2026-11-22T10:00:00.000Z',
      uploadExpiresAt: '2026-11-22T10:15:00.000Z',
    });
    deps.uploads.objects.set(`uploads/client-a/${fileId}`, Buffer.from(MENU));
    deps.uploads.size = async () => LIMITS.sourceFileBytes + 1;
    deps.uploads.read = async () => {
      throw new Error('a source over the limit must not be read');
    };
    const job = await jobWith(deps, [fileId]);
    const outcome = await run(deps, job);
    expect(outcome.kind !== 'skipped' && outcome.job.error).toMatchObject({ code: 'source_too_large' });
  });
});

describe('a source whose read fails part way', () => {
  it('is retried as a whole, never completed from the rows read before the failure', async () => {
    const deps = depsAnswering({
      'https://m.example.com/menu.csv': failingAfterRows(
        new OutboundNetworkError('ECONNRESET: socket hang up'),
      ),
    });
    const job = await jobWith(deps, ['https://m.example.com/menu.csv']);
    await expect(run(deps, job, 1)).rejects.toBeInstanceOf(OutboundNetworkError);
    expect((await deps.jobs.get(job.clientId, job.id))?.state).toBe('processing');
    expect(deps.catalogs.objects.size).toBe(0);
  });

  it('on the last delivery fails the job as unreadable rather than keep part of it', async () => {
    const deps = depsAnswering({
      'https://m.example.com/menu.csv': failingAfterRows(
        new OutboundNetworkError('ECONNRESET: socket hang up'),
      ),
    });
    const job = await jobWith(deps, ['https://m.example.com/menu.csv']);
    const outcome = await run(deps, job, 5);
    expect(outcome.kind !== 'skipped' && outcome.job.error).toMatchObject({
      code: 'source_unreadable',
      detail: expect.stringContaining('ECONNRESET'),
    });
  });
});
