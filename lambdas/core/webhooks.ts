import { createHmac } from 'node:crypto';
import { DomainError } from './errors';
import type { ExportResource } from './model';

/**
 * Standard Webhooks (https://www.standardwebhooks.com/) for the export callbacks of SPEC 6: signing, the
 * event body, the retry schedule and how a long wait is carried through SQS. Pure: no I/O, no env.
 */

/** A secret is unusable (not `whsec_` + base64 of at least one byte), or there is none to sign with. */
export class WebhookSecretError extends DomainError {
  readonly code = 'webhook_secret_invalid';
}

/** CALLBACK_RETRY_DELAYS (or another schedule) is malformed. */
export class RetryScheduleError extends DomainError {
  readonly code = 'retry_schedule_invalid';
}

export interface WebhookHeaders {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
  readonly 'content-type': 'application/json';
  readonly [name: string]: string;
}

export interface SignWebhookInput {
  /** The event id: the same on every retry of one event. */
  readonly id: string;
  /** Unix seconds of this attempt (receivers reject a timestamp more than about 5 minutes off). */
  readonly timestamp: number;
  /** The exact bytes sent as the request body. */
  readonly body: string;
  /** `whsec_` + base64; one signature each (two while a secret is being rotated). */
  readonly secrets: readonly string[];
}

const SECRET_PREFIX = 'whsec_';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const secretKey = (secret: string): Buffer => {
  if (!secret.startsWith(SECRET_PREFIX))
    throw new WebhookSecretError('A webhook secret must start with whsec_.');
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (encoded.length === 0 || !BASE64.test(encoded)) {
    throw new WebhookSecretError('A webhook secret must be whsec_ followed by base64.');
  }
  return Buffer.from(encoded, 'base64');
};

/**
 * Signs one webhook request: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the
 * base64-decoded part of each secret after `whsec_`, space-separated when there are several.
 *
 * @example
 * const headers = signWebhook({ id: 'msg_1', timestamp: 1_700_000_000, body: '{}', secrets: [secret] });
 * // headers['webhook-signature'] === 'v1,K5oZ...='
 */
export const signWebhook = (input: SignWebhookInput): WebhookHeaders => {
  if (input.secrets.length === 0) throw new WebhookSecretError('There is no webhook secret to sign with.');
  if (!Number.isSafeInteger(input.timestamp) || input.timestamp < 0) {
    throw new RangeError('The webhook timestamp must be whole unix seconds.');
  }
  if (input.id.length === 0) throw new RangeError('The webhook id must not be empty.');
  const content = `${input.id}.${input.timestamp}.${input.body}`;
  const signatures = input.secrets.map(
    (secret) => `v1,${createHmac('sha256', secretKey(secret)).update(content, 'utf8').digest('base64')}`,
  );
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': signatures.join(' '),
    'content-type': 'application/json',
  };
};

export type ExportEventType = 'data_export.completed' | 'data_export.failed';

export interface ExportEvent {
  readonly type: ExportEventType;
  /** When the event happened (the export became terminal): the same on every attempt. */
  readonly timestamp: string;
  readonly data: ExportResource;
}

/**
 * The callback body of SPEC 6 for an export that reached a terminal state, `data` being the export as GET
 * shows it. `timestamp` is when the export became terminal (completed_at, else updated_at), so it does not
 * move between retries; the attempt's own time is the `webhook-timestamp` header.
 */
export const exportEvent = (data: ExportResource): ExportEvent => {
  if (data.state !== 'completed' && data.state !== 'failed') {
    throw new RangeError(`An export in state ${data.state} has no callback event.`);
  }
  return {
    type: data.state === 'completed' ? 'data_export.completed' : 'data_export.failed',
    timestamp: data.completed_at ?? data.updated_at,
    data,
  };
};

/**
 * The Standard Webhooks schedule (SPEC 6): the wait before each retry, in seconds, after an immediate first
 * attempt. Ten attempts over about three days.
 */
export const DEFAULT_RETRY_DELAYS: readonly number[] = Object.freeze([
  5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400,
]);

/** Each scheduled wait is moved by up to this fraction either way, so that failures do not retry in step. */
export const RETRY_JITTER = 0.1;

/** A receiver's Retry-After is honoured up to this many seconds (a day, the longest scheduled wait). */
export const RETRY_AFTER_CAP_SECONDS = 86_400;

/** SQS refuses a DelaySeconds above 15 minutes. */
export const SQS_MAX_DELAY_SECONDS = 900;

