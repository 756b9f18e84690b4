/** Due dates and time left, as the queue and the job page show them. */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const span = (ms: number): string => {
  const minutes = Math.floor(ms / MINUTE);
  if (minutes < 60) return `${Math.max(minutes, 0)} min`;
  if (ms < DAY) return `${Math.floor(ms / HOUR)} h ${Math.floor((ms % HOUR) / MINUTE)} min`;
  return `${Math.floor(ms / DAY)} d ${Math.floor((ms % DAY) / HOUR)} h`;
};

export interface TimeLeft {
  readonly text: string;
  readonly overdue: boolean;
  /** Less than 4 hours left. */
  readonly soon: boolean;
}

/** `5 h 12 min left`, `overdue by 2 d 3 h`. */
export const timeLeft = (dueAt: string, now: number): TimeLeft => {
  const ms = Date.parse(dueAt) - now;
  if (Number.isNaN(ms)) return { text: 'unknown', overdue: false, soon: false };
  if (ms < 0) return { text: `overdue by ${span(-ms)}`, overdue: true, soon: false };
  return { text: `${span(ms)} left`, overdue: false, soon: ms < 4 * HOUR };
};

const dateTime = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});

/** The due date in the operator's own time zone. */
export const formatDue = (iso: string): string => {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : dateTime.format(at);
};
