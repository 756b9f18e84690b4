import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { DynamoCredentialRepository } from '../../lambdas/adapters/dynamo-credential-repository';
import type { DocumentTable } from '../../lambdas/adapters/dynamo-document';
import { DynamoExportRepository } from '../../lambdas/adapters/dynamo-export-repository';
import { DynamoFileRepository } from '../../lambdas/adapters/dynamo-file-repository';
import { DynamoIdempotencyStore } from '../../lambdas/adapters/dynamo-idempotency-store';
import { DynamoJobRepository } from '../../lambdas/adapters/dynamo-job-repository';
import { DynamoOutboxReader } from '../../lambdas/adapters/dynamo-outbox-reader';
import type { TableContext } from '../../lambdas/adapters/dynamo-table';
import { SqsWorkQueue } from '../../lambdas/adapters/sqs-work-queue';
import { objectKeys } from '../../lambdas/core/ports';
import { issueKey } from '../../lambdas/core/use-cases/credentials';
import { makeAuthorizerHandler } from '../../lambdas/handlers/authorizer';
import { makeCancelJobHandler } from '../../lambdas/handlers/http/cancel-job';
import { makeCreateExportHandler } from '../../lambdas/handlers/http/create-export';
import { makeCreateFileHandler } from '../../lambdas/handlers/http/create-file';
import { makeCreateJobHandler } from '../../lambdas/handlers/http/create-job';
import { makeGetExportHandler } from '../../lambdas/handlers/http/get-export';
import { makeGetFileHandler } from '../../lambdas/handlers/http/get-file';
import { makeGetJobHandler } from '../../lambdas/handlers/http/get-job';
import { makeListJobsHandler } from '../../lambdas/handlers/http/list-jobs';
import { makeOpsCompleteJobHandler } from '../../lambdas/handlers/http/ops-complete-job';
import { makeOpsFailJobHandler } from '../../lambdas/handlers/http/ops-fail-job';
import { makeOpsGetJobHandler } from '../../lambdas/handlers/http/ops-get-job';
import { makeOpsGetJobSourceHandler } from '../../lambdas/handlers/http/ops-get-job-source';
import { makeOpsListJobsHandler } from '../../lambdas/handlers/http/ops-list-jobs';
import { makeReconcilerHandler } from '../../lambdas/handlers/reconciler';
import { loadConfig } from '../../lambdas/shared/config';
import type { AppDeps } from '../../lambdas/shared/deps';
import type { ApiHandler } from '../../lambdas/shared/http';
import { sqsClient } from '../../lambdas/shared/queue-wiring';
import { table } from '../../lambdas/shared/wiring';
import { ACCESS } from '../../lib/aws/functions';
import { aJob, aJobRequest, apiEvent, epochPlus, lambdaContext, withJobData } from '../helpers/factories';
import { FakeClock } from '../helpers/fakes';
import { emulatorDeps, freshQueues, freshTable, uniqueClient } from '../helpers/integration';
import { postUploadForm } from '../helpers/upload-form';

/**
 * Least privilege that still works the first time: each function's flows run against DynamoDB (dynalite)
 * with every call recorded, and every call must be one its role allows (lib/aws/functions.ts ACCESS, which
 * the stack turns into IAM statements). A call outside the grant would be an AccessDenied in AWS.
 */
interface Call {
  readonly action: string;
  readonly index?: string;
}

const config = loadConfig(process.env);

const recording = (inner: TableContext, calls: Call[]): TableContext => {
  const record = <T>(call: Call, result: T): T => {
    calls.push(call);
    return result;
  };
  const db: DocumentTable = {
    get: (input) => record({ action: 'GetItem' }, inner.db.get(input)),
    put: (input) => record({ action: 'PutItem' }, inner.db.put(input)),
    update: (input) => record({ action: 'UpdateItem' }, inner.db.update(input)),
    delete: (input) => record({ action: 'DeleteItem' }, inner.db.delete(input)),
    query: (input) => record({ action: 'Query', index: input.IndexName }, inner.db.query(input)),
    batchGet: (name, keys, consistent) =>
      record({ action: 'BatchGetItem' }, inner.db.batchGet(name, keys, consistent)),
  };
  return { db, tableName: inner.tableName };
};

/** The function's dependencies with every repository over the recorded table. */
const over = (t: TableContext, extra: Partial<AppDeps> = {}): AppDeps => ({
  ...emulatorDeps(),
  jobs: new DynamoJobRepository(t),
  exports: new DynamoExportRepository(t),
  files: new DynamoFileRepository(t),
  credentials: new DynamoCredentialRepository(t),
  idempotency: new DynamoIdempotencyStore(t),
  outbox: new DynamoOutboxReader(t),
  ...extra,
});

