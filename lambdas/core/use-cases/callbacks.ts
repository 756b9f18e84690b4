import { ConflictError, InvalidStateError, NotFoundError } from '../errors';
import type { CallbackMessage } from '../messages';
import type { CallbackStatus, ExportRecord, ExportResource } from '../model';
import { OutboundBlockedError, OutboundError, readBody } from '../outbound';
import type {
  CallbackFailureReason,
  CallbackWrite,
  Clock,
  CredentialRepository,
  ExportRepository,
  OutboundHttp,
  WorkQueue,
} from '../ports';
import { isTerminalExportState } from '../states';
import {
  type ExportEvent,
  exportEvent,
  nextDelaySeconds,
  notBeforeAfter,
  SQS_MAX_DELAY_SECONDS,
  signWebhook,
  sqsDelayFor,
  WebhookSecretError,
} from '../webhooks';
import { activeWebhookSecrets } from './credentials';

/**
 * Delivery of the export callbacks of SPEC 6, one attempt per queue message. The export record is the source
 * of truth: its `callback.attempts` says which attempt is next, and every outcome is a conditional write on
 * it, so a duplicate or stale message is recognised and skipped instead of counted twice.
 *
 * The body is rendered afresh on every attempt (renderExport): `delivery_url` is then valid when the
 * receiver gets it, and `callback` shows the attempts so far. Standard Webhooks allows this; what stays the
 * same on every attempt is `webhook-id` (the message's eventId) and the body's `timestamp` (when the
 * export became terminal). `webhook-timestamp` is the time of each attempt, as receivers require.
 */

export interface CallbackDeps {
  readonly exports: Pick<ExportRepository, 'get' | 'findById' | 'updateCallback'>;
  readonly credentials: Pick<CredentialRepository, 'getClient'>;
  readonly http: OutboundHttp;
  readonly queue: Pick<WorkQueue, 'sendCallback' | 'sendCallbackDeadLetter'>;
  readonly clock: Clock;
  /** The export as GET shows it, with a freshly signed delivery link. */
  readonly renderExport: (exp: ExportRecord) => Promise<ExportResource>;
  /** Waits between attempts: DEFAULT_RETRY_DELAYS, or parseRetryDelays(CALLBACK_RETRY_DELAYS). */
  readonly retryDelays: readonly number[];
  /** For the jitter; Math.random when absent. */
  readonly random?: () => number;
  /** The bound on one client's deliveries at once (a consumer's CallbackSlots); none when absent. */
  readonly slots?: CallbackSlots;
}

/**
 * Issue 25: one client's callbacks cannot starve another's. A consumer makes at most `perClient` deliveries
 * of one client at once, and at most `slowPerClient` to endpoints whose last attempt timed out or could not
 * connect (the slow lane: a hanging endpoint holds one slot for its 15 s, not all of them). A message over
 * its client's bound goes back on the queue for `deferSeconds`, without an attempt counted.
 */
export const CALLBACK_SLOTS = { perClient: 4, slowPerClient: 1, deferSeconds: 20 } as const;

/** Deliveries in flight per client, in one consumer (a Lambda container, the local callbacks thread). */
export class CallbackSlots {
  private readonly held = new Map<string, { all: number; slow: number }>();
  constructor(
    readonly limits: { readonly perClient: number; readonly slowPerClient: number } = CALLBACK_SLOTS,
  ) {}

  /** A slot for one delivery of `clientId`'s, and how to give it back; undefined when none is free. */
  acquire(clientId: string, slow: boolean): (() => void) | undefined {
    const held = this.held.get(clientId) ?? { all: 0, slow: 0 };
    if (held.all >= this.limits.perClient || (slow && held.slow >= this.limits.slowPerClient))
      return undefined;
    held.all += 1;
    if (slow) held.slow += 1;
    this.held.set(clientId, held);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      held.all -= 1;
      if (slow) held.slow -= 1;
      if (held.all === 0) this.held.delete(clientId);
    };
  }

  /** Deliveries of `clientId` in flight now. */
  inFlight(clientId: string): number {
    return this.held.get(clientId)?.all ?? 0;
  }
}

/** SPEC 6: any 2xx within 15 s is success. */
export const CALLBACK_TIMEOUT_MS = 15_000;
/** The receiver's answer is not used; only this much of it is read (and then dropped). */
export const CALLBACK_RESPONSE_MAX_BYTES = 16 * 1024;

