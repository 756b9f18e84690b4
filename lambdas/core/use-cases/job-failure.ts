import { ConflictError } from '../errors';
import type { JobRecord, Problem } from '../model';
import { problem } from '../model';
import type { Clock, ExportRepository, JobRepository, WorkQueue } from '../ports';
import { wakeExportsOfJob } from './export-processing';

/**
 * Failing a job, apart from building one: the reconciler and the operations API fail jobs too, and must not
 * carry the catalog pipeline (its readers, encodings, OCR) into their bundles for it.
 */
export interface JobFailureDeps {
  readonly jobs: JobRepository;
  readonly exports: ExportRepository;
  readonly queue: WorkQueue;
  readonly clock: Clock;
}

/** Moves a job to `failed` with a problem object and wakes its exports (they fail with job_failed). */
export const failJob = async (
  deps: JobFailureDeps,
  job: Pick<JobRecord, 'clientId' | 'id'>,
  error: Problem,
): Promise<JobRecord | undefined> => {
  const at = deps.clock.now().toISOString();
  try {
    const failed = await deps.jobs.transition(job.clientId, job.id, {
      event: 'fail',
      set: { error, completedAt: at, leaseUntil: null },
      at,
    });
    await wakeExportsOfJob(deps, failed);
    return failed;
  } catch (e) {
    if (e instanceof ConflictError) return undefined;
    throw e;
  }
};

/** SPEC 5.2: a job still not terminal this long after its due_at is failed with `timed_out`. */
export const TIMEOUT_GRACE_HOURS = 24;

/** Fails every job past its due date plus the grace period. Run by the reconciler. */
export const failOverdueJobs = async (
  deps: JobFailureDeps,
  options: { limit?: number } = {},
): Promise<number> => {
  const cutoff = new Date(deps.clock.now().getTime() - TIMEOUT_GRACE_HOURS * 3_600_000).toISOString();
  const overdue = await deps.jobs.listOverdue(cutoff, options.limit ?? 100);
  let failed = 0;
  for (const job of overdue) {
    const detail = `The job was due at ${job.dueAt} and was not finished within ${TIMEOUT_GRACE_HOURS} hours after.`;
    if (await failJob(deps, job, problem('timed_out', 'Job timed out', detail))) failed++;
  }
  return failed;
};
