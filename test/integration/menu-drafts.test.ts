import type { ServerResponse } from 'node:http';
import type { CatalogDocument } from '../../lambdas/core/catalog/document';
import type { JobRecord } from '../../lambdas/core/model';
import { objectKeys } from '../../lambdas/core/ports';
import type { JobSpec } from '../../lambdas/core/schemas/job';
import { createJob } from '../../lambdas/core/use-cases/jobs';
import { makeOpsGetJobHandler } from '../../lambdas/handlers/http/ops-get-job';
import { makeOpsGetJobSourceHandler } from '../../lambdas/handlers/http/ops-get-job-source';
import { CORPUS } from '../fixtures/drafts/corpus';
import { expectedDishes, type MenuSpec, menuPdf, menuPhoto } from '../fixtures/drafts/menus';
import { phonePhoto } from '../fixtures/drafts/phone-photos';
import { apiEvent, eventually, lambdaContext } from '../helpers/factories';
import { uniqueClient } from '../helpers/integration';
import { type Pipeline, startPipeline, startTestServer, type TestServer } from '../helpers/pipeline';

/**
 * Issue 12: a PDF or a photo of a menu becomes a job in review whose draft holds the dishes and prices,
 * with provenance and confidence per item, and the source viewable by operators.
 */

const TRATTORIA = CORPUS.find((m) => m.id === 'trattoria-2col-right')!;
const BISTRO = CORPUS.find((m) => m.id === 'bistro-fr-2col')!;
const PIZZERIA = CORPUS.find((m) => m.id === 'pizzeria-sizes')!;

// OCR of a photo takes a few seconds; the first PDF compiles pdf.js for the test runtime.
jest.setTimeout(120_000);

let files: TestServer;
let pipeline: Pipeline;
// Kept so that afterAll stops a pipeline still starting when beforeAll timed out: its pollers would
// otherwise start after the teardown and keep jest from exiting.
let pipelineStarting: Promise<Pipeline> | undefined;
const served = new Map<string, { type: string; body: Buffer }>();

beforeAll(async () => {
  served.set('/trattoria.pdf', { type: 'application/pdf', body: await menuPdf(TRATTORIA) });
  served.set('/pizzeria.pdf', { type: 'application/pdf', body: await menuPdf(PIZZERIA) });
  // A phone photo: tilted, noisy, JPEG, served without a useful content type.
  served.set('/IMG_2041', {
    type: 'application/octet-stream',
    body: await menuPhoto(BISTRO, { rotation: 1.5, noise: 40, seed: 7 }),
  });
  // A 12 MP phone photo held upright: landscape pixels and EXIF Orientation 6, the page a little askew.
  served.set('/IMG_3107.JPG', {
    type: 'image/jpeg',
    body: await phonePhoto(TRATTORIA, { orientation: 6, byteOrder: 'MM', tilt: 2, seed: 3 }),
  });
  files = await startTestServer((req, res: ServerResponse) => {
    const file = served.get(new URL(req.url, 'http://x').pathname);
    res.writeHead(file ? 200 : 404, { 'content-type': file?.type ?? 'text/plain' });
    res.end(file?.body ?? 'not found');
  });
  // Started after the fixtures: making them blocks this process, and the queue emulator times out a request
  // left waiting meanwhile.
  pipelineStarting = startPipeline();
  pipeline = await pipelineStarting;
}, 180_000);

afterAll(async () => {
  await (pipeline ?? (await pipelineStarting?.catch(() => undefined)))?.stop();
  await files?.stop();
});

const submit = (sources: string[], language: 'en_us' | 'fr_fr' = 'en_us'): Promise<JobRecord> =>
  createJob(pipeline.deps, uniqueClient(), {
    job_type: 'new_menu',
    processing_type: 'rush',
    job_data: { merchant_name: 'Test Merchant', catalog_sources: sources, language },
  } as JobSpec);