export const PENDING_CALLBACK: CallbackStatus = Object.freeze({
  state: 'pending',
  attempts: 0,
  last_status: null,
  last_attempt_at: null,
});

/**
 * The webhook-id of an export's callback. An export becomes terminal once, so it has exactly one event: a
 * duplicate export message, every retry and an operator's replay all carry this same id.
 */
export const callbackEventId = (exportId: string): string => `msg_${exportId}`;

/**
 * The message that starts an export's callbacks, sent (delay 0) by whoever makes the export terminal, which
 * should also set `callback` to PENDING_CALLBACK in that same transition so that GET shows it.
 */
export const firstCallbackMessage = (exp: Pick<ExportRecord, 'id' | 'clientId'>): CallbackMessage => ({
  kind: 'callback',
  clientId: exp.clientId,
  exportId: exp.id,
  eventId: callbackEventId(exp.id),
  attempt: 1,
});

export type RetryReason = 'http_status' | 'redirect' | 'network_error';

export type CallbackOutcome =
  | { readonly kind: 'delivered'; readonly attempt: number; readonly status: number }
  | {
      readonly kind: 'retry';
      readonly attempt: number;
      readonly status: number | null;
      readonly reason: RetryReason;
      /** The whole wait before the next attempt (may exceed the SQS delay it was sent with). */
      readonly retryAfterSeconds: number;
      readonly next: CallbackMessage;
    }
  | {
      readonly kind: 'failed';
      readonly attempt: number;
      readonly status: number | null;
      readonly reason: CallbackFailureReason;
    }
  /**
   * Not due yet, or its client has CallbackSlots' bound of deliveries in flight (`busy`): the message went
   * back on the queue for `delaySeconds`.
   */
  | { readonly kind: 'deferred'; readonly delaySeconds: number; readonly busy?: true }
  /** The attempt had been recorded but its follow-up may not have been sent: it was sent (again). */
  | { readonly kind: 'resumed'; readonly next: CallbackMessage | null }
  | {
      readonly kind: 'skipped';
      readonly reason:
        | 'not_found'
        | 'no_callback_url'
        | 'not_terminal'
        | 'settled'
        | 'stale'
        /** Another worker recorded this attempt first (a duplicate message). */
        | 'conflict';
    };

type AttemptResult =
  | { readonly kind: 'delivered'; readonly status: number }
  | {
      readonly kind: 'retryable';
      readonly status: number | null;
      readonly reason: RetryReason;
      readonly retryAfter?: string;
    }
  | { readonly kind: 'permanent'; readonly status: number | null; readonly reason: CallbackFailureReason };

/**
 * Makes the attempt a callback message asks for, records its outcome on the export and sends what follows:
 * the next attempt (through the queue, carrying `notBefore` past SQS's 15 minutes) or, after a permanent
 * failure or the last attempt, the event to the dead letters. 2xx delivers; 410 and a blocked URL stop at
 * once; 3xx (redirects are not followed), other statuses and network errors are retried on the schedule,
 * a longer Retry-After winning. Never changes the export's own state.
 *
 * Errors of the ports (DependencyUnavailableError...) propagate: the message is then retried by the queue,
 * and the attempt is made again with the same webhook-id.
 */
