import type { ExportState } from './schemas/export';
import type { JobState } from './schemas/job';

/** SPEC 4: every move a job may make. Anything else is refused. */
export const JOB_TRANSITIONS: Readonly<Record<JobState, readonly JobState[]>> = {
  initiated: ['processing', 'failed', 'canceled'],
  processing: ['completed', 'in_review', 'failed'],
  in_review: ['completed', 'failed', 'canceled'],
  completed: [],
  failed: [],
  canceled: [],
};

export const EXPORT_TRANSITIONS: Readonly<Record<ExportState, readonly ExportState[]>> = {
  initiated: ['processing', 'failed'],
  processing: ['completed', 'failed'],
  completed: [],
  failed: [],
};

export const isTerminalJobState = (state: JobState): boolean => JOB_TRANSITIONS[state].length === 0;
export const isTerminalExportState = (state: ExportState): boolean => EXPORT_TRANSITIONS[state].length === 0;

/** The states a job may be in for a move to `to` to be legal. */
export const jobStatesLeadingTo = (to: JobState): JobState[] =>
  (Object.keys(JOB_TRANSITIONS) as JobState[]).filter((from) => JOB_TRANSITIONS[from].includes(to));

export const exportStatesLeadingTo = (to: ExportState): ExportState[] =>
  (Object.keys(EXPORT_TRANSITIONS) as ExportState[]).filter((from) => EXPORT_TRANSITIONS[from].includes(to));

/** States from which a client may cancel (SPEC 4). */
export const CANCELABLE_JOB_STATES: readonly JobState[] = ['initiated', 'in_review'];
