import { createHash, randomUUID } from 'node:crypto';
import { SqsWorkQueue } from '../../lambdas/adapters/sqs-work-queue';
import { NotFoundError } from '../../lambdas/core/errors';
import type { CallbackMessage } from '../../lambdas/core/messages';
import type { CallbackDeadLetter, ObjectStore, WorkQueue } from '../../lambdas/core/ports';
import { loadConfig } from '../../lambdas/shared/config';
import { sqsClient } from '../../lambdas/shared/queue-wiring';
import { objectStore } from '../../lambdas/shared/storage-wiring';
import { tracedObjectStore } from '../../lambdas/shared/traced-store';
import { FakeClock, FakeObjectStore, FakeWorkQueue } from '../helpers/fakes';
import { freshQueues, uniqueClient } from '../helpers/integration';

type Destination = 'jobsRush' | 'jobsStandard' | 'exports' | 'callbacks' | 'callbackDeadLetters';

interface QueueHarness {
  readonly queue: WorkQueue;
  /** The messages a consumer of `destination` can receive now (delayed ones are not yet there). */
  visible(destination: Destination): Promise<unknown[]>;
  drop(): Promise<void>;
}

describe.each([
  [
    'SqsWorkQueue (fauxqs)',
    async (): Promise<QueueHarness> => {
      const queues = await freshQueues();
      const urls: Record<Destination, string> = {
        ...queues.queueUrls,
        callbackDeadLetters: queues.deadLetterQueueUrls.callbacks,
      };
      return {
        queue: new SqsWorkQueue(sqsClient(loadConfig(process.env)), urls),
        visible: (destination) => queues.take(urls[destination]),
        drop: queues.drop,
      };
    },
  ],
  [
    'FakeWorkQueue',
    async (): Promise<QueueHarness> => {
      const queue = new FakeWorkQueue();
      const now: Record<Destination, () => unknown[]> = {
        jobsRush: () => queue.jobs.filter((j) => j.processingType === 'rush').map((j) => j.message),
        jobsStandard: () => queue.jobs.filter((j) => j.processingType === 'standard').map((j) => j.message),
        exports: () => queue.exports.filter((_, i) => !queue.exportDelays[i]),
        callbacks: () => queue.callbacks.filter((c) => c.delaySeconds === 0).map((c) => c.message),
        callbackDeadLetters: () => queue.deadLetters,
      };
      return { queue, visible: async (destination) => now[destination](), drop: async () => {} };
    },
  ],
])('WorkQueue: %s', (_name, make) => {
  let h: QueueHarness;
  beforeEach(async () => {
    h = await make();
  });
  afterEach(async () => {
    await h.drop();
  });

  it('sends rush and standard jobs to queues of their own', async () => {
    const rush = { kind: 'job' as const, clientId: uniqueClient(), jobId: randomUUID() };
    const standard = { kind: 'job' as const, clientId: uniqueClient(), jobId: randomUUID() };
    await h.queue.sendJob(rush, 'rush');
    await h.queue.sendJob(standard, 'standard');
    expect(await h.visible('jobsRush')).toEqual([rush]);
    expect(await h.visible('jobsStandard')).toEqual([standard]);
  });

  it('delivers an export or callback message at once, or after its delay', async () => {
    const clientId = uniqueClient();
    const now = { kind: 'export' as const, clientId, exportId: randomUUID() };
    await h.queue.sendExport(now);
    await h.queue.sendExport({ ...now, exportId: randomUUID() }, 900);
    const callback: CallbackMessage = {
      kind: 'callback',
      clientId,
      exportId: now.exportId,
      eventId: `msg_${now.exportId}`,
      attempt: 1,
    };
    await h.queue.sendCallback(callback, 0);
    await h.queue.sendCallback({ ...callback, attempt: 2 }, 300);
    expect(await h.visible('exports')).toEqual([now]);
    expect(await h.visible('callbacks')).toEqual([callback]);
  });

  it('keeps a finally failed callback in the dead letters, with its event', async () => {
    const letter: CallbackDeadLetter = {
      clientId: uniqueClient(),
      exportId: randomUUID(),
      eventId: 'msg_x',
      reason: 'gone',
      attempts: 1,
      lastStatus: 410,
      failedAt: '2026-11-22T10:00:00.000Z',
      event: null,
    };
    await h.queue.sendCallbackDeadLetter(letter);
    expect(await h.visible('callbackDeadLetters')).toEqual([expect.objectContaining(letter)]);
  });
});

describe.each([
  [
    'S3ObjectStore (fauxqs)',
    (clock: FakeClock): ObjectStore => objectStore(loadConfig(process.env), 'uploads', clock),
  ],
  [
    'S3StreamingStore (fauxqs)',
    (clock: FakeClock): ObjectStore => tracedObjectStore(loadConfig(process.env), 'uploads', clock),
  ],
  ['FakeObjectStore', (clock: FakeClock): ObjectStore => new FakeObjectStore(clock)],
])('ObjectStore: %s', (_name, make) => {
  const clock = new FakeClock();
  const store = make(clock);
  const key = () => `uploads/${uniqueClient()}/${randomUUID()}`;
  const readAll = async (k: string) => {
    const chunks: Buffer[] = [];
    for await (const chunk of await store.read(k)) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  };

  it('writes a stream of chunks and reads the same bytes back, with their size and SHA-256', async () => {
    const k = key();
    const parts = ['category,name\n', Buffer.from('Pizza,Margherita\n'), 'Ñandú,Crème\n'];
    const bytes = Buffer.concat(parts.map((p) => Buffer.from(p)));
    const written = await store.write(
      k,
      (async function* () {
        yield* parts;
      })(),
      'text/csv',
    );
    expect(written).toEqual({
      sizeBytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    expect(await store.size(k)).toBe(bytes.length);
    expect(await readAll(k)).toEqual(bytes);
    await store.write(
      k,
      (async function* () {
        yield 'replaced';
      })(),
      'text/plain',
    );
    expect((await readAll(k)).toString()).toBe('replaced');
  });

  it('knows no size and no bytes for a key never written', async () => {
    const k = key();
    expect(await store.size(k)).toBeUndefined();
    await expect(store.read(k)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('signs an upload form for the key and a download of it, valid for the time asked', async () => {
    const k = key();
    const expiresAt = new Date(clock.now().getTime() + 900_000).toISOString();
    const upload = await store.presignUpload(k, 'text/csv', 900, 1000);
    const download = await store.presignDownload(k, 900);
    expect(upload).toMatchObject({ expiresAt, maxBytes: 1000 });
    expect(upload.fields).toMatchObject({ key: k, 'Content-Type': 'text/csv' });
    expect(download.expiresAt).toBe(expiresAt);
    expect(download.url).toContain(k);
  });
});