export const deliverCallback = async (
  deps: CallbackDeps,
  message: CallbackMessage,
): Promise<CallbackOutcome> => {
  const now = deps.clock.now();
  const wait = sqsDelayFor(message.notBefore, now);
  if (!wait.due) {
    await deps.queue.sendCallback(message, wait.delaySeconds);
    return { kind: 'deferred', delaySeconds: wait.delaySeconds };
  }
  const exp = await deps.exports.get(message.clientId, message.exportId);
  if (!exp) return { kind: 'skipped', reason: 'not_found' };
  if (exp.callbackUrl === null) return { kind: 'skipped', reason: 'no_callback_url' };
  if (!isTerminalExportState(exp.state)) return { kind: 'skipped', reason: 'not_terminal' };
  const current = exp.callback ?? PENDING_CALLBACK;
  if (current.state !== 'pending') return { kind: 'skipped', reason: 'settled' };
  if (current.attempts === message.attempt) return resume(deps, message, current, now);
  if (current.attempts !== message.attempt - 1) return { kind: 'skipped', reason: 'stale' };

  // The slow lane: the last attempt got no answer (a timeout, a refused connection).
  const slow = current.attempts > 0 && current.last_status === null;
  const release = deps.slots ? deps.slots.acquire(message.clientId, slow) : () => undefined;
  if (!release) {
    await deps.queue.sendCallback(message, CALLBACK_SLOTS.deferSeconds);
    return { kind: 'deferred', delaySeconds: CALLBACK_SLOTS.deferSeconds, busy: true };
  }
  let made: Awaited<ReturnType<typeof attempt>>;
  try {
    made = await attempt(deps, exp, exp.callbackUrl, message, now);
  } finally {
    release();
  }
  const { result, event } = made;
  const recorded = {
    attempts: message.attempt,
    last_status: result.status,
    last_attempt_at: now.toISOString(),
  };
  const expected = { state: 'pending', attempts: current.attempts } as const;

  if (result.kind === 'delivered') {
    if (!(await record(deps, message, { expected, next: { state: 'delivered', ...recorded } }))) {
      return { kind: 'skipped', reason: 'conflict' };
    }
    return { kind: 'delivered', attempt: message.attempt, status: result.status };
  }

  if (result.kind === 'retryable') {
    const delay = nextDelaySeconds(message.attempt, deps.retryDelays, result.retryAfter, {
      random: deps.random,
      now: deps.clock.now(),
    });
    if (delay !== null) {
      if (!(await record(deps, message, { expected, next: { state: 'pending', ...recorded } }))) {
        return { kind: 'skipped', reason: 'conflict' };
      }
      const next: CallbackMessage = {
        ...message,
        attempt: message.attempt + 1,
        notBefore: notBeforeAfter(deps.clock.now(), delay),
      };
      await deps.queue.sendCallback(next, Math.min(delay, SQS_MAX_DELAY_SECONDS));
      return {
        kind: 'retry',
        attempt: message.attempt,
        status: result.status,
        reason: result.reason,
        retryAfterSeconds: delay,
        next,
      };
    }
  }

  const reason = result.kind === 'permanent' ? result.reason : 'exhausted';
  return fail(deps, message, { expected, next: { state: 'failed', ...recorded } }, reason, event);
};

/** Renders, signs and POSTs one attempt, and classifies the answer. */
const attempt = async (
  deps: CallbackDeps,
  exp: ExportRecord,
  url: string,
  message: CallbackMessage,
  now: Date,
): Promise<{ result: AttemptResult; event: ExportEvent | null }> => {
  const client = await deps.credentials.getClient(message.clientId);
  const secrets = client ? activeWebhookSecrets(client.webhookSecrets, now) : [];
  if (secrets.length === 0) {
    return { result: { kind: 'permanent', status: null, reason: 'no_signing_secret' }, event: null };
  }
  const event = exportEvent(await deps.renderExport(exp));
  const body = JSON.stringify(event);
  let headers: Record<string, string>;
  try {
    headers = signWebhook({
      id: message.eventId,
      timestamp: Math.floor(now.getTime() / 1000),
      body,
      secrets,
    });
  } catch (error) {
    if (error instanceof WebhookSecretError) {
      return { result: { kind: 'permanent', status: null, reason: 'no_signing_secret' }, event };
    }
    throw error;
  }
  try {
    const response = await deps.http.request({
      url,
      method: 'POST',
      headers,
      body,
      timeoutMs: CALLBACK_TIMEOUT_MS,
      maxBytes: CALLBACK_RESPONSE_MAX_BYTES,
      followRedirects: false,
    });
    // The answer's content does not matter; reading it frees the connection, and a failure while reading
    // it cannot undo the status already received.
    await readBody(response).catch(() => undefined);
    return { result: classify(response.status, response.headers['retry-after']), event };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    if (error.retryable)
      return { result: { kind: 'retryable', status: null, reason: 'network_error' }, event };
    const reason = error instanceof OutboundBlockedError ? 'blocked' : 'outbound_error';
    return { result: { kind: 'permanent', status: null, reason }, event };
  }
};

/** SPEC 6: 2xx delivers, 410 stops, anything else (a 3xx included: redirects are not followed) is retried. */
const classify = (status: number, retryAfter: string | undefined): AttemptResult => {
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  if (status === 410) return { kind: 'permanent', status, reason: 'gone' };
  const reason = status >= 300 && status < 400 ? 'redirect' : 'http_status';
  return retryAfter === undefined
    ? { kind: 'retryable', status, reason }
    : { kind: 'retryable', status, reason, retryAfter };
};

