import { marshall } from '@aws-sdk/util-dynamodb';
import { isTransientAwsError, translateAwsErrors } from '../../lambdas/adapters/aws-errors';
import { AwsServiceError } from '../../lambdas/adapters/aws-http';
import { DynamoDocumentTable } from '../../lambdas/adapters/dynamo-document';
import { DynamoFileRepository } from '../../lambdas/adapters/dynamo-file-repository';
import { DynamoIdempotencyStore } from '../../lambdas/adapters/dynamo-idempotency-store';
import { DynamoJobRepository } from '../../lambdas/adapters/dynamo-job-repository';
import { SqsWorkQueue } from '../../lambdas/adapters/sqs-work-queue';
import { ConflictError, DependencyUnavailableError, NotFoundError } from '../../lambdas/core/errors';
import { makeCreateJobHandler } from '../../lambdas/handlers/http/create-job';
import { makeGetJobHandler } from '../../lambdas/handlers/http/get-job';
import { ScriptedAws } from '../helpers/aws-wire';
import { aJob, aJobRequest, apiEvent, lambdaContext } from '../helpers/factories';
import { fakeDeps, silentLogger } from '../helpers/fakes';

const urls = {
  jobsRush: 'https://sqs.test/rush',
  jobsStandard: 'https://sqs.test/standard',
  exports: 'https://sqs.test/exports',
  callbacks: 'https://sqs.test/callbacks',
  callbackDeadLetters: 'https://sqs.test/callbacks-dlq',
};

const sdkError = (name: string, status = 400, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status }, ...extra });

let ddb: ScriptedAws;
let sqs: ScriptedAws;

beforeEach(() => {
  ddb = new ScriptedAws();
  sqs = new ScriptedAws();
});

/** The handlers' own dependencies over the AWS adapters, each AWS call answered by the script. */
const deps = () => {
  const table = { db: new DynamoDocumentTable(ddb.api('dynamodb')), tableName: 'catalog' };
  return fakeDeps({
    jobs: new DynamoJobRepository(table),
    files: new DynamoFileRepository(table),
    idempotency: new DynamoIdempotencyStore(table),
    queue: new SqsWorkQueue(sqs.api('sqs'), urls),
    logger: silentLogger(),
  });
};

