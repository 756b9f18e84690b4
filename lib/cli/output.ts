import { warningPlace } from '../../lambdas/core/catalog';
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

/** A warning of `results.warnings` (SPEC 5.2), as much of it as a summary needs. */
export interface WarningLike {
  readonly source: string;
  readonly code: string;
  readonly row?: number | null;
  readonly column?: string | null;
  readonly sheet?: string;
  readonly page?: number;
  readonly message: string;
}

/** Places shown per code; the rest are counted. */
const PLACES_PER_CODE = 5;

/**
 * The warnings of a job for a person, grouped by code, most frequent first, each with where it was:
 *
 * ```
 * 3 warnings:
 *   not_a_price ×2 — row 4, column price; row 9, column price
 *     "2 for $5" is not a single price: the item is kept without one
 *   invalid_gtin ×1 — row 7, column UPC
 * ```
 * Empty when there are none.
 */
export const formatWarnings = (warnings: readonly WarningLike[], total = warnings.length): string => {
  if (total === 0) return '';
  const byCode = new Map<string, WarningLike[]>();
  for (const w of warnings) byCode.set(w.code, [...(byCode.get(w.code) ?? []), w]);
  const shown = total > warnings.length ? ` (the first ${warnings.length} are grouped here)` : '';
  const lines = [`${total} warning${total === 1 ? '' : 's'}${shown}:`];
  for (const [code, list] of [...byCode].sort((a, b) => b[1].length - a[1].length)) {
    const places = list.map((w) => warningPlace(w)).filter(Boolean);
    const more = places.length > PLACES_PER_CODE ? `; ${places.length - PLACES_PER_CODE} more` : '';
    const where = places.length > 0 ? ` — ${places.slice(0, PLACES_PER_CODE).join('; ')}${more}` : '';
    lines.push(`  ${code} ×${list.length}${where}`);
    lines.push(`    ${list[0]!.message}`);
  }
  return `${lines.join('\n')}\n`;
};
