import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  ConflictError,
  DependencyUnavailableError,
  InvalidStateError,
  NotFoundError,
} from '../../lambdas/core/errors';
import { type CallbackMessage, callbackMessageSchema } from '../../lambdas/core/messages';
import { type CallbackStatus, type ExportRecord, exportResource } from '../../lambdas/core/model';
import {
  OutboundBlockedError,
  OutboundNetworkError,
  OutboundTooLargeError,
} from '../../lambdas/core/outbound';
import type { ClientRecord, WebhookSecret } from '../../lambdas/core/ports';
import {
  CALLBACK_TIMEOUT_MS,
  type CallbackDeps,
  callbackEventId,
  deliverCallback,
  firstCallbackMessage,
  PENDING_CALLBACK,
  replayCallback,
} from '../../lambdas/core/use-cases/callbacks';
import { DEFAULT_RETRY_DELAYS, type ExportEvent } from '../../lambdas/core/webhooks';
import {
  FakeClock,
  FakeCredentialRepository,
  FakeExportRepository,
  FakeWorkQueue,
  type ScriptedAnswer,
  ScriptedHttp,
} from '../helpers/fakes';

// ---------- fixtures ----------

const CLIENT = 'acme';
const aSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

const anExport = (overrides: Partial<ExportRecord> = {}): ExportRecord => ({
  id: '5f0c2a4e-8d1b-4c7a-9e3f-2b6d8a1c4e70',
  clientId: CLIENT,
  jobId: '0a9b8c7d-6e5f-4a3b-8c1d-0e9f8a7b6c5d',
  jobType: 'new_menu',
  state: 'completed',
  version: 3,
  callbackUrl: 'https://receiver.example/hooks',
  clientMappings: { categories: {} },
  createdAt: '2025-03-01T10:00:00.000Z',
  updatedAt: '2025-03-01T10:05:00.000Z',
  completedAt: '2025-03-01T10:05:00.000Z',
  objectKey: 'exports/acme/5f0c.json',
  file: {
    content_type: 'application/json',
    size_bytes: 1234,
    checksum_sha256: 'cd'.repeat(32),
    item_count: 7,
  },
  callback: { ...PENDING_CALLBACK },
  error: null,
  ...overrides,
});

const aClient = (secrets: WebhookSecret[]): ClientRecord => ({
  clientId: CLIENT,
  createdAt: '2025-01-01T00:00:00.000Z',
  usageKey: 'usage_x',
  webhookSecrets: secrets,
});

interface Setup {
  exp?: ExportRecord;
  answers?: ScriptedAnswer[];
  fallback?: ScriptedAnswer;
  secrets?: WebhookSecret[] | null;
  retryDelays?: readonly number[];
  now?: Date;
}

const setup = (options: Setup = {}) => {
  const secret = aSecret();
  const secrets =
    options.secrets === undefined
      ? [{ secret, createdAt: '2025-01-01T00:00:00.000Z', expiresAt: null }]
      : options.secrets;
  const exp = options.exp ?? anExport();
  const exports = new FakeExportRepository();
  exports.items.set(`${exp.clientId}/${exp.id}`, exp);
  const credentials = new FakeCredentialRepository();
  if (secrets) credentials.clients.set(CLIENT, aClient(secrets));
  const http = ScriptedHttp.of(options.answers ?? [], options.fallback);
  const queue = new FakeWorkQueue();
  // Near real time, so that the standardwebhooks verifier (which checks the timestamp) accepts the headers.
  const clock = new FakeClock(options.now ?? new Date(Math.floor(Date.now() / 1000) * 1000));
  let renders = 0;
  const deps: CallbackDeps = {
    exports,
    credentials,
    http,
    queue,
    clock,
    renderExport: async (exp) => {
      renders += 1;
      return exportResource(exp, {
        url: `https://bucket.example/${exp.objectKey}?sig=${renders}`,
        expiresAt: new Date(clock.now().getTime() + 3_600_000).toISOString(),
      });
    },
    retryDelays: options.retryDelays ?? DEFAULT_RETRY_DELAYS,
    random: () => 0.5,
  };
  return { deps, exports, http, queue, clock, secret };
};

type Harness = ReturnType<typeof setup>;