describe('SDK and wire error translation', () => {
  it.each([
    sdkError('ProvisionedThroughputExceededException'),
    sdkError('ThrottlingException'),
    sdkError('RequestLimitExceeded'),
    sdkError('InternalServerError', 500),
    sdkError('Whatever', 503),
    Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }),
    }),
    // The emulator's thread ended under the request (a store write failed on a full disk).
    Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    }),
    new DOMException('no answer within 5000 ms', 'TimeoutError'),
    new AwsServiceError('ThrottlingException', 'slow down', 400),
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

  it("reads the error name from the JSON protocol's __type, and retries throttling (3 attempts) but not a bug", async () => {
    ddb.on('GetItem', ScriptedAws.error('ProvisionedThroughputExceededException'));
    const table = new DynamoDocumentTable(ddb.api('dynamodb'));
    await expect(table.get({ TableName: 't', Key: { PK: 'a', SK: 'b' } })).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
      $metadata: { httpStatusCode: 400 },
    });
    expect(ddb.calledWith('GetItem')).toHaveLength(3);
    ddb.on('PutItem', ScriptedAws.error('ValidationException'));
    await expect(table.put({ TableName: 't', Item: { PK: 'a', SK: 'b' } })).rejects.toMatchObject({
      name: 'ValidationException',
    });
    expect(ddb.calledWith('PutItem')).toHaveLength(1);
  });

  it("signs every call with SigV4 and sends DynamoDB's attribute-value format", async () => {
    ddb.on('GetItem', { status: 200, body: { Item: marshall({ PK: 'a', SK: 'b', n: 3, tags: ['x'] }) } });
    const table = new DynamoDocumentTable(ddb.api('dynamodb'));
    const out = await table.get({ TableName: 't', Key: { PK: 'a', SK: 'b' }, ConsistentRead: true });
    expect(out.Item).toEqual({ PK: 'a', SK: 'b', n: 3, tags: ['x'] });
    const call = ddb.calls[0]!;
    expect(call.input).toEqual({
      TableName: 't',
      Key: { PK: { S: 'a' }, SK: { S: 'b' } },
      ConsistentRead: true,
    });
    expect(call.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(call.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/us-east-1\/dynamodb\/aws4_request, SignedHeaders=[^,]*x-amz-target[^,]*, Signature=[0-9a-f]{64}$/,
    );
  });

  it('asks BatchGetItem again for the keys it left unprocessed', async () => {
    let round = 0;
    ddb.on('BatchGetItem', (input) => {
      round++;
      const keys = (input.RequestItems as Record<string, { Keys: unknown[] }>).t!.Keys;
      if (round === 1) {
        return {
          status: 200,
          body: {
            Responses: { t: [marshall({ PK: 'a', SK: '1' })] },
            UnprocessedKeys: { t: { Keys: keys.slice(1) } },
          },
        };
      }
      return { status: 200, body: { Responses: { t: [marshall({ PK: 'a', SK: '2' })] } } };
    });
    const table = new DynamoDocumentTable(ddb.api('dynamodb'));
    const items = await table.batchGet('t', [
      { PK: 'a', SK: '1' },
      { PK: 'a', SK: '2' },
    ]);
    expect(items).toEqual([
      { PK: 'a', SK: '1' },
      { PK: 'a', SK: '2' },
    ]);
    expect(ddb.calledWith('BatchGetItem')).toHaveLength(2);
  });
});

