import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  InternalServerError,
  ProvisionedThroughputExceededException,
} from '@aws-sdk/client-dynamodb';
import { NoSuchKey, NotFound, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { KmsThrottled, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { isTransientAwsError, translateAwsErrors } from '../../lambdas/adapters/aws-errors';
import { DynamoDocumentTable } from '../../lambdas/adapters/dynamo-document';
import { DynamoFileRepository } from '../../lambdas/adapters/dynamo-file-repository';
import { DynamoIdempotencyStore } from '../../lambdas/adapters/dynamo-idempotency-store';
import { DynamoJobRepository } from '../../lambdas/adapters/dynamo-job-repository';
import { documentClient } from '../../lambdas/adapters/dynamo-marshalling';
import { S3ObjectStore } from '../../lambdas/adapters/s3-object-store';
import { SqsWorkQueue } from '../../lambdas/adapters/sqs-work-queue';
import { ConflictError, DependencyUnavailableError, NotFoundError } from '../../lambdas/core/errors';
import { makeCreateJobHandler } from '../../lambdas/handlers/http/create-job';
import { makeGetJobHandler } from '../../lambdas/handlers/http/get-job';
import { type Config, loadConfig } from '../../lambdas/shared/config';
import { dynamoDocumentClient, jobRepository } from '../../lambdas/shared/wiring';
import { aJob, aJobRequest, apiEvent, lambdaContext } from '../helpers/factories';
import { FakeClock, fakeDeps, silentLogger } from '../helpers/fakes';

/**
 * The AWS adapters over the SDK's clients (DynamoDBDocumentClient, SQSClient, S3Client), each call answered by
 * aws-sdk-client-mock: what they send, and how the SDK's errors become domain errors (a failed condition a
 * ConflictError, throttling, 5xx and time-outs a DependencyUnavailableError, a missing object NotFoundError,
 * anything else rethrown for the generic 500).
 */
const urls = {
  jobsRush: 'https://sqs.test/rush',
  jobsStandard: 'https://sqs.test/standard',
  exports: 'https://sqs.test/exports',
  callbacks: 'https://sqs.test/callbacks',
  callbackDeadLetters: 'https://sqs.test/callbacks-dlq',
};

const meta = (httpStatusCode: number) => ({ $metadata: { httpStatusCode } });
const throttled = () =>
  new ProvisionedThroughputExceededException({ message: 'Rate of requests exceeds', ...meta(400) });
const conditionFailed = (item?: Record<string, unknown>) =>
  new ConditionalCheckFailedException({
    message: 'The conditional request failed',
    ...meta(400),
    ...(item ? { Item: marshall(item, { removeUndefinedValues: true }) } : {}),
  });
/** An SDK error of a name the adapters do not know (a bug: a malformed request, a missing grant). */
const sdkError = (name: string, status: number, message = name) =>
  Object.assign(new Error(message), { name, $fault: 'client', ...meta(status) });

const ddbMock = mockClient(DynamoDBDocumentClient);
const sqsMock = mockClient(SQSClient);
const s3Mock = mockClient(S3Client);

beforeEach(() => {
  ddbMock.reset();
  sqsMock.reset();
  s3Mock.reset();
  // What DynamoDB and SQS answer to a call a test does not script: success, with nothing to return.
  ddbMock.resolves({});
  sqsMock.resolves({});
});

const doc = () => documentClient(new DynamoDBClient({ region: 'us-east-1' }));

/** The handlers' own dependencies over the AWS adapters, each AWS call answered by the mocks. */
const deps = () => {
  const table = { db: new DynamoDocumentTable(doc()), tableName: 'catalog' };
  return fakeDeps({
    jobs: new DynamoJobRepository(table),
    files: new DynamoFileRepository(table),
    idempotency: new DynamoIdempotencyStore(table),
    queue: new SqsWorkQueue(new SQSClient({ region: 'us-east-1' }), urls),
    logger: silentLogger(),
  });
};

describe('SDK errors → domain errors', () => {
  it.each([
    ['DynamoDB throttling', throttled()],
    ['a DynamoDB 500', new InternalServerError({ message: 'boom', ...meta(500) })],
    ['an SQS KMS throttle', new KmsThrottled({ message: 'slow', ...meta(400) })],
    ['an S3 SlowDown', new S3ServiceException({ name: 'SlowDown', $fault: 'server', ...meta(503) })],
    ['any 503', sdkError('Whatever', 503)],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ["the SDK's request time-out", Object.assign(new Error('timed out'), { name: 'TimeoutError' })],
    [
      'a reset socket under a fetch error',
      Object.assign(new TypeError('fetch failed'), {
        cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }),
      }),
    ],
    [
      // The DynamoDB emulator's thread ended under the request (a store write failed on a full disk).
      'a socket closed by the other side under a fetch error',
      Object.assign(new TypeError('fetch failed'), {
        cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
      }),
    ],
    ['a socket hang up', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
  ])('%s is transient: a DependencyUnavailableError (503)', async (_what, error) => {
    expect(isTransientAwsError(error)).toBe(true);
    await expect(translateAwsErrors('x', () => Promise.reject(error))).rejects.toBeInstanceOf(
      DependencyUnavailableError,
    );
  });

  it('turns a failed condition into a ConflictError and rethrows bugs unchanged', async () => {
    await expect(translateAwsErrors('x', () => Promise.reject(conditionFailed()))).rejects.toBeInstanceOf(
      ConflictError,
    );
    const bug = sdkError('ValidationException', 400);
    await expect(translateAwsErrors('x', () => Promise.reject(bug))).rejects.toBe(bug);
  });

  it('asks BatchGetItem again for the keys it left unprocessed', async () => {
    ddbMock
      .on(BatchGetCommand)
      .resolvesOnce({
        Responses: { t: [{ PK: 'a', SK: '1' }] },
        UnprocessedKeys: { t: { Keys: [{ PK: 'a', SK: '2' }] } },
      })
      .resolvesOnce({ Responses: { t: [{ PK: 'a', SK: '2' }] } });
    const items = await new DynamoDocumentTable(doc()).batchGet('t', [
      { PK: 'a', SK: '1' },
      { PK: 'a', SK: '2' },
    ]);
    expect(items).toEqual([
      { PK: 'a', SK: '1' },
      { PK: 'a', SK: '2' },
    ]);
    const rounds = ddbMock.commandCalls(BatchGetCommand).map((c) => c.args[0].input.RequestItems?.t?.Keys);
    expect(rounds).toEqual([
      [
        { PK: 'a', SK: '1' },
        { PK: 'a', SK: '2' },
      ],
      [{ PK: 'a', SK: '2' }],
    ]);
  });
});

describe('a lost conditional write', () => {
  it('builds the condition from the transitions table and answers from the item DynamoDB returns (ALL_OLD)', async () => {
    const job = aJob({ state: 'completed', version: 4 });
    const item = { PK: `CLIENT#${job.clientId}`, SK: `JOB#${job.id}`, GSI1PK: 'x', entity: 'job', ...job };
    ddbMock.on(UpdateCommand).rejects(conditionFailed(item));
    const refused = deps().jobs.transition(job.clientId, job.id, { event: 'cancel', at: 'x' });
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    await expect(refused).rejects.toMatchObject({ current: job });
    const update = ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(update.ConditionExpression).toBe('attribute_exists(PK) AND #state IN (:from0, :from1)');
    expect([
      update.ExpressionAttributeValues?.[':from0'],
      update.ExpressionAttributeValues?.[':from1'],
    ]).toEqual(['initiated', 'in_review']);
    expect(update.ReturnValuesOnConditionCheckFailure).toBe('ALL_OLD');
    expect(ddbMock.commandCalls(GetCommand)).toHaveLength(0);
  });

  it('reads the item only when DynamoDB returned none, to tell a missing record apart', async () => {
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    ddbMock.on(GetCommand).resolves({});
    await expect(
      deps().jobs.transition('client-a', crypto.randomUUID(), { event: 'claim', at: 'x' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(ddbMock.commandCalls(GetCommand)).toHaveLength(1);
  });
});

describe('handlers over the AWS adapters', () => {
  it('answers 503 with Retry-After when DynamoDB throttles, and sends nothing to SQS', async () => {
    ddbMock.on(PutCommand).rejects(throttled());
    const res = await makeCreateJobHandler(deps())(apiEvent({ body: aJobRequest() }), lambdaContext());
    expect(res.statusCode).toBe(503);
    expect(res.headers?.['retry-after']).toBe('5');
    expect(JSON.parse(res.body)).toMatchObject({ code: 'service_unavailable' });
    expect(res.body).not.toContain('Rate of requests');
    expect(sqsMock.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('removes the job again when SQS fails after the write, so nothing is half-created', async () => {
    sqsMock.on(SendMessageCommand).rejects(sdkError('ServiceUnavailable', 503));
    const res = await makeCreateJobHandler(deps())(
      apiEvent({ body: aJobRequest('new_menu', { processing_type: 'rush' }) }),
      lambdaContext(),
    );
    expect(res.statusCode).toBe(503);
    const put = ddbMock.commandCalls(PutCommand)[0]!.args[0].input;
    const del = ddbMock.commandCalls(DeleteCommand)[0]!.args[0].input;
    expect(del.Key).toEqual({ PK: put.Item?.PK, SK: put.Item?.SK });
    // Only a job that is still untouched and still in the outbox is removed.
    expect(del.ConditionExpression).toContain('GSI2PK = :outbox');
    expect(sqsMock.commandCalls(SendMessageCommand).map((c) => c.args[0].input.QueueUrl)).toEqual([
      urls.jobsRush,
    ]);
  });

  it('writes the job with a condition and into the outbox, then moves it to the open jobs', async () => {
    sqsMock.on(SendMessageCommand).resolves({ MessageId: 'm1' });
    const res = await makeCreateJobHandler(deps())(apiEvent({ body: aJobRequest() }), lambdaContext());
    expect(res.statusCode).toBe(201);
    const put = ddbMock.commandCalls(PutCommand)[0]!.args[0].input;
    expect(put.ConditionExpression).toBe('attribute_not_exists(PK)');
    expect(put.Item).toMatchObject({
      PK: 'CLIENT#client-a',
      GSI2PK: expect.stringMatching(/^OUTBOX#[0-3]$/),
      state: 'initiated',
      version: 1,
    });
    const shard = String(put.Item?.GSI2PK).split('#')[1];
    const update = ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(update.UpdateExpression).toBe('SET GSI2PK = :open, GSI2SK = openSortKey');
    expect(update.ConditionExpression).toBe('GSI2PK = :outbox');
    expect(update.ExpressionAttributeValues).toEqual({
      ':open': `OPEN_JOBS#${shard}`,
      ':outbox': `OUTBOX#${shard}`,
    });
    expect(
      JSON.parse(String(sqsMock.commandCalls(SendMessageCommand)[0]!.args[0].input.MessageBody)),
    ).toEqual({
      kind: 'job',
      clientId: 'client-a',
      jobId: JSON.parse(res.body).id,
    });
  });

  it('answers 503 when a read times out', async () => {
    ddbMock.on(GetCommand).rejects(Object.assign(new Error('socket timed out'), { name: 'TimeoutError' }));
    const res = await makeGetJobHandler(deps())(
      apiEvent({ method: 'GET', resource: '/v1/jobs/{id}', pathParameters: { id: crypto.randomUUID() } }),
      lambdaContext(),
    );
    expect(res.statusCode).toBe(503);
  });

  it('answers a generic 500 for an unexpected SDK error, without its text', async () => {
    ddbMock.on(GetCommand).rejects(sdkError('ValidationException', 400, 'secret table detail'));
    const res = await makeGetJobHandler(deps())(
      apiEvent({ method: 'GET', resource: '/v1/jobs/{id}', pathParameters: { id: crypto.randomUUID() } }),
      lambdaContext(),
    );
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret table detail');
    expect(JSON.parse(res.body).code).toBe('internal_error');
  });
});

describe('S3 store', () => {
  const NOW = new Date('2026-03-04T05:06:07.000Z');
  const s3 = () =>
    new S3Client({
      region: 'eu-west-1',
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  const store = () => new S3ObjectStore(s3(), { bucket: 'uploads-bucket' }, new FakeClock(NOW));

  it('reads a missing object as undefined (HeadObject) or NotFoundError (GetObject)', async () => {
    s3Mock.rejects(new NotFound({ message: 'Not Found', ...meta(404) }));
    await expect(store().size('uploads/a/x')).resolves.toBeUndefined();
    s3Mock.rejects(new NoSuchKey({ message: 'The specified key does not exist.', ...meta(404) }));
    await expect(store().read('uploads/a/x')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('turns SlowDown and a dropped connection into DependencyUnavailableError, an access denial into a bug', async () => {
    s3Mock.rejects(new S3ServiceException({ name: 'SlowDown', $fault: 'server', ...meta(503) }));
    await expect(store().size('k')).rejects.toBeInstanceOf(DependencyUnavailableError);
    s3Mock.rejects(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    await expect(store().read('k')).rejects.toBeInstanceOf(DependencyUnavailableError);
    const denied = sdkError('AccessDenied', 403);
    s3Mock.rejects(denied);
    await expect(store().read('k')).rejects.toBe(denied);
  });

  it('signs the PUT over its Content-Type (If-None-Match offered, not required), with no checksum of an empty body', async () => {
    const upload = await store().presignUpload('uploads/acme/f1', 'text/csv', 900, 100 * 1024 * 1024);
    const url = new URL(upload.putUrl);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-type;host');
    expect([...url.searchParams.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);
    expect(upload.putHeaders).toEqual({ 'content-type': 'text/csv', 'if-none-match': '*' });
    const policy = JSON.parse(Buffer.from(upload.fields.Policy!, 'base64').toString('utf8'));
    expect(policy.conditions).toContainEqual(['content-length-range', 0, 100 * 1024 * 1024]);
    expect(policy.conditions).toContainEqual({ 'Content-Type': 'text/csv' });
    expect(upload.expiresAt).toBe('2026-03-04T05:21:07.000Z');
  });

  it('signs a download as an attachment whatever the file name', async () => {
    const { url } = await store().presignDownload('uploads/acme/f1', 300, {
      contentType: 'text/plain; charset=utf-8',
      fileName: "Joe's menu (été).html",
    });
    const query = new URL(url).searchParams;
    expect(query.get('response-content-disposition')).toBe(
      `attachment; filename="Joe's menu (_t_).html"; filename*=UTF-8''${encodeURIComponent("Joe's menu (été).html")}`,
    );
    expect(query.get('response-content-type')).toBe('text/plain; charset=utf-8');
  });
});

describe('the clients the functions are wired with', () => {
  let server: Server;
  let answers: { status: number; type: string }[];
  let received = 0;
  beforeEach(async () => {
    ddbMock.restore();
    received = 0;
    server = createServer((req, res) => {
      req.resume();
      received++;
      const answer = answers.shift() ?? { status: 200, type: '' };
      // The date of the clock the test runs on (npm run test:future moves it; Node's own Date header would
      // not follow), so that the SDK sees no clock skew to correct and retry for.
      res.writeHead(answer.status, {
        'content-type': 'application/x-amz-json-1.0',
        date: new Date().toUTCString(),
      });
      res.end(answer.type ? JSON.stringify({ __type: answer.type, message: answer.type }) : '{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    mockClient(DynamoDBDocumentClient);
  });

  const config = (): Config =>
    loadConfig({
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'AKIDTEST',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      TABLE_NAME: 't',
      JOBS_RUSH_QUEUE_URL: urls.jobsRush,
      JOBS_STANDARD_QUEUE_URL: urls.jobsStandard,
      EXPORTS_QUEUE_URL: urls.exports,
      CALLBACKS_QUEUE_URL: urls.callbacks,
      CALLBACKS_DLQ_URL: urls.callbackDeadLetters,
      UPLOADS_BUCKET: 'u',
      CATALOGS_BUCKET: 'c',
      EXPORTS_BUCKET: 'e',
    });

  it('retry throttling three times in all, then answer DependencyUnavailableError; a bug is not retried', async () => {
    const throttling = { status: 400, type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException' };
    answers = [throttling, throttling, throttling];
    const wired = config();
    await expect(jobRepository(wired).get('client-a', crypto.randomUUID())).rejects.toBeInstanceOf(
      DependencyUnavailableError,
    );
    expect(received).toBe(3);
    answers = [{ status: 400, type: 'com.amazonaws.dynamodb.v20120810#ValidationException' }];
    await expect(jobRepository(wired).get('client-a', crypto.randomUUID())).rejects.toMatchObject({
      name: 'ValidationException',
    });
    expect(received).toBe(4);
    expect(await dynamoDocumentClient(wired).config.maxAttempts()).toBe(3);
  });
});
