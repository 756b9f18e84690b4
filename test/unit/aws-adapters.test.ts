import { S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { isTransientAwsError, translateAwsErrors } from '../../lambdas/adapters/aws-errors';
import { ConflictError, DependencyUnavailableError, NotFoundError } from '../../lambdas/core/errors';
import { makeCreateJobHandler } from '../../lambdas/handlers/http/create-job';
import { makeGetJobHandler } from '../../lambdas/handlers/http/get-job';
import { loadConfig } from '../../lambdas/shared/config';
import { buildDeps } from '../../lambdas/shared/deps';
import { aJob, aJobRequest, apiEvent, lambdaContext } from '../helpers/factories';
import { silentLogger } from '../helpers/fakes';

const env = {
  TABLE_NAME: 'catalog',
  JOBS_RUSH_QUEUE_URL: 'https://sqs.test/rush',
  JOBS_STANDARD_QUEUE_URL: 'https://sqs.test/standard',
  EXPORTS_QUEUE_URL: 'https://sqs.test/exports',
  CALLBACKS_QUEUE_URL: 'https://sqs.test/callbacks',
  CALLBACKS_DLQ_URL: 'https://sqs.test/callbacks-dlq',
  UPLOADS_BUCKET: 'uploads',
  CATALOGS_BUCKET: 'catalogs',
  EXPORTS_BUCKET: 'exports',
  AWS_REGION: 'us-east-1',
};

const sdkError = (name: string, status = 400, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status }, ...extra });

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);
mockClient(S3Client);

beforeEach(() => {
  ddb.reset();
  sqs.reset();
});

const deps = () => buildDeps(loadConfig(env), { logger: silentLogger() });

describe('SDK error translation', () => {
  it.each([
    sdkError('ProvisionedThroughputExceededException'),
    sdkError('ThrottlingException'),
    sdkError('RequestLimitExceeded'),
    sdkError('InternalServerError', 500),
    sdkError('Whatever', 503),
    Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    sdkError('TimeoutError'),
  ])('treats %p as transient', async (error) => {
    expect(isTransientAwsError(error)).toBe(true);
    await expect(translateAwsErrors('x', () => Promise.reject(error))).rejects.toBeInstanceOf(
      DependencyUnavailableError,
    );
  });

  it('turns a failed condition into a ConflictError and rethrows bugs unchanged', async () => {
    await expect(
      translateAwsErrors('x', () => Promise.reject(sdkError('ConditionalCheckFailedException'))),
    ).rejects.toBeInstanceOf(ConflictError);
    const bug = sdkError('ValidationException');
    await expect(translateAwsErrors('x', () => Promise.reject(bug))).rejects.toBe(bug);
  });
});

describe('a lost conditional write', () => {
  it('builds the condition from the transitions table and answers from the item DynamoDB returns (ALL_OLD)', async () => {
    const job = aJob({ state: 'completed', version: 4 });
    const item = { PK: `CLIENT#${job.clientId}`, SK: `JOB#${job.id}`, GSI1PK: 'x', entity: 'job', ...job };
    ddb.on(UpdateCommand).rejects(sdkError('ConditionalCheckFailedException', 400, { Item: marshall(item) }));
    const refused = deps().jobs.transition(job.clientId, job.id, { event: 'cancel', at: 'x' });
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    await expect(refused).rejects.toMatchObject({ current: job });
    const update = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(update.ConditionExpression).toBe('attribute_exists(PK) AND #state IN (:from0, :from1)');
    expect([
      update.ExpressionAttributeValues?.[':from0'],
      update.ExpressionAttributeValues?.[':from1'],
    ]).toEqual(['initiated', 'in_review']);
    expect(update.ReturnValuesOnConditionCheckFailure).toBe('ALL_OLD');
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
  });

  it('reads the item only when DynamoDB returned none, to tell a missing record apart', async () => {
    ddb.on(UpdateCommand).rejects(sdkError('ConditionalCheckFailedException'));
    ddb.on(GetCommand).resolves({});
    await expect(
      deps().jobs.transition('client-a', crypto.randomUUID(), { event: 'claim', at: 'x' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
  });
});

describe('handlers over the AWS adapters', () => {
  it('answers 503 with Retry-After when DynamoDB throttles, and sends nothing to SQS', async () => {
    ddb.on(PutCommand).rejects(sdkError('ProvisionedThroughputExceededException'));
    const res = await makeCreateJobHandler(deps())(apiEvent({ body: aJobRequest() }), lambdaContext());
    expect(res.statusCode).toBe(503);
    expect(res.headers?.['retry-after']).toBe('5');
    expect(JSON.parse(res.body)).toMatchObject({ code: 'service_unavailable' });
    expect(res.body).not.toContain('ProvisionedThroughput');
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('removes the job again when SQS fails after the write, so nothing is half-created', async () => {
    ddb.on(PutCommand).resolves({});
    ddb.on(DeleteCommand).resolves({});
    sqs.on(SendMessageCommand).rejects(sdkError('ServiceUnavailable', 503));
    const res = await makeCreateJobHandler(deps())(
      apiEvent({ body: aJobRequest('new_menu', { processing_type: 'rush' }) }),
      lambdaContext(),
    );
    expect(res.statusCode).toBe(503);
    const put = ddb.commandCalls(PutCommand)[0]!.args[0].input;
    const del = ddb.commandCalls(DeleteCommand)[0]!.args[0].input;
    expect(del.Key).toEqual({ PK: put.Item!.PK, SK: put.Item!.SK });
    // Only a job that is still untouched and still in the outbox is removed.
    expect(del.ConditionExpression).toContain('GSI2PK = :outbox');
    expect(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input.QueueUrl).toBe(env.JOBS_RUSH_QUEUE_URL);
  });

  it('writes the job with a condition and into the outbox, then moves it to the open jobs', async () => {
    ddb.on(PutCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm1' });
    const res = await makeCreateJobHandler(deps())(apiEvent({ body: aJobRequest() }), lambdaContext());
    expect(res.statusCode).toBe(201);
    const put = ddb.commandCalls(PutCommand)[0]!.args[0].input;
    expect(put.ConditionExpression).toBe('attribute_not_exists(PK)');
    expect(put.Item).toMatchObject({
      PK: 'CLIENT#client-a',
      GSI2PK: 'OUTBOX',
      state: 'initiated',
      version: 1,
    });
    const update = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(update.UpdateExpression).toBe('SET GSI2PK = :open, GSI2SK = openSortKey');
    expect(update.ConditionExpression).toBe('GSI2PK = :outbox');
    expect(JSON.parse(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input.MessageBody!)).toEqual({
      kind: 'job',
      clientId: 'client-a',
      jobId: JSON.parse(res.body).id,
    });
  });

  it('answers 503 when a read times out', async () => {
    ddb.on(GetCommand).rejects(sdkError('TimeoutError'));
    const res = await makeGetJobHandler(deps())(
      apiEvent({ method: 'GET', resource: '/v1/jobs/{id}', pathParameters: { id: crypto.randomUUID() } }),
      lambdaContext(),
    );
    expect(res.statusCode).toBe(503);
  });

  it('answers a generic 500 for an unexpected SDK error, without its text', async () => {
    ddb.on(GetCommand).rejects(sdkError('ValidationException', 400, { message: 'secret table detail' }));
    const res = await makeGetJobHandler(deps())(
      apiEvent({ method: 'GET', resource: '/v1/jobs/{id}', pathParameters: { id: crypto.randomUUID() } }),
      lambdaContext(),
    );
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret table detail');
    expect(JSON.parse(res.body).code).toBe('internal_error');
  });
});
