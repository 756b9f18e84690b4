import type { APIGatewayProxyResult } from 'aws-lambda';
import { makeCreateJobHandler } from '../../lambdas/handlers/http/create-job';
import { apiEvent, lambdaContext, withJobData } from '../helpers/factories';
import { fakeDeps } from '../helpers/fakes';

/** POST /v1/jobs with `jobData`, the local runtime's loopback rule set to `allowLoopbackUrls`. */
const create = async (jobData: Record<string, unknown>, allowLoopbackUrls = false, type = 'new_menu') => {
  const deps = { ...fakeDeps(), allowLoopbackUrls };
  const body = withJobData(type as 'new_menu', jobData);
  const result = (await makeCreateJobHandler(deps)(
    apiEvent({ body }),
    lambdaContext(),
  )) as APIGatewayProxyResult;
  return { status: result.statusCode, json: JSON.parse(result.body), deps };
};

describe('POST /v1/jobs refuses URLs that name an internal address outright (SPEC 8)', () => {
  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://0xa9fea9fe/',
    'http://2852039166/',
    'http://0251.0376.0251.0376/',
    'http://169.254.169.254./',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:10.0.0.1]/menu.csv',
    'http://10.0.0.1/menu.csv',
    'http://100.64.0.1/',
    'http://[fd00::1]/',
    'http://0.0.0.0/',
    'http://127.0.0.1:8000/menu.csv',
    'http://localhost/menu.csv',
    'http://menu.localhost./menu.csv',
  ])('answers 400 to %s in catalog_sources and stores nothing', async (url) => {
    const res = await create({ catalog_sources: ['https://merchant.example.com/ok.csv', url] });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([
      { pointer: '/job/job_data/catalog_sources/1', code: 'internal_address', message: expect.any(String) },
    ]);
    expect(res.deps.jobs.items.size).toBe(0);
    expect(res.deps.queue.jobs).toEqual([]);
  });

  it('names each internal image URL of an image mapping job', async () => {
    const res = await create(
      { image_sources: ['https://cdn.example.com/00036000291452.png', 'http://192.168.1.10/a.png'] },
      false,
      'retail_image_mapping',
    );
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([expect.objectContaining({ pointer: '/job/job_data/image_sources/1' })]);
  });

  it('lets the local runtime read loopback sources, and still refuses every other internal address', async () => {
    expect((await create({ catalog_sources: ['http://127.0.0.1:8000/menu.csv'] }, true)).status).toBe(201);
    expect((await create({ catalog_sources: ['http://localhost:8000/menu.csv'] }, true)).status).toBe(201);
    expect((await create({ catalog_sources: ['http://10.0.0.1/menu.csv'] }, true)).status).toBe(400);
  });

  it('leaves host names to the worker, which checks what they resolve to', async () => {
    const res = await create({ catalog_sources: ['https://metadata.internal.example/menu.csv'] });
    expect(res.status).toBe(201);
  });
});