/** The one export the harness holds, as stored now. */
const stored = (h: Harness): ExportRecord => {
  const [exp] = h.exports.items.values();
  if (!exp) throw new Error('no export');
  return exp;
};

/** The bodies of the callbacks POSTed so far. */
const bodies = (h: Harness): ExportEvent[] =>
  h.http.requests.map((r) => JSON.parse(String(r.body)) as ExportEvent);

const header = (h: Harness, index: number, name: string): string => {
  const value = h.http.requests[index]?.headers?.[name];
  if (value === undefined) throw new Error(`request ${index} has no ${name}`);
  return value;
};

/** Plays the queue: each sent message is delivered once its SQS delay has passed on the fake clock. */
const drain = async (h: Harness, first: CallbackMessage, maxSteps = 200) => {
  const outcomes = [await deliverCallback(h.deps, first)];
  for (let step = 0; h.queue.callbacks.length > 0; step += 1) {
    if (step >= maxSteps) throw new Error('the queue did not drain');
    const { message, delaySeconds } = h.queue.callbacks.shift()!;
    h.clock.advance(delaySeconds * 1000);
    outcomes.push(await deliverCallback(h.deps, message));
  }
  return outcomes;
};

const first = (exp: ExportRecord = anExport()) => firstCallbackMessage(exp);

// ---------- tests ----------

