import { Webhook } from 'standardwebhooks';
import { ConflictError, DependencyUnavailableError } from '../../lambdas/core/errors';
import {
  OutboundBlockedError,
  OutboundNetworkError,
  OutboundTooLargeError,
} from '../../lambdas/core/outbound';
import {
  CALLBACK_TIMEOUT_MS,
  callbackEventId,
  deliverCallback,
} from '../../lambdas/core/use-cases/callbacks';
import { DEFAULT_RETRY_DELAYS, type ExportEvent } from '../../lambdas/core/webhooks';
import {
  anExport,
  aSecret,
  bodies,
  CLIENT,
  drain,
  first,
  header,
  setup,
  stored,
} from '../helpers/callback-harness';

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
