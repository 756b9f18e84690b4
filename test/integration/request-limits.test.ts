import type { APIGatewayProxyEvent } from 'aws-lambda';
import { JSON_MAX_DEPTH } from '../../lambdas/core/json-limits';
import type { JobRecord } from '../../lambdas/core/model';
import { makeCreateJobHandler } from '../../lambdas/handlers/http/create-job';
import { makeGetJobHandler } from '../../lambdas/handlers/http/get-job';
import type { ApiHandler } from '../../lambdas/shared/http';
import { apiEvent, lambdaContext } from '../helpers/factories';
import { emulatorDeps, uniqueClient } from '../helpers/integration';

const deps = emulatorDeps();
const call = async (handler: ApiHandler, event: APIGatewayProxyEvent) => {
  const res = await handler(event, lambdaContext());
  return { ...res, json: JSON.parse(res.body) };
};

const jobText = (jobData: string, jobExtra = '') =>
  `{"job":{"job_type":"new_menu","processing_type":"standard","job_data":{"catalog_sources":["https://merchant.example.com/m.csv"],"merchant_name":"Joe"${jobData}}${jobExtra}}}`;

describe('client JSON through DynamoDB (marshalling and nesting)', () => {
  it('stores and reads back keys that name Object members, in metadata and client_mappings', async () => {
    const client = uniqueClient();
    const clientMappings: Record<string, unknown> = {
      constructor: { name: 'Set' },
      items: { constructor: 'ext-1', toString: 'ext-2', Cola: 'ext-3' },
      nested: [{ constructor: { name: 'Number' } }, { constructor: { name: 'Map' }, valueOf: 1 }],
    };
    const metadata = { constructor: 'c', hasOwnProperty: 'h' };
    const created = await call(
      makeCreateJobHandler(deps),
      apiEvent({
        rawBody: jobText(
          `,"client_mappings":${JSON.stringify(clientMappings)}`,
          `,"metadata":${JSON.stringify(metadata)}`,
        ),
        clientId: client,
      }),
    );
    expect(created.statusCode).toBe(201);
    const read = await call(
      makeGetJobHandler(deps),
      apiEvent({ method: 'GET', pathParameters: { id: created.json.id.toUpperCase() }, clientId: client }),
    );
    expect(read.statusCode).toBe(200);
    expect(read.json.metadata).toEqual(metadata);
    expect(read.json.job_data.client_mappings).toEqual(clientMappings);

    // Updates marshal values through the same path as puts (ExpressionAttributeValues).
    // Not a shape the pipeline writes (results are typed): a record with prototype-like keys, to test marshalling.
    const results = {
      constructor: { name: 'Boolean' },
      sources: [{ constructor: 'x' }],
    } as unknown as JobRecord['results'];
    const moved = await deps.jobs.transition(client, created.json.id, {
      event: 'claim',
      set: { results },
      at: new Date().toISOString(),
    });
    expect(moved.results).toEqual(results);
    expect((await deps.jobs.get(client, created.json.id))?.results).toEqual(results);
  });

  it('stores client_mappings as deep as the edge allows (the deepest item DynamoDB accepts)', async () => {
    const client = uniqueClient();
    const levels = JSON_MAX_DEPTH - 3;
    const deep = `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
    const created = await call(
      makeCreateJobHandler(deps),
      apiEvent({ rawBody: jobText(`,"client_mappings":${deep}`), clientId: client }),
    );
    expect(created.statusCode).toBe(201);
    const read = await call(
      makeGetJobHandler(deps),
      apiEvent({ method: 'GET', pathParameters: { id: created.json.id }, clientId: client }),
    );
    expect(JSON.stringify(read.json.job_data.client_mappings)).toBe(deep);
  });
});
