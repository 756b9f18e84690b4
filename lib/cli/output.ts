import type { ProblemBody } from './api';

/** Where the command-line client writes: results (JSON) to stdout, everything for a person to stderr. */
export interface Output {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** stderr is a terminal: progress redraws one line instead of printing one per change. */
  readonly interactive: boolean;
}

/** Writes a result: pretty JSON and a newline. */
export const printJson = (out: Output, value: unknown): void =>
  out.stdout(`${JSON.stringify(value, null, 2)}\n`);

/**
 * A problem body for a person:
 *
 * ```
 * error: 400 Invalid request (validation_failed)
 *   The request is invalid.
 *   /job/job_data/merchant_name: is required
 *   request id: 0b7f3c2e-...
 * ```
 */
export const formatProblem = (status: number, problem: ProblemBody, context?: string): string => {
  const title = problem.title ?? 'Error';
  const code = problem.code ? ` (${problem.code})` : '';
  const lines = [`error: ${status} ${title}${code}${context ? ` — ${context}` : ''}`];
  if (problem.detail) lines.push(`  ${problem.detail}`);
  for (const error of problem.errors ?? []) {
    const pointer = error.pointer === undefined || error.pointer === '' ? '(body)' : error.pointer;
    lines.push(`  ${pointer}: ${error.message ?? error.code ?? 'invalid'}`);
  }
  if (problem.request_id) lines.push(`  request id: ${problem.request_id}`);
  return `${lines.join('\n')}\n`;
};

/** A failed job's or export's `error` (a problem object without status). */
export const formatFailure = (what: string, state: string, error: ProblemBody | null | undefined): string => {
  const lines = [`${what} ended ${state}`];
  if (error) {
    lines.push(`  ${error.title ?? 'Error'}${error.code ? ` (${error.code})` : ''}`);
    if (error.detail) lines.push(`  ${error.detail}`);
  }
  return `${lines.join('\n')}\n`;
};

/** Progress on stderr: a redrawn line on a terminal, one line per change otherwise. */
export class Progress {
  private last = '';
  private drawn = false;

  constructor(
    private readonly out: Output,
    private readonly enabled: boolean,
  ) {}

  update(message: string): void {
    if (!this.enabled) return;
    if (this.out.interactive) {
      this.out.stderr(`\r\x1b[2K${message}`);
      this.drawn = true;
    } else if (message !== this.last) {
      this.out.stderr(`${message}\n`);
    }
    this.last = message;
  }

  /** A line that stays (a finished step). */
  note(message: string): void {
    if (!this.enabled) return;
    this.clear();
    this.out.stderr(`${message}\n`);
  }

  clear(): void {
    if (this.drawn) this.out.stderr('\r\x1b[2K');
    this.drawn = false;
    this.last = '';
  }
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
export const spinnerFrame = (tick: number): string => SPINNER[tick % SPINNER.length]!;

/** 1536 -> "1.5 KB". */
export const formatBytes = (bytes: number): string => {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
};