describe('deliverCallback', () => {
  it('delivers on 2xx: one signed POST, callback recorded, export state untouched', async () => {
    const h = setup({ answers: [{ status: 204 }] });
    const before = stored(h);

    const outcome = await deliverCallback(h.deps, first());

    expect(outcome).toEqual({ kind: 'delivered', attempt: 1, status: 204 });
    expect(h.http.requests).toHaveLength(1);
    const [request] = h.http.requests;
    expect(request).toMatchObject({
      url: 'https://receiver.example/hooks',
      method: 'POST',
      timeoutMs: CALLBACK_TIMEOUT_MS,
      followRedirects: false,
    });
    expect(CALLBACK_TIMEOUT_MS).toBe(15_000);
    expect(request!.maxBytes).toBeLessThanOrEqual(64 * 1024);
    expect(Object.keys(request!.headers!).sort()).toEqual([
      'content-type',
      'webhook-id',
      'webhook-signature',
      'webhook-timestamp',
    ]);
    expect(header(h, 0, 'webhook-id')).toBe(callbackEventId(before.id));
    expect(header(h, 0, 'webhook-timestamp')).toBe(String(h.clock.now().getTime() / 1000));

    const verified = new Webhook(h.secret).verify(String(request!.body), request!.headers!) as ExportEvent;
    expect(verified.type).toBe('data_export.completed');
    expect(verified.timestamp).toBe(before.completedAt);
    expect(verified.data).toMatchObject({ id: before.id, state: 'completed', job_id: before.jobId });
    expect(verified.data.delivery_url).toBe('https://bucket.example/exports/acme/5f0c.json?sig=1');

    const after = stored(h);
    expect(after.callback).toEqual({
      state: 'delivered',
      attempts: 1,
      last_status: 204,
      last_attempt_at: h.clock.now().toISOString(),
    });
    expect({ state: after.state, version: after.version, updatedAt: after.updatedAt }).toEqual({
      state: before.state,
      version: before.version,
      updatedAt: before.updatedAt,
    });
    expect(h.queue.callbacks).toEqual([]);
    expect(h.queue.deadLetters).toEqual([]);
  });

  it('sends data_export.failed for a failed export', async () => {
    const error = { type: 'urn:x', title: 'Job failed', code: 'job_failed', detail: 'The job failed.' };
    const h = setup({
      exp: anExport({ state: 'failed', completedAt: null, objectKey: null, file: null, error }),
    });

    await deliverCallback(h.deps, first());

    const [event] = bodies(h);
    expect(event!.type).toBe('data_export.failed');
    expect(event!.timestamp).toBe('2025-03-01T10:05:00.000Z');
    expect(event!.data.error).toEqual(error);
  });

  it('treats an export with no callback yet (null) as pending with no attempts', async () => {
    const h = setup({ exp: anExport({ callback: null }) });
    expect(await deliverCallback(h.deps, first())).toMatchObject({ kind: 'delivered', attempt: 1 });
    expect(stored(h).callback?.state).toBe('delivered');
  });

  it('schedules a retry after a 500: records the attempt and sends attempt 2 with the scheduled wait', async () => {
    const h = setup({ answers: [{ status: 500 }] });

    const outcome = await deliverCallback(h.deps, first());

    const notBefore = new Date(h.clock.now().getTime() + 5000).toISOString();
    expect(outcome).toMatchObject({
      kind: 'retry',
      attempt: 1,
      status: 500,
      reason: 'http_status',
      retryAfterSeconds: 5,
    });
    expect(h.queue.callbacks).toEqual([{ message: { ...first(), attempt: 2, notBefore }, delaySeconds: 5 }]);
    expect(stored(h).callback).toEqual({
      state: 'pending',
      attempts: 1,
      last_status: 500,
      last_attempt_at: h.clock.now().toISOString(),
    });
    expect(stored(h).state).toBe('completed');
    expect(h.queue.deadLetters).toEqual([]);
  });

  it('500, 500, 200: three attempts with one webhook-id, then delivered', async () => {
    const h = setup({ answers: [{ status: 500 }, { status: 500 }, { status: 200 }] });

    const outcomes = await drain(h, first());

    expect(outcomes.map((o) => o.kind)).toEqual(['retry', 'retry', 'delivered']);
    expect(h.http.requests).toHaveLength(3);
    expect(new Set(h.http.requests.map((r) => r.headers?.['webhook-id']))).toEqual(
      new Set([callbackEventId(anExport().id)]),
    );
    // Each attempt is signed at its own time; the standardwebhooks library computes the same signature.
    const timestamps = h.http.requests.map((_, i) => Number(header(h, i, 'webhook-timestamp')));
    expect(timestamps[1]! - timestamps[0]!).toBe(5);
    expect(timestamps[2]! - timestamps[1]!).toBe(300);
    h.http.requests.forEach((r, i) => {
      expect(header(h, i, 'webhook-signature')).toBe(
        new Webhook(h.secret).sign(
          header(h, i, 'webhook-id'),
          new Date(timestamps[i]! * 1000),
          String(r.body),
        ),
      );
    });
    expect(stored(h).callback).toMatchObject({ state: 'delivered', attempts: 3, last_status: 200 });
    expect(h.queue.deadLetters).toEqual([]);
  });

  it('re-renders the body on each attempt (fresh delivery_url) but keeps the event id and timestamp', async () => {
    const h = setup({ answers: [{ status: 503 }, { status: 200 }] });

    await drain(h, first());

    const [one, two] = bodies(h);
    expect(one!.data.delivery_url).not.toBe(two!.data.delivery_url);
    expect(one!.timestamp).toBe(two!.timestamp);
    expect(one!.data.callback).toMatchObject({ attempts: 0 });
    expect(two!.data.callback).toMatchObject({ attempts: 1, last_status: 503 });
    expect(header(h, 0, 'webhook-id')).toBe(header(h, 1, 'webhook-id'));
  });

  it('stops at 410 Gone: failed, no retry, event dead-lettered', async () => {
    const h = setup({ answers: [{ status: 410 }] });

    const outcome = await deliverCallback(h.deps, first());

    expect(outcome).toEqual({ kind: 'failed', attempt: 1, status: 410, reason: 'gone' });
    expect(h.http.requests).toHaveLength(1);
    expect(h.queue.callbacks).toEqual([]);
    expect(stored(h).callback).toMatchObject({ state: 'failed', attempts: 1, last_status: 410 });
    expect(stored(h).state).toBe('completed');
    expect(h.queue.deadLetters).toEqual([
      expect.objectContaining({
        exportId: anExport().id,
        eventId: callbackEventId(anExport().id),
        reason: 'gone',
      }),
    ]);
  });

  it('does not follow a redirect: a 3xx is a failed attempt, retried on the schedule', async () => {
    const h = setup({ answers: [{ status: 302, headers: { location: 'https://elsewhere.example/' } }] });

    const outcome = await deliverCallback(h.deps, first());

    expect(outcome).toMatchObject({ kind: 'retry', status: 302, reason: 'redirect' });
    expect(h.http.requests).toHaveLength(1);
    expect(h.http.requests[0]!.followRedirects).toBe(false);
    expect(h.http.requests.map((r) => r.url)).not.toContain('https://elsewhere.example/');
    expect(stored(h).callback).toMatchObject({ state: 'pending', last_status: 302 });
  });

  it('retries a network error, recording no status', async () => {
    const h = setup({ answers: [new OutboundNetworkError('connect ECONNREFUSED')] });

    const outcome = await deliverCallback(h.deps, first());

    expect(outcome).toMatchObject({ kind: 'retry', status: null, reason: 'network_error' });
    expect(h.queue.callbacks).toHaveLength(1);
    expect(stored(h).callback).toMatchObject({ state: 'pending', attempts: 1, last_status: null });
  });

  it('fails at once when the outbound guard blocks the URL', async () => {
    const h = setup({ answers: [new OutboundBlockedError('10.0.0.1 is private')] });

    const outcome = await deliverCallback(h.deps, first());

    expect(outcome).toEqual({ kind: 'failed', attempt: 1, status: null, reason: 'blocked' });
    expect(h.queue.callbacks).toEqual([]);
    expect(h.queue.deadLetters).toHaveLength(1);
    expect(h.queue.deadLetters[0]).toMatchObject({ reason: 'blocked', attempts: 1, lastStatus: null });
    expect(stored(h).callback).toMatchObject({ state: 'failed', attempts: 1 });
  });

  it('fails at once on another permanent outbound error', async () => {
    const h = setup({ answers: [new OutboundTooLargeError('too large')] });
    expect(await deliverCallback(h.deps, first())).toMatchObject({
      kind: 'failed',
      reason: 'outbound_error',
    });
  });

  it('still counts a 2xx whose body is too large to read as delivered', async () => {
    const h = setup();
    h.deps = {
      ...h.deps,
      http: {
        request: async (request) => ({
          status: 200,
          headers: {},
          url: request.url,
          body: (async function* () {
            yield Buffer.from('x');
            throw new OutboundTooLargeError('too large');
          })(),
        }),
      },
    };
    expect(await deliverCallback(h.deps, first())).toMatchObject({ kind: 'delivered', status: 200 });
  });

  it('fails after the last attempt of the schedule and hands the event to the dead letters', async () => {
    const h = setup({ fallback: { status: 500 }, retryDelays: [1, 2, 3] });

    const outcomes = await drain(h, first());

    expect(outcomes.map((o) => o.kind)).toEqual(['retry', 'retry', 'retry', 'failed']);
    expect(outcomes.at(-1)).toEqual({ kind: 'failed', attempt: 4, status: 500, reason: 'exhausted' });
    expect(h.http.requests).toHaveLength(4);
    expect(new Set(h.http.requests.map((r) => r.headers?.['webhook-id'])).size).toBe(1);
    expect(stored(h).callback).toMatchObject({ state: 'failed', attempts: 4, last_status: 500 });
    expect(stored(h).state).toBe('completed');
    expect(h.queue.deadLetters).toHaveLength(1);
    const [letter] = h.queue.deadLetters;
    expect(letter).toMatchObject({
      clientId: CLIENT,
      exportId: anExport().id,
      eventId: callbackEventId(anExport().id),
      reason: 'exhausted',
      attempts: 4,
      lastStatus: 500,
      failedAt: h.clock.now().toISOString(),
    });
    expect(letter!.event).toEqual(bodies(h).at(-1));
  });

  it('makes ten attempts with the default schedule', async () => {
    const h = setup({ fallback: { status: 500 } });
    // About three days, carried in hops of at most 15 minutes.
    const outcomes = await drain(h, first(), 1000);
    expect(h.http.requests).toHaveLength(10);
    const span = Number(header(h, 9, 'webhook-timestamp')) - Number(header(h, 0, 'webhook-timestamp'));
    expect(span).toBe(DEFAULT_RETRY_DELAYS.reduce((a, b) => a + b, 0));
    expect(outcomes.filter((o) => o.kind === 'retry')).toHaveLength(9);
    expect(outcomes.at(-1)).toMatchObject({ kind: 'failed', reason: 'exhausted', attempt: 10 });
  });

  it('honours a longer Retry-After', async () => {
    const h = setup({ answers: [{ status: 429, headers: { 'retry-after': '120' } }] });

    const outcome = await deliverCallback(h.deps, first());

    expect(outcome).toMatchObject({ kind: 'retry', retryAfterSeconds: 120 });
    expect(h.queue.callbacks[0]!.delaySeconds).toBe(120);
  });

  it('carries a wait longer than 15 minutes through re-enqueued hops, without POSTing early', async () => {
    const h = setup({ answers: [{ status: 503, headers: { 'retry-after': '3600' } }, { status: 200 }] });

    const outcomes = await drain(h, first());

    expect(outcomes.map((o) => o.kind)).toEqual(['retry', 'deferred', 'deferred', 'deferred', 'delivered']);
    expect(outcomes.slice(1, 4)).toEqual([
      { kind: 'deferred', delaySeconds: 900 },
      { kind: 'deferred', delaySeconds: 900 },
      { kind: 'deferred', delaySeconds: 900 },
    ]);
    expect(h.http.requests).toHaveLength(2);
    const timestamps = [0, 1].map((i) => Number(header(h, i, 'webhook-timestamp')));
    expect(timestamps[1]! - timestamps[0]!).toBe(3600);
  });

  it('defers a message that is not due without reading the export', async () => {
    const h = setup();
    const notBefore = new Date(h.clock.now().getTime() + 2000 * 1000).toISOString();
    const message = { ...first(), attempt: 2, notBefore };
    const get = jest.spyOn(h.exports, 'get');

    expect(await deliverCallback(h.deps, message)).toEqual({ kind: 'deferred', delaySeconds: 900 });
    expect(h.queue.callbacks).toEqual([{ message, delaySeconds: 900 }]);
    expect(get).not.toHaveBeenCalled();
    expect(h.http.requests).toEqual([]);
  });

  it('signs with both secrets during a rotation, each verifying alone; an expired one is not used', async () => {
    const [current, previous, expired] = [aSecret(), aSecret(), aSecret()];
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    const h = setup({
      now,
      secrets: [
        { secret: current, createdAt: '2025-01-02T00:00:00.000Z', expiresAt: null },
        {
          secret: previous,
          createdAt: '2025-01-01T00:00:00.000Z',
          expiresAt: new Date(now.getTime() + 3_600_000).toISOString(),
        },
        {
          secret: expired,
          createdAt: '2024-01-01T00:00:00.000Z',
          expiresAt: new Date(now.getTime() - 1000).toISOString(),
        },
      ],
    });

    await deliverCallback(h.deps, first());

    const [request] = h.http.requests;
    expect(header(h, 0, 'webhook-signature').split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(String(request!.body), request!.headers!)).toMatchObject({
      type: 'data_export.completed',
    });
    expect(new Webhook(previous).verify(String(request!.body), request!.headers!)).toMatchObject({
      type: 'data_export.completed',
    });
    expect(() => new Webhook(expired).verify(String(request!.body), request!.headers!)).toThrow();
  });

  it('fails without POSTing when the client has no signing secret', async () => {
    const h = setup({ secrets: null });

    const outcome = await deliverCallback(h.deps, first());

    expect(outcome).toEqual({ kind: 'failed', attempt: 1, status: null, reason: 'no_signing_secret' });
    expect(h.http.requests).toEqual([]);
    expect(h.queue.deadLetters).toEqual([
      expect.objectContaining({ reason: 'no_signing_secret', event: null }),
    ]);
    expect(stored(h).callback?.state).toBe('failed');
  });

  it.each([
    ['not_found', { ...first(), exportId: '00000000-0000-4000-8000-000000000000' }, anExport()],
    ['no_callback_url', first(), anExport({ callbackUrl: null, callback: null })],
    ['not_terminal', first(), anExport({ state: 'processing', callback: null })],
    [
      'settled',
      first(),
      anExport({ callback: { state: 'delivered', attempts: 1, last_status: 200, last_attempt_at: null } }),
    ],
    [
      'stale',
      { ...first(), attempt: 5 },
      anExport({ callback: { state: 'pending', attempts: 1, last_status: 500, last_attempt_at: null } }),
    ],
    [
      'stale',
      { ...first(), attempt: 1 },
      anExport({ callback: { state: 'pending', attempts: 3, last_status: 500, last_attempt_at: null } }),
    ],
  ] as const)('skips (%s) without POSTing or writing', async (reason, message, exp) => {
    const h = setup({ exp });
    const update = jest.spyOn(h.exports, 'updateCallback');
    expect(await deliverCallback(h.deps, message)).toEqual({ kind: 'skipped', reason });
    expect(h.http.requests).toEqual([]);
    expect(update).not.toHaveBeenCalled();
    expect(h.queue.callbacks).toEqual([]);
  });

  it('skips a duplicate that lost the conditional write, and sends no second retry', async () => {
    const h = setup({ answers: [{ status: 500 }] });
    jest
      .spyOn(h.exports, 'updateCallback')
      .mockRejectedValueOnce(new ConflictError('another worker recorded attempt 1'));

    expect(await deliverCallback(h.deps, first())).toEqual({ kind: 'skipped', reason: 'conflict' });
    expect(h.queue.callbacks).toEqual([]);
  });

  it('resumes a recorded attempt whose next message was not sent, without POSTing again', async () => {
    const h = setup({ answers: [{ status: 500 }] });
    h.queue.failNext = 1;

    await expect(deliverCallback(h.deps, first())).rejects.toThrow(DependencyUnavailableError);
    expect(stored(h).callback).toMatchObject({ state: 'pending', attempts: 1 });
    h.clock.advance(2000);

    // The queue redelivers attempt 1.
    const outcome = await deliverCallback(h.deps, first());

    const notBefore = new Date(h.clock.now().getTime() + 3000).toISOString();
    expect(outcome).toEqual({ kind: 'resumed', next: { ...first(), attempt: 2, notBefore } });
    expect(h.http.requests).toHaveLength(1);
    expect(h.queue.callbacks).toEqual([{ message: { ...first(), attempt: 2, notBefore }, delaySeconds: 3 }]);
  });

  it('makes one POST per attempt when a retry message is duplicated', async () => {
    const h = setup({ answers: [{ status: 500 }, { status: 500 }, { status: 200 }] });
    await deliverCallback(h.deps, first());
    const [retry] = h.queue.callbacks.splice(0);
    h.clock.advance(retry!.delaySeconds * 1000);

    // Attempt 2 arrives twice (SQS at-least-once).
    const outcomes = [
      await deliverCallback(h.deps, retry!.message),
      await deliverCallback(h.deps, retry!.message),
    ];

    expect(outcomes.map((o) => o.kind)).toEqual(['retry', 'resumed']);
    expect(h.http.requests).toHaveLength(2);
    // Both chains now ask for attempt 3: only the first of them POSTs.
    const [a, b] = h.queue.callbacks.splice(0);
    h.clock.advance(Math.max(a!.delaySeconds, b!.delaySeconds) * 1000);
    const third = [await deliverCallback(h.deps, a!.message), await deliverCallback(h.deps, b!.message)];
    expect(third.map((o) => o.kind)).toEqual(['delivered', 'skipped']);
    expect(h.http.requests).toHaveLength(3);
    expect(stored(h).callback).toMatchObject({ state: 'delivered', attempts: 3 });
  });

  it('propagates a failing port so that the queue retries the message', async () => {
    const h = setup({ answers: [{ status: 200 }] });
    jest
      .spyOn(h.exports, 'updateCallback')
      .mockRejectedValueOnce(new DependencyUnavailableError('DynamoDB throttled'));
    await expect(deliverCallback(h.deps, first())).rejects.toThrow(DependencyUnavailableError);
  });

  it('propagates an unexpected error of the HTTP client instead of counting it as an attempt', async () => {
    const h = setup({ answers: [new TypeError('bug')] });
    const update = jest.spyOn(h.exports, 'updateCallback');
    await expect(deliverCallback(h.deps, first())).rejects.toThrow(TypeError);
    expect(update).not.toHaveBeenCalled();
  });
});

