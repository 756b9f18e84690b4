import { makeReconcilerHandler } from '../../lambdas/handlers/reconciler';
import { aJob } from '../helpers/factories';
import { fakeDeps } from '../helpers/fakes';

describe('reconciler', () => {
  it('requeues what the outbox holds, times out long-overdue jobs, and reports stuck jobs', async () => {
    const deps = fakeDeps();
    const added = jest.spyOn(deps.metrics, 'addMetric');
    const stranded = aJob({ createdAt: '2026-11-22T09:00:00.000Z' });
    const overdue = aJob({ dueAt: '2026-11-20T09:00:00.000Z', state: 'processing' });
    const late = aJob({ dueAt: '2026-11-22T09:30:00.000Z', state: 'in_review' });
    for (const job of [stranded, overdue, late]) await deps.jobs.create(job);
    await deps.jobs.markEnqueued(overdue.clientId, overdue.id);
    await deps.jobs.markEnqueued(late.clientId, late.id);

    const report = await makeReconcilerHandler(deps)();

    expect(report).toEqual({ requeued: 1, failedToRequeue: 0, timedOut: 1, stuck: 1 });
    expect(deps.queue.jobs.map((j) => j.message.jobId)).toEqual([stranded.id]);
    expect(await deps.jobs.get(overdue.clientId, overdue.id)).toMatchObject({
      state: 'failed',
      error: { code: 'timed_out' },
    });
    expect((await deps.jobs.get(late.clientId, late.id))?.state).toBe('in_review');
    expect(added).toHaveBeenCalledWith('StuckJobs', 'Count', 1);
  });

  it('reports StuckJobs 0 on a quiet run, and fails the run when the queue is down', async () => {
    const deps = fakeDeps();
    const added = jest.spyOn(deps.metrics, 'addMetric');
    expect(await makeReconcilerHandler(deps)()).toMatchObject({ requeued: 0, stuck: 0 });
    expect(added).toHaveBeenCalledWith('StuckJobs', 'Count', 0);
    await deps.jobs.create(aJob({ createdAt: '2026-11-22T09:00:00.000Z' }));
    deps.queue.failNext = 1;
    await expect(makeReconcilerHandler(deps)()).rejects.toThrow('could not be enqueued');
  });
});
