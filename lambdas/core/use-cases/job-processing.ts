import { ConflictError } from '../errors';
import type { JobRecord } from '../model';
import type { Clock, JobRepository } from '../ports';

export interface JobProcessingDeps {
  readonly jobs: JobRepository;
  readonly clock: Clock;
}

export type StartOutcome =
  | { readonly kind: 'started'; readonly job: JobRecord }
  | { readonly kind: 'skipped'; readonly reason: 'not_found' | 'not_initiated' };

/**
 * Moves a job from `initiated` to `processing`. A duplicate or late message finds the job already moved
 * and is skipped: the conditional write lets exactly one worker start a job.
 */
export const startJob = async (
  deps: JobProcessingDeps,
  clientId: string,
  jobId: string,
): Promise<StartOutcome> => {
  const job = await deps.jobs.get(clientId, jobId);
  if (!job) return { kind: 'skipped', reason: 'not_found' };
  if (job.state !== 'initiated') return { kind: 'skipped', reason: 'not_initiated' };
  try {
    const started = await deps.jobs.transition(clientId, jobId, {
      from: ['initiated'],
      to: 'processing',
      expectedVersion: job.version,
      at: deps.clock.now().toISOString(),
    });
    return { kind: 'started', job: started };
  } catch (error) {
    if (error instanceof ConflictError) return { kind: 'skipped', reason: 'not_initiated' };
    throw error;
  }
};
