import { InvalidStateError, NotFoundError } from '../../lambdas/core/errors';
import { callbackMessageSchema } from '../../lambdas/core/messages';
import type { CallbackStatus } from '../../lambdas/core/model';
import {
  callbackEventId,
  deliverCallback,
  firstCallbackMessage,
  replayCallback,
} from '../../lambdas/core/use-cases/callbacks';
import { anExport, CLIENT, first, header, setup, stored } from '../helpers/callback-harness';

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
