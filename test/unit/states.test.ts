import { EXPORT_STATES } from '../../lambdas/core/schemas/export';
import { JOB_STATES } from '../../lambdas/core/schemas/job';
import {
  EXPORT_TRANSITIONS,
  isTerminalExportState,
  isTerminalJobState,
  JOB_TRANSITIONS,
  jobMayMove,
  type Move,
} from '../../lambdas/core/states';

/** The table as a graph of state changes (`from -> to`), moves that keep the state left out. */
const graph = (table: Record<string, Move<string>>): string[] =>
  [
    ...new Set(
      Object.values(table).flatMap((move) =>
        move.from.filter((from) => from !== move.to).map((from) => `${from} -> ${move.to}`),
      ),
    ),
  ].sort();

describe('job transitions (SPEC 4)', () => {
  it('change states exactly as SPEC 4 draws them', () => {
    expect(graph(JOB_TRANSITIONS)).toEqual(
      [
        'initiated -> processing',
        'processing -> completed',
        'processing -> in_review',
        'in_review -> completed',
        'initiated -> failed',
        'processing -> failed',
        'in_review -> failed',
        'initiated -> canceled',
        'in_review -> canceled',
      ].sort(),
    );
  });

  it('keep the state only for the lease (processing) and the review (in_review)', () => {
    const kept = Object.entries(JOB_TRANSITIONS)
      .filter(([, move]) => (move.from as readonly string[]).includes(move.to))
      .map(([event]) => event)
      .sort();
    expect(kept).toEqual(['reclaim', 'release', 'replace_catalog']);
  });

  it('name only known states', () => {
    for (const move of Object.values(JOB_TRANSITIONS)) {
      expect(JOB_STATES).toContain(move.to);
      for (const from of move.from) expect(JOB_STATES).toContain(from);
    }
  });

  it('leave no terminal state, and every other state', () => {
    expect(JOB_STATES.filter(isTerminalJobState)).toEqual(['completed', 'failed', 'canceled']);
  });

  it('answer whether an event may move a job', () => {
    expect(JOB_STATES.filter((s) => jobMayMove('cancel', s))).toEqual(['initiated', 'in_review']);
    expect(JOB_STATES.filter((s) => jobMayMove('fail', s))).toEqual(['initiated', 'processing', 'in_review']);
    expect(JOB_STATES.filter((s) => jobMayMove('claim', s))).toEqual(['initiated']);
    expect(JOB_STATES.filter((s) => jobMayMove('ops_complete', s))).toEqual(['in_review']);
  });
});

describe('export transitions (SPEC 4)', () => {
  it('move initiated -> processing -> completed | failed', () => {
    expect(graph(EXPORT_TRANSITIONS)).toEqual(
      [
        'initiated -> failed',
        'initiated -> processing',
        'processing -> completed',
        'processing -> failed',
      ].sort(),
    );
    expect(EXPORT_STATES.filter(isTerminalExportState)).toEqual(['completed', 'failed']);
    expect(EXPORT_TRANSITIONS.complete.from).toEqual(['processing']);
  });
});
