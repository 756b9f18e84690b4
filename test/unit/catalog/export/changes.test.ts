import { randomUUID } from 'node:crypto';
import type { JobRecord } from '../../../../lambdas/core/model';
import type { OutboundRequest } from '../../../../lambdas/core/ports';
import { objectKeys } from '../../../../lambdas/core/ports';
import type { CatalogChanges } from '../../../../lambdas/core/schemas/changes';
import { FIRST_CHANGES_CHARS } from '../../../../lambdas/core/schemas/changes';
import { processExport } from '../../../../lambdas/core/use-cases/export-processing';
import { createExport } from '../../../../lambdas/core/use-cases/exports';
import { processJob } from '../../../../lambdas/core/use-cases/job-processing';
import { aJob } from '../../../helpers/factories';
import { type FakeDeps, fakeDeps } from '../../../helpers/fakes';

/**
 * SPEC 5.5: with a merchant_token, entity ids are the merchant's, stable from one job to the next, and a
 * completed job reports `results.changes` against the merchant's previous completed job of its type; the
 * `changes` export has every change.
 */

const FIRST =
  'category,name,price,description\nPizza,Margherita,12.50,Tomato\nPizza,Diavola,14.00,Spicy\nDrinks,Cola,2.50,\n';
const EDITED =
  'category,name,price,description\nPizza,Margherita,13.00,Tomato\nPizza,Funghi,14.00,Mushrooms\nDrinks,Cola,2.50,Cold\n';

const depsServing = (files: Record<string, string>): FakeDeps => {
  const deps = fakeDeps();
  Object.assign(deps, {
    http: {
      request: async (request: OutboundRequest) => ({
        status: 200,
        headers: { 'content-type': 'text/csv' },
        url: request.url,
        body: (async function* () {
          yield Buffer.from(files[request.url] ?? '');
        })(),
      }),
    },
  });
  return deps;
};

const runJob = async (deps: FakeDeps, source: string, token: string | null, clientId = 'client-a') => {
  const job = aJob({
    id: randomUUID(),
    clientId,
    jobData: {
      catalog_sources: [source],
      merchant_name: 'Joe',
      language: 'en_us',
      ...(token === null ? {} : { merchant_token: token }),
    } as JobRecord['jobData'],
  });
  await deps.jobs.create(job);
  const outcome = await processJob(deps, job.clientId, job.id, {
    attempt: 1,
    maxAttempts: 5,
    leaseSeconds: 900,
  });
  if (outcome.kind !== 'completed') throw new Error(`job ${outcome.kind}`);
  return outcome.job;
};

const itemIds = async (deps: FakeDeps, job: JobRecord): Promise<string[]> => {
  const chunks: Buffer[] = [];
  for await (const chunk of await deps.catalogs.read(objectKeys.catalog(job.clientId, job.id)))
    chunks.push(Buffer.from(chunk));
  return (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { items: { id: string }[] }).items.map(
    (i) => i.id,
  );
};