/** The conditional write of an outcome; false when another worker got there first. */
const record = async (
  deps: CallbackDeps,
  message: CallbackMessage,
  write: CallbackWrite,
): Promise<boolean> => {
  try {
    await deps.exports.updateCallback(message.clientId, message.exportId, write);
    return true;
  } catch (error) {
    if (error instanceof ConflictError) return false;
    throw error;
  }
};

/**
 * The final failure. The dead letter is written before the record: if the record then fails, the queue
 * retries the message and the worst case is a second dead letter of the same event, never none.
 */
const fail = async (
  deps: CallbackDeps,
  message: CallbackMessage,
  write: CallbackWrite,
  reason: CallbackFailureReason,
  event: ExportEvent | null,
): Promise<CallbackOutcome> => {
  await deps.queue.sendCallbackDeadLetter({
    clientId: message.clientId,
    exportId: message.exportId,
    eventId: message.eventId,
    reason,
    attempts: write.next.attempts,
    lastStatus: write.next.last_status,
    failedAt: deps.clock.now().toISOString(),
    event,
  });
  if (!(await record(deps, message, write))) return { kind: 'skipped', reason: 'conflict' };
  return { kind: 'failed', attempt: write.next.attempts, status: write.next.last_status, reason };
};

/**
 * A message whose attempt is already recorded as made and still pending: the worker that made it may have
 * stopped before sending the next attempt, so it is sent now (no new POST). Should that worker in fact have
 * sent it, the two resulting messages for the next attempt make one POST between them: whichever comes
 * second finds the attempt recorded and lands here again.
 */
const resume = async (
  deps: CallbackDeps,
  message: CallbackMessage,
  current: CallbackStatus,
  now: Date,
): Promise<CallbackOutcome> => {
  const delay = nextDelaySeconds(message.attempt, deps.retryDelays, undefined, { random: deps.random, now });
  if (delay === null) {
    // The schedule got shorter since this attempt was made: it was the last one.
    const write: CallbackWrite = {
      expected: { state: 'pending', attempts: current.attempts },
      next: { ...current, state: 'failed' },
    };
    return fail(deps, message, write, 'exhausted', null);
  }
  const from = current.last_attempt_at === null ? now : new Date(current.last_attempt_at);
  const next: CallbackMessage = {
    ...message,
    attempt: message.attempt + 1,
    notBefore: notBeforeAfter(from, delay),
  };
  await deps.queue.sendCallback(next, sqsDelayFor(next.notBefore, now).delaySeconds);
  return { kind: 'resumed', next };
};

export type ReplayDeps = Pick<CallbackDeps, 'exports' | 'queue' | 'clock'>;

export interface ReplayResult {
  readonly message: CallbackMessage;
  /** The callback status before the replay. */
  readonly previous: CallbackStatus;
}

/**
 * `npm run callbacks -- replay <export id>`: starts a new series of attempts of an export's callback, with
 * the same webhook-id (Standard Webhooks: a resent message keeps its id, so a receiver that did process it
 * recognises it). `callback` goes back to pending with 0 attempts (last_status and last_attempt_at are
 * kept until the next attempt); messages of the earlier series are then stale and skipped. A callback still
 * pending (a series in flight) is replayed only with `force`.
 *
 * Throws NotFoundError (unknown export), InvalidStateError (no callback_url, export not terminal, pending
 * without force), ConflictError (the callback changed meanwhile: run it again).
 */
export const replayCallback = async (
  deps: ReplayDeps,
  exportId: string,
  options: { readonly force?: boolean } = {},
): Promise<ReplayResult> => {
  const exp = await deps.exports.findById(exportId);
  if (!exp) throw new NotFoundError(`No data export has the id ${exportId}.`);
  if (exp.callbackUrl === null) throw new InvalidStateError('The data export has no callback_url.');
  if (!isTerminalExportState(exp.state)) {
    throw new InvalidStateError(`The data export is ${exp.state}; its callback is sent once it is terminal.`);
  }
  const previous = exp.callback ?? PENDING_CALLBACK;
  if (previous.state === 'pending' && options.force !== true) {
    throw new InvalidStateError(
      `The callback is still pending (${previous.attempts} attempts made); replay it with --force.`,
    );
  }
  await deps.exports.updateCallback(exp.clientId, exp.id, {
    expected: { state: previous.state, attempts: previous.attempts },
    next: { ...previous, state: 'pending', attempts: 0 },
  });
  const message = firstCallbackMessage(exp);
  await deps.queue.sendCallback(message, 0);
  return { message, previous };
};
