import {
  EXPORT_TRANSITIONS,
  exportStatesLeadingTo,
  isTerminalExportState,
  isTerminalJobState,
  JOB_TRANSITIONS,
  jobStatesLeadingTo,
} from '../../lambdas/core/states';

describe('job states (SPEC 4)', () => {
  it('has exactly the documented moves', () => {
    expect(JOB_TRANSITIONS).toEqual({
      initiated: ['processing', 'failed', 'canceled'],
      processing: ['completed', 'in_review', 'failed'],
      in_review: ['completed', 'failed', 'canceled'],
      completed: [],
      failed: [],
      canceled: [],
    });
  });
  it('knows which states are terminal', () => {
    expect(['completed', 'failed', 'canceled'].every((s) => isTerminalJobState(s as never))).toBe(true);
    expect(['initiated', 'processing', 'in_review'].some((s) => isTerminalJobState(s as never))).toBe(false);
  });
  it('derives the sources of a move', () => {
    expect(jobStatesLeadingTo('canceled')).toEqual(['initiated', 'in_review']);
    expect(jobStatesLeadingTo('failed')).toEqual(['initiated', 'processing', 'in_review']);
    expect(jobStatesLeadingTo('processing')).toEqual(['initiated']);
  });
});

describe('export states (SPEC 4)', () => {
  it('moves initiated -> processing -> completed | failed', () => {
    expect(EXPORT_TRANSITIONS.initiated).toEqual(['processing', 'failed']);
    expect(exportStatesLeadingTo('completed')).toEqual(['processing']);
    expect(isTerminalExportState('completed')).toBe(true);
    expect(isTerminalExportState('processing')).toBe(false);
  });
});