/**
 * Parses CALLBACK_RETRY_DELAYS: comma-separated positive whole seconds, e.g. `"1,2,3"` (spaces allowed).
 * Throws RetryScheduleError naming the bad entry.
 */
export const parseRetryDelays = (value: string): number[] => {
  const entries = value.split(',').map((entry) => entry.trim());
  if (value.trim() === '') throw new RetryScheduleError('CALLBACK_RETRY_DELAYS is empty.');
  return entries.map((entry, index) => {
    if (!/^\d+$/.test(entry) || Number(entry) < 1 || !Number.isSafeInteger(Number(entry))) {
      throw new RetryScheduleError(
        `CALLBACK_RETRY_DELAYS entry ${index + 1} ("${entry}") is not a positive whole number of seconds; ` +
          'expected e.g. "5,300,1800".',
      );
    }
    return Number(entry);
  });
};

/**
 * Seconds a Retry-After header asks for (delta-seconds or an HTTP date), or undefined when it is absent,
 * malformed or already past.
 */
export const parseRetryAfter = (header: string | undefined, now: Date): number | undefined => {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) {
    const seconds = Number(value);
    return seconds > 0 && Number.isSafeInteger(seconds) ? seconds : undefined;
  }
  const at = Date.parse(value);
  if (Number.isNaN(at) || !/[a-z]/i.test(value)) return undefined;
  const seconds = Math.ceil((at - now.getTime()) / 1000);
  return seconds > 0 ? seconds : undefined;
};

export interface DelayOptions {
  /** In [0, 1); 0.5 means no jitter. Defaults to Math.random. */
  readonly random?: () => number;
  /** For a Retry-After given as an HTTP date. Defaults to the current time. */
  readonly now?: Date;
}

/**
 * The wait in seconds before the next attempt, after `attempt` attempts (1-based) have failed, or null when
 * the schedule is exhausted. The scheduled wait gets ±RETRY_JITTER; a receiver's Retry-After wins when it is
 * longer, up to RETRY_AFTER_CAP_SECONDS.
 *
 * @example
 * nextDelaySeconds(1, DEFAULT_RETRY_DELAYS, undefined, { random: () => 0.5 }); // 5
 * nextDelaySeconds(1, DEFAULT_RETRY_DELAYS, '120'); // 120
 * nextDelaySeconds(10, DEFAULT_RETRY_DELAYS); // null: ten attempts made
 */
export const nextDelaySeconds = (
  attempt: number,
  schedule: readonly number[],
  retryAfterHeader?: string,
  options: DelayOptions = {},
): number | null => {
  if (!Number.isSafeInteger(attempt) || attempt < 1) throw new RangeError('attempt counts from 1.');
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  const random = options.random ?? Math.random;
  const jittered = Math.max(1, Math.round(base * (1 + (random() * 2 - 1) * RETRY_JITTER)));
  const asked = parseRetryAfter(retryAfterHeader, options.now ?? new Date());
  return asked === undefined ? jittered : Math.max(jittered, Math.min(asked, RETRY_AFTER_CAP_SECONDS));
};

/** The earliest time of an attempt that waits `delaySeconds` from `now`, as carried in a message. */
export const notBeforeAfter = (now: Date, delaySeconds: number): string =>
  new Date(now.getTime() + delaySeconds * 1000).toISOString();

/**
 * How to carry a wait through SQS, whose DelaySeconds stops at 900: a message is due when `notBefore` has
 * passed (or there is none); otherwise it goes back on the queue with the remaining wait, at most 900 s, and
 * is looked at again then.
 *
 * @example
 * sqsDelayFor('2025-01-01T01:00:00Z', new Date('2025-01-01T00:00:00Z')); // { delaySeconds: 900, due: false }
 */
export const sqsDelayFor = (
  notBefore: string | undefined,
  now: Date,
): { delaySeconds: number; due: boolean } => {
  if (notBefore === undefined) return { delaySeconds: 0, due: true };
  const at = Date.parse(notBefore);
  if (Number.isNaN(at)) throw new RangeError(`notBefore is not a timestamp: ${notBefore}`);
  const remainingMs = at - now.getTime();
  if (remainingMs <= 0) return { delaySeconds: 0, due: true };
  return { delaySeconds: Math.min(Math.ceil(remainingMs / 1000), SQS_MAX_DELAY_SECONDS), due: false };
};
