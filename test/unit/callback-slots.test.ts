import type { ExportRecord } from '../../lambdas/core/model';
import type { OutboundRequest, OutboundResponse } from '../../lambdas/core/ports';
import {
  CALLBACK_SLOTS,
  type CallbackOutcome,
  CallbackSlots,
  deliverCallback,
  firstCallbackMessage,
} from '../../lambdas/core/use-cases/callbacks';
import { anExport, CLIENT, setup } from '../helpers/callback-harness';
import { FakeCredentialRepository } from '../helpers/fakes';

/**
 * Issue 25, finding 4: 400 hanging callbacks of one client delayed another client's callback by 146 s. A
 * consumer now makes at most CALLBACK_SLOTS.perClient deliveries of one client at once (fewer, one, to
 * endpoints whose last attempt got no answer); the rest wait on the queue, and other clients' go through.
 */

const OTHER = 'globex';

/** An HTTP port whose answers to `hanging` URLs wait until `release()`; others answer 204 at once. */
const gatedHttp = (hanging: string) => {
  const requests: OutboundRequest[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const respond = (request: OutboundRequest): OutboundResponse => ({
    status: 204,
    headers: {},
    url: request.url,
    body: (async function* () {})(),
  });
  return {
    requests,
    release: () => open(),
    request: async (request: OutboundRequest): Promise<OutboundResponse> => {
      requests.push(request);
      if (request.url.startsWith(hanging)) await gate;
      return respond(request);
    },
  };
};

const scenario = async () => {
  const h = setup();
  const http = gatedHttp('https://slow.example/');
  const client = (await h.deps.credentials.getClient(CLIENT))!;
  const credentials = new FakeCredentialRepository();
  credentials.clients.set(CLIENT, client);
  credentials.clients.set(OTHER, { ...client, clientId: OTHER });
  h.exports.items.clear();
  const add = (clientId: string, n: number, overrides: Partial<ExportRecord> = {}): ExportRecord => {
    const exp = anExport({
      id: `${clientId}-${n}`,
      clientId,
      callbackUrl: clientId === CLIENT ? `https://slow.example/hooks/${n}` : 'https://fast.example/hooks',
      ...overrides,
    });
    h.exports.items.set(`${clientId}/${exp.id}`, exp);
    return exp;
  };
  const slots = new CallbackSlots();
  const deps = { ...h.deps, credentials, http, slots };
  return {
    h,
    http,
    slots,
    add,
    deliver: (exp: ExportRecord, attempt = 1) =>
      deliverCallback(deps, { ...firstCallbackMessage(exp), attempt }),
  };
};

/** Lets every started delivery run up to where it waits. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('callbacks of one client cannot starve another client', () => {
  it('holds at most CALLBACK_SLOTS.perClient deliveries of a client at once; the rest wait on the queue', async () => {
    const { h, http, slots, add, deliver } = await scenario();
    const hanging: Promise<CallbackOutcome>[] = [];
    for (let n = 0; n < CALLBACK_SLOTS.perClient; n++) hanging.push(deliver(add(CLIENT, n)));
    await settle();
    expect(slots.inFlight(CLIENT)).toBe(CALLBACK_SLOTS.perClient);

    // Past the bound: back on the queue, no POST, no attempt recorded.
    const waiting = add(CLIENT, 99);
    expect(await deliver(waiting)).toEqual({
      kind: 'deferred',
      delaySeconds: CALLBACK_SLOTS.deferSeconds,
      busy: true,
    });
    expect(h.queue.callbacks).toEqual([
      { message: firstCallbackMessage(waiting), delaySeconds: CALLBACK_SLOTS.deferSeconds },
    ]);
    expect(h.exports.items.get(`${CLIENT}/${waiting.id}`)?.callback?.attempts).toBe(0);

    // Another client's callback goes through at once.
    expect(await deliver(add(OTHER, 1))).toMatchObject({ kind: 'delivered', status: 204 });

    http.release();
    expect((await Promise.all(hanging)).map((o) => o.kind)).toEqual(
      Array(CALLBACK_SLOTS.perClient).fill('delivered'),
    );
    expect(slots.inFlight(CLIENT)).toBe(0);
    // Its turn now: delivered when the queue gives it back.
    expect(await deliver(waiting)).toMatchObject({ kind: 'delivered' });
    expect(http.requests.filter((r) => r.url.startsWith('https://slow.example/'))).toHaveLength(
      CALLBACK_SLOTS.perClient + 1,
    );
  });

  it('gives an endpoint whose last attempt got no answer one slot (the slow lane); its client keeps the others', async () => {
    const { http, slots, add, deliver, h } = await scenario();
    const timedOut = {
      state: 'pending',
      attempts: 1,
      last_status: null,
      last_attempt_at: h.clock.now().toISOString(),
    } as const;
    const retry = (exp: ExportRecord) => deliver(exp, 2);
    const first = retry(add(CLIENT, 1, { callback: timedOut }));
    await settle();
    expect(await retry(add(CLIENT, 2, { callback: timedOut }))).toMatchObject({
      kind: 'deferred',
      busy: true,
    });
    // A first attempt of the same client still has room.
    const fresh = deliver(add(CLIENT, 3));
    await settle();
    expect(slots.inFlight(CLIENT)).toBe(2);
    http.release();
    expect((await Promise.all([first, fresh])).map((o) => o.kind)).toEqual(['delivered', 'delivered']);
  });

  it('gives the slot back when the attempt throws (a dependency failure), so the bound never leaks', async () => {
    const h = setup();
    const slots = new CallbackSlots({ perClient: 1, slowPerClient: 1 });
    const failing = {
      request: async () => {
        throw new Error('renderer down');
      },
    };
    await expect(
      deliverCallback({ ...h.deps, http: failing, slots }, firstCallbackMessage(anExport())),
    ).rejects.toThrow('renderer down');
    expect(slots.inFlight(CLIENT)).toBe(0);
  });
});