const settled = (job: JobRecord) =>
  eventually(
    async () => {
      const now = await pipeline.deps.jobs.get(job.clientId, job.id);
      return now && ['completed', 'failed', 'in_review'].includes(now.state) ? now : undefined;
    },
    { what: `job ${job.id} to settle`, timeoutMs: 60_000 },
  );

const opsJob = async (id: string) => {
  const response = await makeOpsGetJobHandler(pipeline.deps)(
    apiEvent({ method: 'GET', pathParameters: { id }, scope: 'operator', clientId: 'ops-team' }),
    lambdaContext(),
  );
  expect(response.statusCode).toBe(200);
  return JSON.parse(response.body) as {
    draft_catalog: CatalogDocument;
    draft_provenance: {
      item_id: string;
      name: string;
      page: number;
      method: string;
      confidence: number;
      source_index: number;
      box: { x: number; y: number; width: number; height: number };
    }[];
    sources: { index: number; viewable: boolean; content_type: string | null }[];
    results: { review_reasons: string[]; sources: { format: string; pages?: number }[] };
  };
};

/** Dish name → amounts of its variants (null: variable price), from a format 2 document. */
const dishes = (document: CatalogDocument): Map<string, (number | null)[]> =>
  new Map(
    document.items.map((item) => [
      item.name,
      item.variants.map((v) => (v.pricing === 'variable' ? null : (v.price?.amount ?? null))),
    ]),
  );

const share = (spec: MenuSpec, document: CatalogDocument): number => {
  const drafted = dishes(document);
  const expected = expectedDishes(spec);
  return (
    expected.filter((d) => JSON.stringify(drafted.get(d.name)) === JSON.stringify(d.amounts)).length /
    expected.length
  );
};

