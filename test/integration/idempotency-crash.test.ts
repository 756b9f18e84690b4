import { spawn } from 'node:child_process';
import path from 'node:path';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { IDEMPOTENCY_LOCK_SECONDS } from '../../lambdas/core/use-cases/idempotency';
import { makeCreateExportHandler } from '../../lambdas/handlers/http/create-export';
import { makeCreateJobHandler } from '../../lambdas/handlers/http/create-job';
import { loadConfig } from '../../lambdas/shared/config';
import { buildDeps } from '../../lambdas/shared/deps';
import { ENV } from '../../lib/resources';
import { aJob, aJobRequest, apiEvent, lambdaContext } from '../helpers/factories';
import { silentLogger } from '../helpers/fakes';
import { type FreshQueues, freshQueues, uniqueClient } from '../helpers/integration';

/**
 * Issue 25: a process killed (SIGKILL) right after each step of a create, against the emulators; then the
 * same request, once the key's lock has run out, answers with exactly one record per Idempotency-Key.
 */

jest.setTimeout(120_000);

const CHILD = path.join(__dirname, '..', 'fixtures', 'local', 'create-and-die.ts');

let queues: FreshQueues;
let env: Record<string, string>;

beforeAll(async () => {
  queues = await freshQueues();
  env = {
    ...(process.env as Record<string, string>),
    [ENV.queueUrl.jobsRush]: queues.queueUrls.jobsRush,
    [ENV.queueUrl.jobsStandard]: queues.queueUrls.jobsStandard,
    [ENV.queueUrl.exports]: queues.queueUrls.exports,
  };
});

afterAll(async () => {
  await queues?.drop();
});

/** Runs the create in a child process that kills itself right after `port.method`. */
const createAndDie = (
  route: 'jobs' | 'exports',
  port: string,
  method: string,
  clientId: string,
  key: string,
  body: string,
) =>
  new Promise<NodeJS.Signals | number | null>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CHILD, route, port, method, clientId, key, body],
      { cwd: process.cwd(), env, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(signal ?? code));
  });

/** The same service code in this process, on a clock past the crashed request's lock. */
const retryDeps = () => {
  const later = (IDEMPOTENCY_LOCK_SECONDS + 1) * 1000;
  return buildDeps(loadConfig(env), {
    logger: silentLogger(),
    clock: { now: () => new Date(Date.now() + later) },
    allowLoopbackUrls: true,
  });
};

/** The steps of a create, in order: the port and method right after which the process dies. */
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

const call = async (handler: (e: never, c: never) => Promise<unknown>, event: unknown) => {
  const result = (await handler(event as never, lambdaContext() as never)) as APIGatewayProxyResult;
  return { status: result.statusCode, json: JSON.parse(result.body) as { id: string } };
};

describe('a create killed at each step, then retried with its Idempotency-Key', () => {
  it.each(STEPS.jobs)('POST /v1/jobs: killed right after %s.%s', async (port, method) => {
    const clientId = uniqueClient();
    const body = JSON.stringify(aJobRequest());
    const died = await createAndDie('jobs', port, method, clientId, 'crash-1', body);
    expect(died).toBe('SIGKILL');
    const deps = retryDeps();
    const handler = makeCreateJobHandler(deps);
    const event = () =>
      apiEvent({ rawBody: body, headers: { 'Idempotency-Key': 'crash-1' }, clientId, resource: '/v1/jobs' });
    const retried = await call(handler, event());
    expect(retried.status).toBe(201);
    expect((await call(handler, event())).json.id).toBe(retried.json.id);
    const listed = await deps.jobs.list(clientId, { limit: 10 });
    expect(listed.items.map((j) => j.id)).toEqual([retried.json.id]);
    const queued = (await queues.take(queues.queueUrls.jobsStandard)) as { jobId: string }[];
    expect(queued.filter((m) => m.jobId === retried.json.id).length).toBeGreaterThanOrEqual(1);
  });

  it.each(STEPS.exports)('POST /v1/data_exports: killed right after %s.%s', async (port, method) => {
    const clientId = uniqueClient();
    const deps = retryDeps();
    const job = aJob({ clientId, state: 'completed' });
    await deps.jobs.create(job);
    const body = JSON.stringify({ id: job.id, type: 'catalog' });
    const died = await createAndDie('exports', port, method, clientId, 'crash-2', body);
    expect(died).toBe('SIGKILL');
    const handler = makeCreateExportHandler(deps);
    const event = () =>
      apiEvent({
        rawBody: body,
        headers: { 'Idempotency-Key': 'crash-2' },
        clientId,
        resource: '/v1/data_exports',
      });
    const retried = await call(handler, event());
    expect(retried.status).toBe(201);
    expect((await call(handler, event())).json.id).toBe(retried.json.id);
    const exports = await deps.exports.listForJob(clientId, job.id);
    expect(exports.map((e) => e.id)).toEqual([retried.json.id]);
  });
});
