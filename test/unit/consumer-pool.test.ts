import path from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { type ConsumerPool, ConsumerThreadDiedError, startConsumerPool } from '../../lib/local/consumer-pool';
import { CONSUMER_SEMI_SPACE_MB } from '../../lib/resources';
import { eventually, sqsRecord } from '../helpers/factories';

const LIMITS_HANDLER = path.join(__dirname, '..', 'fixtures', 'local', 'report-limits-handler.ts');
const HANDLER = path.join(__dirname, '..', 'fixtures', 'local', 'pool-handler.ts');

/** Starts a pool on the reporting handler; resolves with the limits its first thread reports. */
const limitsOf = async (semiSpaceMb: number | undefined) => {
  let reported: Record<string, number> | undefined;
  const pool = startConsumerPool({
    name: 'job-worker',
    module: LIMITS_HANDLER,
    threads: 1,
    batchesPerThread: 1,
    semiSpaceMb,
    log: (line) => {
      if (line.resourceLimits) reported = line.resourceLimits as Record<string, number>;
    },
  });
  try {
    // The handler reports while it loads, before the thread says it is ready.
    await pool.ready;
    return reported;
  } finally {
    await pool.stop();
  }
};

const batch = (...bodies: string[]): SQSEvent => ({ Records: bodies.map((body) => sqsRecord(body)) });
const threadOf = (response: unknown) => (response as { threadId: number }).threadId;

describe('consumer pools (local runtime)', () => {
  let pool: ConsumerPool | undefined;
  afterEach(async () => {
    await pool?.stop();
    pool = undefined;
  });

  it("runs the job worker with its young generation: three semi-spaces of CONSUMER_SEMI_SPACE_MB's size", async () => {
    const semiSpace = CONSUMER_SEMI_SPACE_MB['job-worker'];
    expect(semiSpace).toBeDefined();
    const limits = await limitsOf(semiSpace);
    expect(limits?.maxYoungGenerationSizeMb).toBe(3 * (semiSpace as number));
  }, 30_000);

  it('sizes any thread from the semi-space it is given', async () => {
    expect((await limitsOf(8))?.maxYoungGenerationSizeMb).toBe(24);
  }, 30_000);

  it('runs a batch beside one that holds its thread’s CPU: one batch a thread, a new thread for it', async () => {
    const running = startConsumerPool({ name: 'test', module: HANDLER, threads: 2, batchesPerThread: 1 });
    pool = running;
    await running.ready;
    // Both threads loaded (a second one is started for the second of two batches at once).
    await Promise.all([running.invoke(batch('spin:50'), 30_000), running.invoke(batch('spin:50'), 30_000)]);
    expect(running.size()).toBe(2);
    let heavyDone = false;
    const heavy = running.invoke(batch('spin:4000'), 30_000).then((r) => {
      heavyDone = true;
      return r;
    });
    const light = await running.invoke(batch('hello'), 30_000);
    // Answered while the heavy batch still holds the other thread.
    expect(heavyDone).toBe(false);
    expect(threadOf(light)).not.toBe(threadOf(await heavy));
  }, 30_000);

  it('fails every batch a dying thread held at once, and runs the next batch in a new thread', async () => {
    const lines: Record<string, unknown>[] = [];
    const running = startConsumerPool({
      name: 'test',
      module: HANDLER,
      threads: 2,
      batchesPerThread: 3,
      log: (line) => lines.push(line),
    });
    pool = running;
    await running.ready;
    const first = await running.invoke(batch('hello'), 30_000);
    // Two batches are in the thread when a third one's library throws outside any promise.
    const held = [running.invoke(batch('wait:20000'), 30_000), running.invoke(batch('wait:20000'), 30_000)];
    const crashing = running.invoke(batch('crash'), 30_000);
    const outcomes = await Promise.allSettled([...held, crashing]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const o of outcomes)
      expect((o as PromiseRejectedResult).reason).toBeInstanceOf(ConsumerThreadDiedError);
    expect(lines.some((l) => /thread exited .* holding 3 batches/.test(String(l.message)))).toBe(true);
    const after = await running.invoke(batch('hello'), 30_000);
    expect(threadOf(after)).not.toBe(threadOf(first));
  }, 30_000);

  it('keeps one loaded thread spare while others work', async () => {
    const running = startConsumerPool({ name: 'test', module: HANDLER, threads: 4, batchesPerThread: 1 });
    pool = running;
    await running.ready;
    const first = running.invoke(batch('wait:500'), 30_000);
    // The only thread took the batch: a spare is started at once, before another batch asks for one.
    expect(running.size()).toBe(2);
    await first;
  }, 30_000);

  it('ends threads idle for a while, keeping one', async () => {
    const running = startConsumerPool({
      name: 'test',
      module: HANDLER,
      threads: 3,
      batchesPerThread: 1,
      idleMs: 200,
    });
    pool = running;
    await running.ready;
    const three = [1, 2, 3].map(() => running.invoke(batch('spin:300'), 30_000));
    expect(running.size()).toBe(3);
    await Promise.all(three);
    await eventually(async () => (running.size() === 1 ? true : undefined), { what: 'idle threads to end' });
  }, 30_000);
});
