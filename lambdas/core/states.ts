import type { ExportState } from './schemas/export';
import type { JobState } from './schemas/job';

/** One legal move: from any of `from` to `to`. */
export interface Move<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
}

/**
 * SPEC 4: every move a job may make, named by the event that makes it. This table is the rule itself: use
 * cases name an event, and the repositories (DynamoDB and the in-memory fake alike) make the move only while
 * the job is in one of its `from` states. Anything not listed here is refused.
 */
export const JOB_TRANSITIONS = {
  /** A worker takes a queued job, with a lease on it. */
  claim: { from: ['initiated'], to: 'processing' },
  /** A worker takes over a job whose worker crashed: its lease ran out. */
  reclaim: { from: ['processing'], to: 'processing' },
  /** A worker gives its lease back after a transient failure, so that the retry need not wait for it. */
  release: { from: ['processing'], to: 'processing' },
  /** The catalog is built. */
  complete: { from: ['processing'], to: 'completed' },
  /** The catalog is built but a person must look at it (instructions, unreadable sources). */
  send_to_review: { from: ['processing'], to: 'in_review' },
  /** The operations team replaces the draft catalog of a job in review. */
  replace_catalog: { from: ['in_review'], to: 'in_review' },
  /** The operations team completes a reviewed job. */
  ops_complete: { from: ['in_review'], to: 'completed' },
  /** Any job not yet terminal fails: no readable source, last attempt, time-out, or the operations team. */
  fail: { from: ['initiated', 'processing', 'in_review'], to: 'failed' },
  /** The client cancels (POST /v1/jobs/{id}/cancel). */
  cancel: { from: ['initiated', 'in_review'], to: 'canceled' },
} as const satisfies Record<string, Move<JobState>>;

export type JobStateEvent = keyof typeof JOB_TRANSITIONS;

/** SPEC 4: every move a data export may make, named by its event (same rules as JOB_TRANSITIONS). */
export const EXPORT_TRANSITIONS = {
  /** The job is completed: the worker starts writing the export file. */
  start: { from: ['initiated'], to: 'processing' },
  /** The file is written. */
  complete: { from: ['processing'], to: 'completed' },
  /** The job failed or was canceled, or its catalog is gone. */
  fail: { from: ['initiated', 'processing'], to: 'failed' },
} as const satisfies Record<string, Move<ExportState>>;

export type ExportStateEvent = keyof typeof EXPORT_TRANSITIONS;

type Table<E extends string, S extends string> = Readonly<Record<E, Move<S>>>;

const leaves = <S extends string>(table: Table<string, S>, state: S): boolean =>
  Object.values(table).some((move) => move.from.includes(state));

/** True when `event` may move a job that is in `state`. */
export const jobMayMove = (event: JobStateEvent, state: JobState): boolean =>
  (JOB_TRANSITIONS[event].from as readonly JobState[]).includes(state);

/** Terminal: no event moves a record out of this state. */
export const isTerminalJobState = (state: JobState): boolean => !leaves<JobState>(JOB_TRANSITIONS, state);
export const isTerminalExportState = (state: ExportState): boolean =>
  !leaves<ExportState>(EXPORT_TRANSITIONS, state);