/** The calls outside the grant, named (`get-job: Query GSI1`): expected to be none. */
const expectGranted = (name: string, calls: readonly Call[]) => {
  const granted = ACCESS[name]!.table;
  expect(calls.length).toBeGreaterThan(0);
  const denied = calls
    .filter((call) =>
      call.action === 'Query'
        ? !(granted.queries as readonly string[]).includes(call.index ?? '(table)')
        : !(granted.actions as readonly string[]).includes(call.action),
    )
    .map((call) => `${name}: ${call.action}${call.index ? ` ${call.index}` : ''}`);
  expect([...new Set(denied)]).toEqual([]);
};

/** A recorder per function name. */
const recorders = () => {
  const calls: Record<string, Call[]> = {};
  const of = (name: string): Call[] => {
    calls[name] ??= [];
    return calls[name];
  };
  return { calls, of };
};

const run = async (handler: ApiHandler, event: APIGatewayProxyEvent) => {
  const res = await handler(event, lambdaContext());
  return { status: res.statusCode, json: JSON.parse(res.body) };
};

describe('each function calls DynamoDB only as its role allows', () => {
  const shared = table(config);

  it('authorizer', async () => {
    const client = uniqueClient();
    const issued = await issueKey(emulatorDeps(), { clientId: client, scope: 'client' });
    const calls: Call[] = [];
    const authorize = makeAuthorizerHandler(over(recording(shared, calls)));
    await authorize({
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:eu-west-1:1:api/prod/GET/v1/jobs',
      headers: { Authorization: `Token api_key=${issued.api_key}` },
    } as never);
    expectGranted('authorizer', calls);
  });

  it('create-file, get-file (pending, then uploaded)', async () => {
    const client = uniqueClient();
    const created: Call[] = [];
    const file = await run(
      makeCreateFileHandler(over(recording(shared, created))),
      apiEvent({
        resource: '/v1/files',
        body: { filename: 'm.csv', content_type: 'text/csv' },
        clientId: client,
      }),
    );
    expect(file.status).toBe(201);
    expectGranted('create-file', created);
    const read: Call[] = [];
    const getFile = makeGetFileHandler(over(recording(shared, read)));
    const get = apiEvent({ method: 'GET', pathParameters: { id: file.json.id }, clientId: client });
    await run(getFile, get);
    await postUploadForm(file.json.upload_form.url, file.json.upload_form.fields, 'name,price\nTea,2\n');
    expect((await run(getFile, get)).json.state).toBe('uploaded');
    expectGranted('get-file', read);
  });

  it('create-job (Idempotency-Key, an uploaded source, a replay, a mismatch), get-job, list-jobs, cancel-job, create-export, get-export', async () => {
    const client = uniqueClient();
    const deps = emulatorDeps();
    const file = await run(
      makeCreateFileHandler(deps),
      apiEvent({
        resource: '/v1/files',
        body: { filename: 'm.csv', content_type: 'text/csv' },
        clientId: client,
      }),
    );
    await postUploadForm(file.json.upload_form.url, file.json.upload_form.fields, 'name,price\nTea,2\n');
    const { calls, of } = recorders();
    const depsOf = (name: string) => over(recording(shared, of(name)));

    const createJob = makeCreateJobHandler(depsOf('create-job'));
    const headers = { 'Idempotency-Key': randomUUID() };
    const body = withJobData('new_menu', { catalog_sources: [file.json.id] });
    const job = await run(createJob, apiEvent({ body, clientId: client, headers }));
    expect(job.status).toBe(201);
    expect((await run(createJob, apiEvent({ body, clientId: client, headers }))).status).toBe(201);
    expect((await run(createJob, apiEvent({ body: aJobRequest(), clientId: client, headers }))).status).toBe(
      422,
    );

    const id = { id: job.json.id };
    await run(
      makeGetJobHandler(depsOf('get-job')),
      apiEvent({ method: 'GET', pathParameters: id, clientId: client }),
    );
    const listed = await run(
      makeListJobsHandler(depsOf('list-jobs')),
      apiEvent({ method: 'GET', query: { state: 'initiated', limit: '10' }, clientId: client }),
    );
    expect(listed.json.data.map((j: { id: string }) => j.id)).toEqual([job.json.id]);

    const exportCreated = await run(
      makeCreateExportHandler(depsOf('create-export')),
      apiEvent({
        resource: '/v1/data_exports',
        body: { id: job.json.id, type: 'catalog' },
        clientId: client,
        headers: { 'Idempotency-Key': randomUUID() },
      }),
    );
    expect(exportCreated.status).toBe(201);
    await run(
      makeGetExportHandler(depsOf('get-export')),
      apiEvent({ method: 'GET', pathParameters: { id: exportCreated.json.id }, clientId: client }),
    );
    // Canceling wakes the waiting export (GSI1).
    const canceled = await run(
      makeCancelJobHandler(depsOf('cancel-job')),
      apiEvent({ pathParameters: id, clientId: client }),
    );
    expect(canceled.json.state).toBe('canceled');
    for (const [name, list] of Object.entries(calls)) expectGranted(name, list);
    expect(calls['cancel-job']).toContainEqual({ action: 'Query', index: 'GSI1' });
  });

  describe('across clients (a table of their own)', () => {
    let own: Awaited<ReturnType<typeof freshTable>>;
    let queues: Awaited<ReturnType<typeof freshQueues>>;
    beforeEach(async () => {
      own = await freshTable();
      queues = await freshQueues();
    });
    afterEach(async () => {
      await own.drop();
      await queues.drop();
    });
    const queueOf = () =>
      new SqsWorkQueue(sqsClient(config), {
        ...queues.queueUrls,
        callbackDeadLetters: queues.deadLetterQueueUrls.callbacks,
      });

    it('reconciler: the outbox, the time-out sweep, the stuck count', async () => {
      const seed = over(own, { queue: queueOf() });
      const client = uniqueClient();
      const waiting = aJob({ clientId: client });
      await seed.jobs.create(waiting);
      const overdue = aJob({ clientId: client, dueAt: '2020-01-01T00:00:00.000Z' });
      await seed.jobs.create(overdue);
      await seed.jobs.markEnqueued(client, overdue.id);
      const calls: Call[] = [];
      const reconcile = makeReconcilerHandler(
        over(recording(own, calls), {
          queue: queueOf(),
          // The test's own clock, an hour after the factory's records were made: never the real clock.
          clock: new FakeClock(new Date(epochPlus(3_600_000))),
        }),
      );
      const report = await reconcile();
      expect(report).toMatchObject({ requeued: 1, timedOut: 1 });
      expectGranted('reconciler', calls);
    });

    it('ops-list-jobs, ops-get-job, ops-complete-job, ops-fail-job', async () => {
      const deps = over(own, { queue: queueOf() });
      const client = uniqueClient();
      const inReview = async () => {
        const job = aJob({ clientId: client });
        await deps.jobs.create(job);
        await deps.jobs.transition(client, job.id, { event: 'claim', at: epochPlus(1000) });
        await deps.jobs.transition(client, job.id, { event: 'send_to_review', at: epochPlus(2000) });
        const chunks = (async function* () {
          yield JSON.stringify({ format_version: 2, categories: [], items: [] });
        })();
        await deps.catalogs.write(objectKeys.catalog(client, job.id), chunks, 'application/json');
        return job;
      };
      const [one, two] = [await inReview(), await inReview()];
      const { calls, of } = recorders();
      const depsOf = (name: string) => over(recording(own, of(name)), { queue: queueOf() });
      const ops = { scope: 'operator' as const, clientId: 'ops' };
      const listed = await run(
        makeOpsListJobsHandler(depsOf('ops-list-jobs')),
        apiEvent({ method: 'GET', query: { state: 'in_review' }, ...ops }),
      );
      expect(listed.json.data).toHaveLength(2);
      await run(
        makeOpsGetJobHandler(depsOf('ops-get-job')),
        apiEvent({ method: 'GET', pathParameters: { id: one.id }, ...ops }),
      );
      // Whatever it answers for this source, every table call it made on the way is checked.
      await run(
        makeOpsGetJobSourceHandler(depsOf('ops-get-job-source')),
        apiEvent({
          method: 'GET',
          pathParameters: { id: one.id, n: '0' },
          headers: { accept: 'application/json' },
          ...ops,
        }),
      );
      const completed = await run(
        makeOpsCompleteJobHandler(depsOf('ops-complete-job')),
        apiEvent({ pathParameters: { id: one.id }, ...ops }),
      );
      expect(completed.json.state).toBe('completed');
      const failed = await run(
        makeOpsFailJobHandler(depsOf('ops-fail-job')),
        apiEvent({
          pathParameters: { id: two.id },
          body: { code: 'unreadable', message: 'Too blurry.' },
          ...ops,
        }),
      );
      expect(failed.json.state).toBe('failed');
      for (const [name, list] of Object.entries(calls)) expectGranted(name, list);
    });
  });
});
