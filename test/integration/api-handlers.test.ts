import { randomUUID } from 'node:crypto';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { reconcileOutbox } from '../../lambdas/core/use-cases/reconcile';
import { makeCreateExportHandler } from '../../lambdas/handlers/http/create-export';
import { makeCreateFileHandler } from '../../lambdas/handlers/http/create-file';
import { makeCreateJobHandler } from '../../lambdas/handlers/http/create-job';
import { makeGetExportHandler } from '../../lambdas/handlers/http/get-export';
import { makeGetFileHandler } from '../../lambdas/handlers/http/get-file';
import { makeGetJobHandler } from '../../lambdas/handlers/http/get-job';
import { makeListJobsHandler } from '../../lambdas/handlers/http/list-jobs';
import type { ApiHandler } from '../../lambdas/shared/http';
import { aJob, aJobRequest, apiEvent, eventually, lambdaContext, withJobData } from '../helpers/factories';
import { emulatorDeps, sqsClient, uniqueClient } from '../helpers/integration';
import { postUploadForm } from '../helpers/upload-form';

const deps = emulatorDeps();
const call = async (handler: ApiHandler, event: APIGatewayProxyEvent) => {
  const res = await handler(event, lambdaContext());
  return { ...res, headers: (res.headers ?? {}) as Record<string, string>, json: JSON.parse(res.body) };
};
const createJob = makeCreateJobHandler(deps);
const getJob = makeGetJobHandler(deps);

/** Reads the queue until a message with `predicate` shows up; other tests' messages are left alone. */
const findMessage = (queueUrl: string, predicate: (body: Record<string, unknown>) => boolean) =>
  eventually(
    async () => {
      const { Messages = [] } = await sqsClient().send(
        new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 0 }),
      );
      return Messages.map((m) => JSON.parse(m.Body!)).find(predicate);
    },
    { what: 'the queued message' },
  );

