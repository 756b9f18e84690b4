import type { SQSClient } from '@aws-sdk/client-sqs';
import { atMostEvery, startPoller } from '../../lib/local/sqs-poller';

/**
 * The local runtime's poller while its queues stay empty: it polls less and less often, up to its longest
 * wait, and polls at once again when nudged (an API request or a finished batch may have queued work).
 */
describe('local SQS poller, idle', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** An SQS client whose queues are empty, counting the polls. */
  const emptyQueues = () => {
    const polls: number[] = [];
    const sqs = {
      send: async (command: { constructor: { name: string } }) => {
        if (command.constructor.name === 'ReceiveMessageCommand') polls.push(Date.now());
        return {};
      },
    } as unknown as SQSClient;
    return { sqs, polls };
  };

  const poller = (sqs: SQSClient, maxIdleWaitMs?: number) =>
    startPoller({
      sqs,
      name: 'idle-test',
      queues: [{ url: 'http://127.0.0.1:1/queue/q', batchSize: 10 }],
      retryVisibilitySeconds: 1,
      idleWaitMs: 100,
      ...(maxIdleWaitMs === undefined ? {} : { maxIdleWaitMs }),
      handler: async () => ({ batchItemFailures: [] }),
    });

  const gaps = (times: readonly number[]) => times.slice(1).map((t, i) => t - times[i]!);

  it('waits twice as long after each empty poll, up to its longest wait', async () => {
    const { sqs, polls } = emptyQueues();
    const p = poller(sqs, 800);
    await jest.advanceTimersByTimeAsync(4_000);
    expect(gaps(polls).slice(0, 6)).toEqual([100, 200, 400, 800, 800, 800]);
    const stopping = p.stop();
    await jest.advanceTimersByTimeAsync(1_000);
    await stopping;
  });

  it('polls at once when nudged, and then waits the shortest wait again', async () => {
    const { sqs, polls } = emptyQueues();
    const p = poller(sqs, 800);
    await jest.advanceTimersByTimeAsync(1_600);
    const before = polls.length;
    p.nudge();
    await jest.advanceTimersByTimeAsync(0);
    expect(polls.length).toBe(before + 1);
    const nudgedAt = polls.at(-1)!;
    await jest.advanceTimersByTimeAsync(100);
    expect(polls.at(-1)! - nudgedAt).toBe(100);
    const stopping = p.stop();
    await jest.advanceTimersByTimeAsync(1_000);
    await stopping;
  });

  it('keeps its one wait when no longest wait is given', async () => {
    const { sqs, polls } = emptyQueues();
    const p = poller(sqs);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(new Set(gaps(polls))).toEqual(new Set([100]));
    const stopping = p.stop();
    await jest.advanceTimersByTimeAsync(1_000);
    await stopping;
  });

  it('nudges after batches at most once per interval, the calls in between in one nudge at its end', async () => {
    const runs: number[] = [];
    const start = Date.now();
    const nudge = atMostEvery(200, () => runs.push(Date.now() - start));
    nudge();
    await jest.advanceTimersByTimeAsync(50);
    nudge();
    await jest.advanceTimersByTimeAsync(50);
    nudge();
    expect(runs).toEqual([0]);
    await jest.advanceTimersByTimeAsync(100);
    expect(runs).toEqual([0, 200]);
    await jest.advanceTimersByTimeAsync(500);
    nudge();
    expect(runs).toEqual([0, 200, 700]);
    nudge();
    nudge.cancel();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(runs).toEqual([0, 200, 700]);
  });
});
