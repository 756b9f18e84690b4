import { jobMessageSchema } from '../../core/messages';
import { startJob } from '../../core/use-cases/job-processing';
import { type AppDeps, defaultDeps } from '../../shared/deps';
import { lazy } from '../../shared/http';
import { sqsConsumer } from '../../shared/queue';

/** Consumer of the rush and standard job queues. */
export const makeJobWorkerHandler = (deps: AppDeps) =>
  sqsConsumer(deps, 'job-worker', jobMessageSchema, async (message) => {
    const outcome = await startJob(deps, message.clientId, message.jobId);
    return { job_id: message.jobId, outcome: outcome.kind };
  });

export const handler = lazy(() => makeJobWorkerHandler(defaultDeps()));
