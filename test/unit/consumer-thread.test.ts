import path from 'node:path';
import { type ConsumerThread, startConsumerThread } from '../../lib/local/consumer-thread';
import { CONSUMER_SEMI_SPACE_MB } from '../../lib/resources';

const HANDLER = path.join(__dirname, '..', 'fixtures', 'local', 'report-limits-handler.ts');

/** Starts a consumer thread on the reporting handler; resolves with the limits the thread reports. */
const limitsOf = async (semiSpaceMb: number | undefined) => {
  let reported: Record<string, number> | undefined;
  const thread: ConsumerThread = startConsumerThread({
    name: 'job-worker',
    module: HANDLER,
    // No queue: the poller never calls SQS.
    queues: [],
    sqsEndpoint: 'http://127.0.0.1:9',
    retryVisibilitySeconds: 1,
    semiSpaceMb,
    log: (line) => {
      if (line.resourceLimits) reported = line.resourceLimits as Record<string, number>;
    },
  });
  try {
    // The handler reports while it loads, before the thread says it is ready.
    await thread.ready;
    return reported;
  } finally {
    await thread.stop();
  }
};

describe('consumer threads (local runtime)', () => {
  it("runs the job worker with its young generation: three semi-spaces of CONSUMER_SEMI_SPACE_MB's size", async () => {
    const semiSpace = CONSUMER_SEMI_SPACE_MB['job-worker'];
    expect(semiSpace).toBeDefined();
    const limits = await limitsOf(semiSpace);
    expect(limits?.maxYoungGenerationSizeMb).toBe(3 * (semiSpace as number));
  }, 30_000);

  it('sizes any thread from the semi-space it is given', async () => {
    expect((await limitsOf(8))?.maxYoungGenerationSizeMb).toBe(24);
  }, 30_000);
});