describe('replayCallback', () => {
  const failed: CallbackStatus = {
    state: 'failed',
    attempts: 10,
    last_status: 500,
    last_attempt_at: '2025-03-04T10:00:00.000Z',
  };

  it('resets a failed callback to pending and starts a new series with the same webhook-id', async () => {
    const h = setup({ exp: anExport({ callback: failed }), answers: [{ status: 200 }] });

    const result = await replayCallback(h.deps, anExport().id);

    expect(result.previous).toEqual(failed);
    expect(result.message).toEqual({
      kind: 'callback',
      clientId: CLIENT,
      exportId: anExport().id,
      eventId: callbackEventId(anExport().id),
      attempt: 1,
    });
    expect(h.queue.callbacks).toEqual([{ message: result.message, delaySeconds: 0 }]);
    expect(stored(h).callback).toEqual({ ...failed, state: 'pending', attempts: 0 });

    h.queue.callbacks.splice(0);
    expect(await deliverCallback(h.deps, result.message)).toMatchObject({ kind: 'delivered', attempt: 1 });
    expect(header(h, 0, 'webhook-id')).toBe(callbackEventId(anExport().id));
    expect(stored(h).state).toBe('completed');
  });

  it('makes messages of the earlier series stale', async () => {
    const h = setup({
      exp: anExport({ callback: { state: 'pending', attempts: 4, last_status: 500, last_attempt_at: null } }),
    });
    await replayCallback(h.deps, anExport().id, { force: true });
    expect(await deliverCallback(h.deps, { ...first(), attempt: 5 })).toEqual({
      kind: 'skipped',
      reason: 'stale',
    });
  });

  it('refuses a pending callback unless forced', async () => {
    const pending = { state: 'pending', attempts: 2, last_status: 500, last_attempt_at: null } as const;
    const h = setup({ exp: anExport({ callback: pending }) });
    await expect(replayCallback(h.deps, anExport().id)).rejects.toThrow(InvalidStateError);
    expect(h.queue.callbacks).toEqual([]);
    await expect(replayCallback(h.deps, anExport().id, { force: true })).resolves.toMatchObject({
      previous: pending,
    });
    expect(h.queue.callbacks).toHaveLength(1);
  });

  it('replays a delivered callback too', async () => {
    const delivered = { state: 'delivered', attempts: 1, last_status: 200, last_attempt_at: null } as const;
    const h = setup({ exp: anExport({ callback: delivered }) });
    await expect(replayCallback(h.deps, anExport().id)).resolves.toMatchObject({ previous: delivered });
    expect(stored(h).callback).toMatchObject({ state: 'pending', attempts: 0 });
  });

  it('refuses an unknown export, one without callback_url, and one not terminal', async () => {
    await expect(replayCallback(setup().deps, '00000000-0000-4000-8000-000000000000')).rejects.toThrow(
      NotFoundError,
    );
    await expect(
      replayCallback(setup({ exp: anExport({ callbackUrl: null }) }).deps, anExport().id),
    ).rejects.toThrow(InvalidStateError);
    await expect(
      replayCallback(setup({ exp: anExport({ state: 'processing', callback: null }) }).deps, anExport().id),
    ).rejects.toThrow(InvalidStateError);
  });
});

describe('callback messages', () => {
  it('starts with attempt 1 and the export-derived event id, and parses with the message schema', () => {
    const message = firstCallbackMessage(anExport());
    expect(message).toEqual({
      kind: 'callback',
      clientId: CLIENT,
      exportId: anExport().id,
      eventId: `msg_${anExport().id}`,
      attempt: 1,
    });
    expect(callbackMessageSchema.parse(message)).toEqual(message);
    const withWait = { ...message, attempt: 3, notBefore: '2025-03-01T10:00:05.000Z' };
    expect(callbackMessageSchema.parse(withWait)).toEqual(withWait);
  });

  it.each([
    { attempt: 0 },
    { attempt: 1.5 },
    { exportId: 'not-a-uuid' },
    { eventId: '' },
    { notBefore: 'tomorrow' },
    { extra: true },
  ])('refuses %j', (change) => {
    expect(callbackMessageSchema.safeParse({ ...firstCallbackMessage(anExport()), ...change }).success).toBe(
      false,
    );
  });
});