describe('a lost conditional write', () => {
  it('builds the condition from the transitions table and answers from the item DynamoDB returns (ALL_OLD)', async () => {
    const job = aJob({ state: 'completed', version: 4 });
    const item = { PK: `CLIENT#${job.clientId}`, SK: `JOB#${job.id}`, GSI1PK: 'x', entity: 'job', ...job };
    ddb.on(
      'UpdateItem',
      ScriptedAws.error('ConditionalCheckFailedException', 400, {
        Item: marshall(item, { removeUndefinedValues: true }),
      }),
    );
    const refused = deps().jobs.transition(job.clientId, job.id, { event: 'cancel', at: 'x' });
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    await expect(refused).rejects.toMatchObject({ current: job });
    const update = ddb.calledWith('UpdateItem')[0]!;
    expect(update.ConditionExpression).toBe('attribute_exists(PK) AND #state IN (:from0, :from1)');
    const values = update.ExpressionAttributeValues as Record<string, { S?: string }>;
    expect([values[':from0']?.S, values[':from1']?.S]).toEqual(['initiated', 'in_review']);
    expect(update.ReturnValuesOnConditionCheckFailure).toBe('ALL_OLD');
    expect(ddb.calledWith('GetItem')).toHaveLength(0);
  });

  it('reads the item only when DynamoDB returned none, to tell a missing record apart', async () => {
    ddb.on('UpdateItem', ScriptedAws.error('ConditionalCheckFailedException'));
    await expect(
      deps().jobs.transition('client-a', crypto.randomUUID(), { event: 'claim', at: 'x' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(ddb.calledWith('GetItem')).toHaveLength(1);
  });
});

describe('handlers over the AWS adapters', () => {
  it('answers 503 with Retry-After when DynamoDB throttles, and sends nothing to SQS', async () => {
    ddb.on('PutItem', ScriptedAws.error('ProvisionedThroughputExceededException'));
    const res = await makeCreateJobHandler(deps())(apiEvent({ body: aJobRequest() }), lambdaContext());
    expect(res.statusCode).toBe(503);
    expect(res.headers?.['retry-after']).toBe('5');
    expect(JSON.parse(res.body)).toMatchObject({ code: 'service_unavailable' });
    expect(res.body).not.toContain('ProvisionedThroughput');
    expect(sqs.calledWith('SendMessage')).toHaveLength(0);
  });

  it('removes the job again when SQS fails after the write, so nothing is half-created', async () => {
    sqs.on('SendMessage', { status: 503, body: { __type: 'com.amazonaws.sqs#ServiceUnavailable' } });
    const res = await makeCreateJobHandler(deps())(
      apiEvent({ body: aJobRequest('new_menu', { processing_type: 'rush' }) }),
      lambdaContext(),
    );
    expect(res.statusCode).toBe(503);
    const put = ddb.calledWith('PutItem')[0]!;
    const del = ddb.calledWith('DeleteItem')[0]!;
    const item = put.Item as Record<string, unknown>;
    expect(del.Key).toEqual({ PK: item.PK, SK: item.SK });
    // Only a job that is still untouched and still in the outbox is removed.
    expect(del.ConditionExpression).toContain('GSI2PK = :outbox');
    expect(sqs.calledWith('SendMessage').map((m) => m.QueueUrl)).toEqual([
      urls.jobsRush,
      urls.jobsRush,
      urls.jobsRush,
    ]);
  });

  it('writes the job with a condition and into the outbox, then moves it to the open jobs', async () => {
    sqs.on('SendMessage', { status: 200, body: { MessageId: 'm1' } });
    const res = await makeCreateJobHandler(deps())(apiEvent({ body: aJobRequest() }), lambdaContext());
    expect(res.statusCode).toBe(201);
    const put = ddb.calledWith('PutItem')[0]!;
    expect(put.ConditionExpression).toBe('attribute_not_exists(PK)');
    expect(put.Item).toMatchObject({
      PK: { S: 'CLIENT#client-a' },
      GSI2PK: { S: expect.stringMatching(/^OUTBOX#[0-3]$/) },
      state: { S: 'initiated' },
      version: { N: '1' },
    });
    const shard = (put.Item as Record<string, { S: string }>).GSI2PK!.S.split('#')[1];
    const update = ddb.calledWith('UpdateItem')[0]!;
    expect(update.UpdateExpression).toBe('SET GSI2PK = :open, GSI2SK = openSortKey');
    expect(update.ConditionExpression).toBe('GSI2PK = :outbox');
    expect(update.ExpressionAttributeValues).toEqual({
      ':open': { S: `OPEN_JOBS#${shard}` },
      ':outbox': { S: `OUTBOX#${shard}` },
    });
    expect(JSON.parse(String(sqs.calledWith('SendMessage')[0]!.MessageBody))).toEqual({
      kind: 'job',
      clientId: 'client-a',
      jobId: JSON.parse(res.body).id,
    });
  });

  it('answers 503 when a read times out', async () => {
    ddb.on('GetItem', 'hang');
    const table = {
      db: new DynamoDocumentTable(ddb.api('dynamodb', { timeoutMs: 20 })),
      tableName: 'catalog',
    };
    const res = await makeGetJobHandler({ ...deps(), jobs: new DynamoJobRepository(table) })(
      apiEvent({ method: 'GET', resource: '/v1/jobs/{id}', pathParameters: { id: crypto.randomUUID() } }),
      lambdaContext(),
    );
    expect(res.statusCode).toBe(503);
    expect(ddb.calledWith('GetItem')).toHaveLength(3);
  });

  it('answers a generic 500 for an unexpected SDK error, without its text', async () => {
    ddb.on('GetItem', ScriptedAws.error('ValidationException', 400, { message: 'secret table detail' }));
    const res = await makeGetJobHandler(deps())(
      apiEvent({ method: 'GET', resource: '/v1/jobs/{id}', pathParameters: { id: crypto.randomUUID() } }),
      lambdaContext(),
    );
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret table detail');
    expect(JSON.parse(res.body).code).toBe('internal_error');
  });
});