describe('jobs against the emulators', () => {
  it('stores the job and puts it on the queue of its processing type', async () => {
    const client = uniqueClient();
    const res = await call(
      createJob,
      apiEvent({ body: aJobRequest('new_menu', { processing_type: 'rush' }), clientId: client }),
    );
    expect(res.statusCode).toBe(201);
    const message = await findMessage(process.env.JOBS_RUSH_QUEUE_URL!, (m) => m.jobId === res.json.id);
    expect(message).toEqual({ kind: 'job', clientId: client, jobId: res.json.id });
    const read = await call(
      getJob,
      apiEvent({ method: 'GET', pathParameters: { id: res.json.id }, clientId: client }),
    );
    expect(read.json).toEqual(res.json);
  });

  it('same Idempotency-Key and body → the same job; another body → 422', async () => {
    const client = uniqueClient();
    const key = randomUUID();
    const first = await call(
      createJob,
      apiEvent({ body: aJobRequest(), clientId: client, headers: { 'Idempotency-Key': key } }),
    );
    const again = await call(
      createJob,
      apiEvent({ body: aJobRequest(), clientId: client, headers: { 'Idempotency-Key': key } }),
    );
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json.id).toBe(first.json.id);
    const other = await call(
      createJob,
      apiEvent({
        body: aJobRequest('new_retail_catalog'),
        clientId: client,
        headers: { 'Idempotency-Key': key },
      }),
    );
    expect([other.statusCode, other.json.code]).toEqual([422, 'idempotency_key_mismatch']);
    const listed = await call(makeListJobsHandler(deps), apiEvent({ method: 'GET', clientId: client }));
    expect(listed.json.data).toHaveLength(1);
  });

  it('concurrent repeats of one Idempotency-Key create one job', async () => {
    const client = uniqueClient();
    const key = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(
          createJob,
          apiEvent({ body: aJobRequest(), clientId: client, headers: { 'Idempotency-Key': key } }),
        ),
      ),
    );
    const created = results.filter((r) => r.statusCode === 201);
    expect(new Set(created.map((r) => r.json.id)).size).toBe(1);
    for (const r of results.filter((r) => r.statusCode !== 201))
      expect(r.json.code).toBe('idempotency_key_in_use');
    const listed = await call(makeListJobsHandler(deps), apiEvent({ method: 'GET', clientId: client }));
    expect(listed.json.data).toHaveLength(1);
  });

  it('answers 404 for another client’s job and export, exactly as for an unknown id', async () => {
    const owner = uniqueClient();
    const job = await call(createJob, apiEvent({ body: aJobRequest(), clientId: owner }));
    const exp = await call(
      makeCreateExportHandler(deps),
      apiEvent({ resource: '/v1/data_exports', body: { id: job.json.id, type: 'catalog' }, clientId: owner }),
    );
    expect(exp.statusCode).toBe(201);
    const intruder = uniqueClient();
    const theirs = await call(
      getJob,
      apiEvent({ method: 'GET', pathParameters: { id: job.json.id }, clientId: intruder }),
    );
    const unknown = await call(
      getJob,
      apiEvent({ method: 'GET', pathParameters: { id: randomUUID() }, clientId: intruder }),
    );
    expect(theirs.statusCode).toBe(404);
    expect({ ...theirs.json, request_id: null, detail: null }).toEqual({
      ...unknown.json,
      request_id: null,
      detail: null,
    });
    const theirExport = await call(
      makeGetExportHandler(deps),
      apiEvent({ method: 'GET', pathParameters: { id: exp.json.id }, clientId: intruder }),
    );
    expect(theirExport.statusCode).toBe(404);
    const exportOfTheirJob = await call(
      makeCreateExportHandler(deps),
      apiEvent({
        resource: '/v1/data_exports',
        body: { id: job.json.id, type: 'catalog' },
        clientId: intruder,
      }),
    );
    expect(exportOfTheirJob.statusCode).toBe(404);
  });

  it('takes an uploaded file as a catalog source after a real presigned form upload', async () => {
    const client = uniqueClient();
    const file = await call(
      makeCreateFileHandler(deps),
      apiEvent({
        resource: '/v1/files',
        body: { filename: 'menu.csv', content_type: 'text/csv' },
        clientId: client,
      }),
    );
    expect(file.statusCode).toBe(201);
    const early = await call(
      createJob,
      apiEvent({ body: withJobData('new_menu', { catalog_sources: [file.json.id] }), clientId: client }),
    );
    expect(early.json.errors[0].code).toBe('file_not_uploaded');
    const csv = 'category,name,price\nMains,Burger,9.50\n';
    const posted = await postUploadForm(
      file.json.upload_form.url,
      file.json.upload_form.fields,
      csv,
      'menu.csv',
    );
    expect(posted.status).toBe(204);
    const read = await call(
      makeGetFileHandler(deps),
      apiEvent({ method: 'GET', pathParameters: { id: file.json.id }, clientId: client }),
    );
    expect(read.json).toMatchObject({ state: 'uploaded', size_bytes: Buffer.byteLength(csv) });
    const job = await call(
      createJob,
      apiEvent({ body: withJobData('new_menu', { catalog_sources: [file.json.id] }), clientId: client }),
    );
    expect(job.statusCode).toBe(201);
  });
});

describe('reconciler', () => {
  it('enqueues a job whose enqueue was never confirmed, once, and clears the outbox', async () => {
    const client = uniqueClient();
    const job = aJob({ clientId: client, createdAt: new Date(Date.now() - 120_000).toISOString() });
    await deps.jobs.create(job); // written, but the request "crashed" before SQS
    const first = await reconcileOutbox(deps, { limit: 1000 });
    expect(first.requeued).toBeGreaterThanOrEqual(1);
    await findMessage(process.env.JOBS_STANDARD_QUEUE_URL!, (m) => m.jobId === job.id);
    const again = await deps.outbox.pending(new Date().toISOString(), 1000);
    expect(again.find((e) => e.id === job.id)).toBeUndefined();
  });

  it('leaves records younger than the grace period to the request that is creating them', async () => {
    const client = uniqueClient();
    const job = aJob({ clientId: client, createdAt: new Date().toISOString() });
    await deps.jobs.create(job);
    await reconcileOutbox(deps, { limit: 1000 });
    const pending = await deps.outbox.pending(new Date(Date.now() + 1000).toISOString(), 1000);
    expect(pending.find((e) => e.id === job.id)).toBeDefined();
  });
});
