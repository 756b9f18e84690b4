import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { type DraftReview, sourceCopyKey, writeDraftReview } from '../../lambdas/core/use-cases/draft-review';
import { makeOpsGetJobHandler } from '../../lambdas/handlers/http/ops-get-job';
import { makeOpsGetJobSourceHandler } from '../../lambdas/handlers/http/ops-get-job-source';
import { aJob, apiEvent, lambdaContext } from '../helpers/factories';
import { fakeDeps } from '../helpers/fakes';

async function* bytes(text: string): AsyncIterable<string> {
  yield text;
}

const FILE_ID = randomUUID();
const MENU_URL = 'https://bistro.example.com/menus/Carte%20d%E2%80%99%C3%A9t%C3%A9.pdf';

const setUp = async () => {
  const deps = fakeDeps();
  const job = aJob({
    state: 'in_review',
    jobData: {
      catalog_sources: [MENU_URL, FILE_ID, 'https://bistro.example.com/menu.csv'],
      merchant_name: 'Bistro',
      language: 'fr_fr',
    },
  });
  await deps.jobs.create(job);
  await deps.files.create({
    id: FILE_ID,
    clientId: job.clientId,
    state: 'uploaded',
    filename: 'photo.jpg',
    contentType: 'image/jpeg',
    objectKey: `uploads/${job.clientId}/${FILE_ID}`,
    sizeBytes: 5,
    createdAt: job.createdAt,
    updatedAt: job.createdAt,
    uploadExpiresAt: job.createdAt,
  });
  await deps.uploads.write(`uploads/${job.clientId}/${FILE_ID}`, bytes('jpeg!'), 'image/jpeg');
  await deps.catalogs.write(sourceCopyKey(job.clientId, job.id, 0), bytes('%PDF-1.7 ...'), 'application/pdf');
  const review: DraftReview = {
    version: 1,
    sources: [
      {
        index: 0,
        source: MENU_URL,
        format: 'pdf',
        content_type: 'application/pdf',
        size_bytes: 12,
        copied: true,
        pages: 2,
      },
      {
        index: 1,
        source: FILE_ID,
        format: 'image',
        content_type: 'image/jpeg',
        size_bytes: 5,
        copied: false,
        pages: 1,
      },
    ],
    items: [
      {
        item_id: randomUUID(),
        name: 'Steak frites',
        source: MENU_URL,
        source_index: 0,
        page: 1,
        box: { x: 0.1, y: 0.2, width: 0.5, height: 0.02 },
        method: 'text',
        confidence: 0.95,
        doubts: [],
      },
      {
        item_id: randomUUID(),
        name: 'Moules',
        source: FILE_ID,
        source_index: 1,
        page: 1,
        box: { x: 0.1, y: 0.4, width: 0.5, height: 0.02 },
        method: 'ocr',
        confidence: 0.4,
        doubts: ['price read by OCR and not confirmed'],
      },
    ],
  };
  await writeDraftReview(deps.catalogs, job, review);
  return { deps, job };
};

const get = async (
  deps: ReturnType<typeof fakeDeps>,
  id: string,
  n: string,
  headers: Record<string, string> = {},
  scope: 'operator' | 'client' = 'operator',
) =>
  (await makeOpsGetJobSourceHandler(deps)(
    apiEvent({
      method: 'GET',
      resource: '/v1/ops/jobs/{id}/sources/{n}',
      pathParameters: { id, n },
      scope,
      clientId: 'ops',
      headers,
    }),
    lambdaContext(),
  )) as APIGatewayProxyResult & { headers: Record<string, string> };

describe('GET /v1/ops/jobs/{id}/sources/{n}', () => {
  it('redirects to a short-lived URL of the copy of a URL source, served as what it is', async () => {
    const { deps, job } = await setUp();
    const response = await get(deps, job.id, '0');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toContain(
      `catalogs.example.test/${sourceCopyKey(job.clientId, job.id, 0)}`,
    );
    expect(response.headers.location).toContain('response-content-type=application%2Fpdf');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(response.body)).toMatchObject({
      index: 0,
      source: MENU_URL,
      content_type: 'application/pdf',
      size_bytes: 12,
    });
  });

  it('serves an uploaded file from the uploads bucket, and answers JSON when asked', async () => {
    const { deps, job } = await setUp();
    const response = await get(deps, job.id, '1', { Accept: 'application/json' });
    expect(response.statusCode).toBe(200);
    const body = JSON.parse(response.body);
    expect(body).toMatchObject({ index: 1, source: FILE_ID, content_type: 'image/jpeg', size_bytes: 5 });
    expect(body.url).toContain(`uploads.example.test/uploads/${job.clientId}/${FILE_ID}`);
    expect(Date.parse(body.expires_at) - deps.clock.now().getTime()).toBe(300_000);
  });

  it.each([
    ['a URL source of which no copy was kept', '2', /No copy of source 2 was kept/],
    ['a source number the job does not have', '3', /has 3 source\(s\)/],
    ['a number that is not one', '1e3', /numbered from 0/],
    ['a negative number', '-1', /numbered from 0/],
  ])('answers 404 for %s', async (_, n, detail) => {
    const { deps, job } = await setUp();
    const response = await get(deps, job.id, n);
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body)).toMatchObject({
      code: 'not_found',
      detail: expect.stringMatching(detail),
    });
  });

  it('answers 404 for an unknown job and 403 for a client key', async () => {
    const { deps, job } = await setUp();
    expect((await get(deps, randomUUID(), '0')).statusCode).toBe(404);
    expect((await get(deps, job.id, '0', {}, 'client')).statusCode).toBe(403);
  });
});

describe('GET /v1/ops/jobs/{id} with a drafted source', () => {
  it('returns the provenance of drafted items, lowest confidence first, and how to view each source', async () => {
    const { deps, job } = await setUp();
    const response = await makeOpsGetJobHandler(deps)(
      apiEvent({
        method: 'GET',
        resource: '/v1/ops/jobs/{id}',
        pathParameters: { id: job.id },
        scope: 'operator',
        clientId: 'ops',
      }),
      lambdaContext(),
    );
    const body = JSON.parse(response.body);
    expect(body.draft_provenance.map((p: { name: string }) => p.name)).toEqual(['Moules', 'Steak frites']);
    expect(body.draft_provenance[0]).toMatchObject({
      source_index: 1,
      page: 1,
      method: 'ocr',
      confidence: 0.4,
    });
    expect(body.sources).toEqual([
      expect.objectContaining({
        index: 0,
        format: 'pdf',
        viewable: true,
        pages: 2,
        view_path: `/v1/ops/jobs/${job.id}/sources/0`,
        filename: null,
      }),
      // An uploaded source is named by its file's name, a URL by nothing more than itself.
      expect.objectContaining({ index: 1, format: 'image', viewable: true, filename: 'photo.jpg' }),
      expect.objectContaining({ index: 2, format: null, viewable: false, filename: null }),
    ]);
  });
});