describe('changes between one merchant’s catalogs', () => {
  it('keeps ids across a merchant’s jobs and reports exactly the edits', async () => {
    const deps = depsServing({ 'https://m.example/a.csv': FIRST, 'https://m.example/b.csv': EDITED });
    const first = await runJob(deps, 'https://m.example/a.csv', 'joe-1');
    expect(first.results.changes).toBeUndefined();
    const second = await runJob(deps, 'https://m.example/b.csv', 'joe-1');
    const changes = second.results.changes as CatalogChanges;
    expect(changes).toMatchObject({
      since_job_id: first.id,
      items_added: 1,
      items_removed: 1,
      items_changed: 2,
      prices_changed: 1,
    });
    const byName = Object.fromEntries(changes.first.map((c) => [c.name, c]));
    expect(byName.Funghi?.change).toBe('added');
    expect(byName.Diavola?.change).toBe('removed');
    expect(byName.Margherita?.fields).toEqual([
      expect.objectContaining({
        field: 'price',
        before: { amount: 1250, currency: 'USD' },
        after: { amount: 1300, currency: 'USD' },
      }),
    ]);
    expect(byName.Cola?.fields).toEqual([
      { field: 'description', variant_id: null, before: null, after: 'Cold' },
    ]);
    // The unchanged items have the same ids in both catalogs.
    const [a, b] = [await itemIds(deps, first), await itemIds(deps, second)];
    expect(a.filter((id) => b.includes(id))).toHaveLength(2);
  });

  it('reports zero changes for the same file twice, and none across merchants, clients or without a token', async () => {
    const deps = depsServing({ 'https://m.example/a.csv': FIRST });
    const first = await runJob(deps, 'https://m.example/a.csv', 'joe-1');
    const again = await runJob(deps, 'https://m.example/a.csv', 'joe-1');
    expect(again.results.changes).toMatchObject({
      since_job_id: first.id,
      items_added: 0,
      items_removed: 0,
      items_changed: 0,
      prices_changed: 0,
      first: [],
    });
    expect((await runJob(deps, 'https://m.example/a.csv', 'other')).results.changes).toBeUndefined();
    expect(
      (await runJob(deps, 'https://m.example/a.csv', 'joe-1', 'client-b')).results.changes,
    ).toBeUndefined();
    const untokened = await runJob(deps, 'https://m.example/a.csv', null);
    expect(untokened.results.changes).toBeUndefined();
    expect(await itemIds(deps, untokened)).not.toEqual(await itemIds(deps, first));
  });

  it('exports every change with before and after (format changes), and refuses it for a job without a token', async () => {
    const deps = depsServing({ 'https://m.example/a.csv': FIRST, 'https://m.example/b.csv': EDITED });
    await runJob(deps, 'https://m.example/a.csv', 'joe-1');
    const second = await runJob(deps, 'https://m.example/b.csv', 'joe-1');
    const exp = await createExport(deps, second.clientId, {
      id: second.id,
      type: 'catalog',
      format: 'changes',
    });
    expect((await processExport(deps, exp.clientId, exp.id)).kind).toBe('completed');
    const stored = await deps.exports.get(exp.clientId, exp.id);
    const chunks: Buffer[] = [];
    for await (const chunk of await deps.exportFiles.read(stored?.objectKey ?? ''))
      chunks.push(Buffer.from(chunk));
    const document = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    expect(document.summary).toEqual({
      items_added: 1,
      items_removed: 1,
      items_changed: 2,
      prices_changed: 1,
    });
    expect(document.changes.find((c: { change: string }) => c.change === 'added').fields[0].after.name).toBe(
      'Funghi',
    );
    const plain = await runJob(deps, 'https://m.example/a.csv', null);
    await expect(
      createExport(deps, plain.clientId, { id: plain.id, type: 'catalog', format: 'changes' }),
    ).rejects.toMatchObject({
      errors: [expect.objectContaining({ pointer: '/format' })],
    });
    await expect(
      createExport(deps, plain.clientId, { id: plain.id, type: 'catalog', format: 'ubereats_menu_json' }),
    ).resolves.toMatchObject({ format: 'ubereats_menu_json' });
    await expect(
      createExport(deps, plain.clientId, { id: plain.id, type: 'catalog', format: 'shopify_csv' }),
    ).rejects.toMatchObject({ errors: [expect.objectContaining({ pointer: '/format' })] });
  });
});

describe('results.changes stays small enough for the job record', () => {
  it('lists at most 20 fields of a change and at most 100,000 characters of changes', async () => {
    const { ChangeSummary } = await import('../../../../lambdas/core/catalog/index');
    const summary = new ChangeSummary('5b1a4c7e-0d2f-4e6a-8b9c-1d2e3f4a5b6c');
    const fields = Array.from({ length: 1000 }, (_, i) => ({
      field: 'price',
      variant_id: `v${i}`,
      before: 'x'.repeat(500),
      after: 'y'.repeat(500),
    }));
    for (let i = 0; i < 100; i++)
      summary.count({ change: 'changed', item_id: `i${i}`, name: `Item ${i}`, fields }, 1000);
    const result = summary.result();
    expect(result.items_changed).toBe(100);
    expect(result.prices_changed).toBe(100_000);
    expect(result.first[0]?.fields).toHaveLength(20);
    expect(result.first[0]?.more_fields).toBe(980);
    expect(JSON.stringify(result.first).length).toBeLessThanOrEqual(FIRST_CHANGES_CHARS + 2);
    expect(result.first.length).toBeGreaterThan(0);
    expect(result.first.length).toBeLessThan(100);
  });
});
