import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { IDEMPOTENCY_LOCK_SECONDS } from '../../lambdas/core/use-cases/idempotency';
import { makeCreateExportHandler } from '../../lambdas/handlers/http/create-export';
import { makeCreateJobHandler } from '../../lambdas/handlers/http/create-job';
import type { ApiHandler } from '../../lambdas/shared/http';
import { aJob, aJobRequest, apiEvent, lambdaContext } from '../helpers/factories';
import { type FakeClock, type FakeDeps, fakeDeps } from '../helpers/fakes';

/**
 * Issue 25: an Idempotency-Key survives a crash at any step of a create. A crash is a request that stops
 * where it is and never runs another line (no error handler, no release of the key): here, a step whose
 * promise never settles. Its retry, once the key's lock has run out, must answer with the one record the
 * key reserved, whether the crash came before it was written, after, or after its answer was stored.
 */

const call = async (handler: ApiHandler, event: APIGatewayProxyEvent, context = lambdaContext()) => {
  const result = (await handler(event, context)) as APIGatewayProxyResult & {
    headers: Record<string, string>;
  };
  return { ...result, json: JSON.parse(result.body) as Record<string, unknown> };
};

/** `object[method]` runs once more, then the process "dies": this call and everything after it hang. */
const dieAfter = (object: object, method: string): (() => void) => {
  const target = object as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const original = target[method]!.bind(object);
  let armed = true;
  target[method] = async (...args: unknown[]) => {
    const result = await original(...args);
    if (!armed) return result;
    armed = false;
    return new Promise(() => undefined);
  };
  return () => {
    armed = false;
  };
};

const STEPS = {
  jobs: [
    ['idempotency', 'claim'],
    ['jobs', 'create'],
    ['queue', 'sendJob'],
    ['jobs', 'markEnqueued'],
    ['idempotency', 'complete'],
  ],
  exports: [
    ['idempotency', 'claim'],
    ['exports', 'create'],
    ['queue', 'sendExport'],
    ['exports', 'markEnqueued'],
    ['idempotency', 'complete'],
  ],
} as const;

/**
 * The context of the request that crashes. A dead process runs no timer either: without the remaining-time
 * clock, middy starts no early-timeout timer for it (one that would answer the hung request 30 s later,
 * after the test, and hold Jest's worker until then).
 */
const crashingContext = (): Context =>
  ({ ...lambdaContext(), getRemainingTimeInMillis: undefined }) as unknown as Context;

/** Lets the first request run into its crash: every promise it can settle has settled. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('an Idempotency-Key survives a crash at any step of a create', () => {
  it.each(STEPS.jobs)(
    'POST /v1/jobs: crash right after %s.%s, then the same request',
    async (port, method) => {
      const deps = fakeDeps();
      const handler = makeCreateJobHandler(deps);
      const request = () => apiEvent({ body: aJobRequest(), headers: { 'Idempotency-Key': 'menu-1' } });
      dieAfter(deps[port as keyof FakeDeps] as object, method);
      const crashed = call(handler, request(), crashingContext());
      await settle();

      // While the lock holds, a retry is told the first is in flight (unless its answer was stored: then it is
      // replayed); after, it gets the one job.
      expect((await call(handler, request())).statusCode).toBe(method === 'complete' ? 201 : 409);
      (deps.clock as FakeClock).advance((IDEMPOTENCY_LOCK_SECONDS + 1) * 1000);
      const retried = await call(handler, request());
      expect(retried.statusCode).toBe(201);
      const again = await call(handler, request());
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');

      expect(deps.jobs.items.size).toBe(1);
      const [job] = [...deps.jobs.items.values()];
      expect(retried.json.id).toBe(job!.id);
      expect(again.json.id).toBe(job!.id);
      // On its queue (twice at most: the crashed request may have sent it already), and out of the outbox.
      expect(deps.queue.jobs.map((q) => q.message.jobId)).toContain(job!.id);
      expect(new Set(deps.queue.jobs.map((q) => q.message.jobId))).toEqual(new Set([job!.id]));
      expect(deps.jobs.outbox.size).toBe(0);
      void crashed;
    },
  );

  it.each(STEPS.exports)(
    'POST /v1/data_exports: crash right after %s.%s, then the same request',
    async (port, method) => {
      const deps = fakeDeps();
      const job = aJob({ state: 'completed' });
      await deps.jobs.create(job);
      const handler = makeCreateExportHandler(deps);
      const request = () =>
        apiEvent({ body: { id: job.id, type: 'catalog' }, headers: { 'Idempotency-Key': 'export-1' } });
      dieAfter(deps[port as keyof FakeDeps] as object, method);
      const crashed = call(handler, request(), crashingContext());
      await settle();

      expect((await call(handler, request())).statusCode).toBe(method === 'complete' ? 201 : 409);
      (deps.clock as FakeClock).advance((IDEMPOTENCY_LOCK_SECONDS + 1) * 1000);
      const retried = await call(handler, request());
      expect(retried.statusCode).toBe(201);
      expect((await call(handler, request())).json.id).toBe(retried.json.id);

      expect(deps.exports.items.size).toBe(1);
      const [exp] = [...deps.exports.items.values()];
      expect(retried.json.id).toBe(exp!.id);
      expect(new Set(deps.queue.exports.map((m) => m.exportId))).toEqual(new Set([exp!.id]));
      void crashed;
    },
  );

  it('refuses another body under a key whose first request crashed (422), and makes nothing', async () => {
    const deps = fakeDeps();
    const handler = makeCreateJobHandler(deps);
    dieAfter(deps.jobs, 'create');
    void call(
      handler,
      apiEvent({ body: aJobRequest(), headers: { 'Idempotency-Key': 'menu-2' } }),
      crashingContext(),
    );
    await settle();
    (deps.clock as FakeClock).advance((IDEMPOTENCY_LOCK_SECONDS + 1) * 1000);
    const other = await call(
      handler,
      apiEvent({
        body: aJobRequest('new_menu', { processing_type: 'rush' }),
        headers: { 'Idempotency-Key': 'menu-2' },
      }),
    );
    expect(other.statusCode).toBe(422);
    expect(deps.jobs.items.size).toBe(1);
  });
});
