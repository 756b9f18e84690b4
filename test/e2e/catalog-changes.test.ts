import { eventually } from '../helpers/factories';
import { type Json, type LocalService, startLocalService } from '../helpers/local-service';

/**
 * Issue 26 as a client lives it, against `npm start`: a merchant's Square item library export in, a Shopify
 * CSV out; the same file edited and run again gives exactly the edits as `results.changes` (and the
 * `changes` export); the identical file twice gives zero changes.
 */

let service: LocalService;
beforeAll(async () => {
  service = await startLocalService();
}, 120_000);
afterAll(async () => {
  await service?.stop();
});

// A Square item library export, as Items → Export library writes it (a subset of its columns).
const HEADER =
  'Token,Item Name,Variation Name,SKU,Description,Categories,Reporting Category,GTIN,Price,Option Name 1,Option Value 1';
const SQUARE = [
  HEADER,
  ',Latte,Small,LAT-S,"Espresso, steamed milk.",Coffee,Coffee,,4.50,Size,Small',
  ',Latte,Large,LAT-L,"Espresso, steamed milk.",Coffee,Coffee,,5.25,Size,Large',
  ',Drip Coffee,Regular,DRIP,,Coffee,Coffee,,2.75,,',
  ',Blueberry Muffin,Regular,MUF-B,Baked daily.,Bakery,Bakery,,3.25,,',
].join('\r\n');
// The merchant's edits: the large latte costs more, the muffin is gone, a scone is new, drip coffee has a description.
const EDITED = [
  HEADER,
  ',Latte,Small,LAT-S,"Espresso, steamed milk.",Coffee,Coffee,,4.50,Size,Small',
  ',Latte,Large,LAT-L,"Espresso, steamed milk.",Coffee,Coffee,,5.50,Size,Large',
  ',Drip Coffee,Regular,DRIP,Our house blend.,Coffee,Coffee,,2.75,,',
  ',Cheese Scone,Regular,SCO-C,,Bakery,Bakery,,3.75,,',
].join('\r\n');

const post = (path: string, body: unknown) =>
  service.request(path, { method: 'POST', body: JSON.stringify(body) });

const upload = async (text: string): Promise<string> => {
  const created = await post('/v1/files', { filename: 'items.csv', content_type: 'text/csv' });
  expect(created.status).toBe(201);
  const put = await fetch(created.json.upload_url, {
    method: 'PUT',
    body: Buffer.from(text),
    headers: { 'content-type': 'text/csv' },
  });
  expect(put.status).toBe(200);
  return created.json.id;
};

const completedJob = async (text: string): Promise<Json> => {
  const source = await upload(text);
  const created = await post('/v1/jobs', {
    job: {
      job_type: 'new_retail_catalog',
      processing_type: 'rush',
      job_data: { catalog_sources: [source], merchant_name: 'Harbor Beans', merchant_token: 'harbor-1' },
    },
  });
  expect(created.status).toBe(201);
  return eventually(
    async () => {
      const job = await service.request(`/v1/jobs/${created.json.id}`);
      return job.json.state === 'completed' ? job.json : undefined;
    },
    { timeoutMs: 60_000, what: 'the job to complete' },
  );
};

const exported = async (jobId: string, format: string): Promise<{ export: Json; body: string }> => {
  const created = await post('/v1/data_exports', { id: jobId, type: 'catalog', format });
  expect(created.status).toBe(201);
  expect(created.json.format).toBe(format);
  const done = await eventually(
    async () => {
      const exp = await service.request(`/v1/data_exports/${created.json.id}`);
      return exp.json.state === 'completed' ? exp.json : undefined;
    },
    { timeoutMs: 60_000, what: 'the export to complete' },
  );
  const download = await fetch(done.delivery_url);
  expect(download.status).toBe(200);
  return { export: done, body: await download.text() };
};

describe('catalogs that move (issue 26)', () => {
  it('a Square export in, a Shopify CSV out; the edited file re-run gives exactly its edits', async () => {
    const first = await completedJob(SQUARE);
    expect(first.results.sources[0].profile).toBe('square');
    expect(first.results.changes).toBeUndefined();

    const shopify = await exported(first.id, 'shopify_csv');
    expect(shopify.export.file).toMatchObject({ content_type: 'text/csv', item_count: 3 });
    const lines = shopify.body.replace(/^\uFEFF/, '').split('\n');
    expect(lines[0]?.startsWith('Title,URL handle,Description,Vendor')).toBe(true);
    expect(lines.filter((l) => l.startsWith('Latte,latte,'))).toHaveLength(1);
    expect(shopify.body).toContain('5.25');

    const second = await completedJob(EDITED);
    expect(second.results.changes).toMatchObject({
      since_job_id: first.id,
      items_added: 1,
      items_removed: 1,
      items_changed: 2,
      prices_changed: 1,
    });
    const byName = Object.fromEntries(second.results.changes.first.map((c: Json) => [c.name, c]));
    expect(byName['Cheese Scone'].change).toBe('added');
    expect(byName['Blueberry Muffin'].change).toBe('removed');
    expect(byName.Latte.fields).toEqual([
      expect.objectContaining({
        field: 'price',
        before: { amount: 525, currency: 'USD' },
        after: { amount: 550, currency: 'USD' },
      }),
    ]);
    expect(byName['Drip Coffee'].fields).toEqual([
      { field: 'description', variant_id: null, before: null, after: 'Our house blend.' },
    ]);

    const changes = await exported(second.id, 'changes');
    const document = JSON.parse(changes.body);
    expect(document).toMatchObject({ format: 'catalog_changes', since_job_id: first.id });
    expect(document.summary).toEqual({
      items_added: 1,
      items_removed: 1,
      items_changed: 2,
      prices_changed: 1,
    });
    expect(document.changes).toHaveLength(4);

    const again = await completedJob(EDITED);
    expect(again.results.changes).toMatchObject({
      since_job_id: second.id,
      items_added: 0,
      items_removed: 0,
      items_changed: 0,
      prices_changed: 0,
      first: [],
    });
  }, 240_000);

  it('refuses a format that does not fit the job, and a feed without its link_template', async () => {
    const job = await post('/v1/jobs', {
      job: {
        job_type: 'new_menu',
        processing_type: 'rush',
        job_data: { catalog_sources: ['https://merchant.example.com/menu.csv'], merchant_name: 'Joe' },
      },
    });
    const wrong = await post('/v1/data_exports', { id: job.json.id, type: 'catalog', format: 'shopify_csv' });
    expect(wrong.status).toBe(400);
    expect(wrong.json.errors[0].pointer).toBe('/format');
    const feed = await post('/v1/data_exports', {
      id: job.json.id,
      type: 'catalog',
      format: 'google_merchant_tsv',
    });
    expect(feed.status).toBe(400);
    expect(feed.json.errors[0]).toMatchObject({ pointer: '/link_template', code: 'required' });
  });
});