describe('menus from PDFs and photos (issue 12)', () => {
  it('drafts a two-column text PDF: in review, every dish and price, categories, provenance; the PDF viewable', async () => {
    const job = await submit([`${files.url}/trattoria.pdf`]);
    expect((await settled(job)).state).toBe('in_review');
    const shown = await opsJob(job.id);
    const drafted = dishes(shown.draft_catalog);
    for (const dish of expectedDishes(TRATTORIA))
      expect([dish.name, drafted.get(dish.name)]).toEqual([dish.name, dish.amounts]);
    expect(shown.draft_catalog.items).toHaveLength(expectedDishes(TRATTORIA).length);
    const categories = new Map(shown.draft_catalog.categories.map((c) => [c.id, c.name]));
    const carbonara = shown.draft_catalog.items.find((i) => i.name === 'Spaghetti Carbonara')!;
    expect(categories.get(carbonara.category_id!)).toBe('Pasta');
    expect(carbonara.description).toBe('guanciale, egg yolk, pecorino');
    expect(shown.draft_catalog.items.find((i) => i.name === 'Burrata of the Day')!.variants[0]).toMatchObject(
      { price: null, pricing: 'variable' },
    );
    expect(shown.results.review_reasons.join()).toMatch(/is a PDF menu: 11 dishes were drafted by machine/);

    const provenance = shown.draft_provenance.find((p) => p.item_id === carbonara.id)!;
    expect(provenance).toMatchObject({
      name: 'Spaghetti Carbonara',
      source_index: 0,
      page: 1,
      method: 'text',
    });
    expect(provenance.confidence).toBeGreaterThan(0.9);
    // A box on the page, spanning name and price, below the dishes read before it.
    const garlic = shown.draft_provenance.find((p) => p.name === 'Garlic Bread')!;
    expect(provenance.box.width).toBeGreaterThan(0.3);
    expect(provenance.box.x + provenance.box.width).toBeLessThanOrEqual(1);
    expect(provenance.box.y).toBeGreaterThan(garlic.box.y);

    const source = await makeOpsGetJobSourceHandler(pipeline.deps)(
      apiEvent({
        method: 'GET',
        pathParameters: { id: job.id, n: '0' },
        scope: 'operator',
        clientId: 'ops-team',
      }),
      lambdaContext(),
    );
    expect(source.statusCode).toBe(302);
    const location = (source.headers as Record<string, string>).location!;
    const fetched = await fetch(location);
    expect(fetched.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await fetched.arrayBuffer()).equals(served.get('/trattoria.pdf')!.body)).toBe(true);
  });

  it('drafts a 12 MP phone photo stored sideways with EXIF orientation 6 as the upright menu it shows', async () => {
    const job = await submit([`${files.url}/IMG_3107.JPG`]);
    expect((await settled(job)).state).toBe('in_review');
    const shown = await opsJob(job.id);
    expect(shown.results.sources.map((s) => s.format)).toEqual(['image']);
    expect(share(TRATTORIA, shown.draft_catalog)).toBeGreaterThanOrEqual(0.9);
    const drafted = dishes(shown.draft_catalog);
    expect(drafted.get('Spaghetti Carbonara')).toEqual([1650]);
    expect(drafted.get('Garlic Bread')).toBeDefined();
    // Boxes are on the picture as shown (portrait), not on the stored landscape pixels: a dish listed
    // further down the page's first column is lower on it.
    const box = (name: string) => shown.draft_provenance.find((p) => p.name === name)!.box;
    expect(box('Spaghetti Carbonara').y).toBeGreaterThan(box('Garlic Bread').y);
    for (const p of shown.draft_provenance) {
      expect(p).toMatchObject({ method: 'ocr', page: 1 });
      expect(p.box.x + p.box.width).toBeLessThanOrEqual(1);
      expect(p.box.y + p.box.height).toBeLessThanOrEqual(1);
      expect(p.box.width).toBeGreaterThan(p.box.height);
    }
    expect(shown.sources.map((s) => [s.index, s.viewable, s.content_type])).toEqual([
      [0, true, 'image/jpeg'],
    ]);
  });

  it('drafts a tilted, noisy photo of a French menu by OCR: in review, the dishes and prices, OCR provenance', async () => {
    const job = await submit([`${files.url}/IMG_2041`, `${files.url}/pizzeria.pdf`], 'fr_fr');
    expect((await settled(job)).state).toBe('in_review');
    const shown = await opsJob(job.id);
    expect(shown.results.sources.map((s) => s.format)).toEqual(['image', 'pdf']);
    const photoItems = new Set(
      shown.draft_provenance.filter((p) => p.source_index === 0).map((p) => p.item_id),
    );
    const fromPhoto = {
      ...shown.draft_catalog,
      items: shown.draft_catalog.items.filter((i) => photoItems.has(i.id)),
    };
    expect(share(BISTRO, fromPhoto)).toBeGreaterThanOrEqual(0.75);
    expect(dishes(fromPhoto).get('Steak frites')).toEqual([2400]);
    expect(dishes(fromPhoto).get('Poisson du jour')).toEqual([null]);
    for (const p of shown.draft_provenance.filter((q) => q.source_index === 0)) {
      expect(p).toMatchObject({ method: 'ocr', page: 1 });
      expect(p.confidence).toBeLessThanOrEqual(0.85);
    }
    // The size columns of the PDF in the same job are variants.
    const margherita = shown.draft_catalog.items.find((i) => i.name === 'Margherita')!;
    expect(margherita.variants.map((v) => [v.name, v.price?.amount])).toEqual([
      ['Small', 1100],
      ['Large', 1600],
    ]);
    expect(shown.sources.map((s) => [s.index, s.viewable, s.content_type])).toEqual([
      [0, true, 'image/jpeg'],
      [1, true, 'application/pdf'],
    ]);
    const stored = await pipeline.deps.catalogs.size(objectKeys.catalog(job.clientId, job.id));
    expect(stored).toBeGreaterThan(0);
  });
});
