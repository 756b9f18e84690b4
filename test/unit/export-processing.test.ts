import { createHash } from 'node:crypto';
import type { ExportRecord } from '../../lambdas/core/model';
import { objectKeys } from '../../lambdas/core/ports';
import {
  EXPORT_RECHECK_SECONDS,
  processExport,
  wakeExportsOfJob,
} from '../../lambdas/core/use-cases/export-processing';
import { createExport } from '../../lambdas/core/use-cases/exports';
import { cancelJob } from '../../lambdas/core/use-cases/jobs';
import { aJob } from '../helpers/factories';
import { type FakeDeps, fakeDeps } from '../helpers/fakes';

const catalog = JSON.stringify({ format_version: 1, items: [{ id: 'a' }, { id: 'b' }] });

const setUp = async (jobState: 'processing' | 'completed' | 'failed' | 'in_review', callbackUrl?: string) => {
  const deps = fakeDeps();
  const job = aJob({
    state: jobState === 'failed' ? 'processing' : jobState,
    results: {
      catalog: {
        item_count: 2,
        variant_count: 2,
        category_count: 0,
        modifier_group_count: 0,
        image_count: 0,
      },
    },
    jobData: {
      catalog_sources: ['https://x.test/a.csv'],
      merchant_name: 'Joe',
      language: 'en_us',
      client_mappings: { items: { Burger: 'pos-1' } },
    },
  });
  await deps.jobs.create(job);
  const exp = await createExport(deps, job.clientId, {
    id: job.id,
    type: 'catalog',
    callback_url: callbackUrl,
  });
  if (jobState === 'failed') {
    await deps.jobs.transition(job.clientId, job.id, { event: 'fail', at: 'x' });
  }
  deps.catalogs.objects.set(objectKeys.catalog(job.clientId, job.id), Buffer.from(catalog));
  deps.queue.exports.length = 0;
  deps.queue.exportDelays.length = 0;
  return { deps, job, exp };
};

const stored = (deps: FakeDeps, exp: ExportRecord) => deps.exports.get(exp.clientId, exp.id);

describe('processExport (SPEC 5.3)', () => {
  it('waits while the job runs, and looks again later as a backstop', async () => {
    const { deps, exp } = await setUp('in_review');
    const outcome = await processExport(deps, exp.clientId, exp.id);
    expect(outcome).toEqual({ kind: 'waiting', jobState: 'in_review' });
    expect((await stored(deps, exp))?.state).toBe('initiated');
    expect(deps.queue.exportDelays).toEqual([EXPORT_RECHECK_SECONDS]);
  });

  it('writes the file of a completed job and completes with its size, checksum and mappings', async () => {
    const { deps, job, exp } = await setUp('completed');
    const outcome = await processExport(deps, exp.clientId, exp.id);
    expect(outcome.kind).toBe('completed');
    const done = await stored(deps, exp);
    expect(done).toMatchObject({
      state: 'completed',
      objectKey: objectKeys.exportFile(exp.clientId, exp.id),
      clientMappings: { items: { Burger: 'pos-1' } },
      file: {
        content_type: 'application/json',
        size_bytes: Buffer.byteLength(catalog),
        checksum_sha256: createHash('sha256').update(catalog).digest('hex'),
        item_count: 2,
      },
      callback: null,
      completedAt: deps.clock.now().toISOString(),
    });
    expect(deps.exportFiles.objects.get(objectKeys.exportFile(exp.clientId, exp.id))?.toString()).toBe(
      catalog,
    );
    expect(deps.queue.callbacks).toEqual([]);
    expect(job.id).toBe(exp.jobId);
  });

  it('queues the first callback when there is a callback_url', async () => {
    const { deps, exp } = await setUp('completed', 'https://hooks.test/x');
    await processExport(deps, exp.clientId, exp.id);
    expect((await stored(deps, exp))?.callback).toEqual({
      state: 'pending',
      attempts: 0,
      last_status: null,
      last_attempt_at: null,
    });
    expect(deps.queue.callbacks).toEqual([
      {
        message: {
          kind: 'callback',
          clientId: exp.clientId,
          exportId: exp.id,
          eventId: `msg_${exp.id}`,
          attempt: 1,
        },
        delaySeconds: 0,
      },
    ]);
  });

  it('fails the export of a failed job with job_failed, and still calls back', async () => {
    const { deps, exp } = await setUp('failed', 'https://hooks.test/x');
    const outcome = await processExport(deps, exp.clientId, exp.id);
    expect(outcome.kind).toBe('failed');
    const failed = await stored(deps, exp);
    expect(failed?.state).toBe('failed');
    expect(failed?.error?.code).toBe('job_failed');
    expect(deps.queue.callbacks).toHaveLength(1);
  });

  it('handles a duplicate message once: one file, one callback series', async () => {
    const { deps, exp } = await setUp('completed', 'https://hooks.test/x');
    await processExport(deps, exp.clientId, exp.id);
    const again = await processExport(deps, exp.clientId, exp.id);
    expect(again).toEqual({ kind: 'skipped', reason: 'terminal' });
    expect(deps.queue.callbacks).toHaveLength(1);
    expect((await stored(deps, exp))?.version).toBe(3);
  });

  it('re-queues a callback that a crashed worker never sent', async () => {
    const { deps, exp } = await setUp('completed', 'https://hooks.test/x');
    deps.queue.failNext = 0;
    const send = deps.queue.sendCallback.bind(deps.queue);
    deps.queue.sendCallback = () => Promise.reject(new Error('crashed'));
    await expect(processExport(deps, exp.clientId, exp.id)).rejects.toThrow('crashed');
    deps.queue.sendCallback = send;
    expect(await processExport(deps, exp.clientId, exp.id)).toEqual({ kind: 'skipped', reason: 'terminal' });
    deps.clock.advance(61_000);
    expect(await processExport(deps, exp.clientId, exp.id)).toEqual({ kind: 'callback_resent' });
    expect(deps.queue.callbacks).toHaveLength(1);
  });

  it('fails with export_failed when the completed job has no catalog document', async () => {
    const { deps, job, exp } = await setUp('completed');
    deps.catalogs.objects.delete(objectKeys.catalog(job.clientId, job.id));
    await processExport(deps, exp.clientId, exp.id);
    expect((await stored(deps, exp))?.error?.code).toBe('export_failed');
  });

  it('is woken by the job reaching a terminal state, and by a cancel', async () => {
    const deps = fakeDeps();
    const job = aJob();
    await deps.jobs.create(job);
    const first = await createExport(deps, job.clientId, { id: job.id, type: 'catalog' });
    const second = await createExport(deps, job.clientId, { id: job.id, type: 'catalog' });
    deps.queue.exports.length = 0;
    expect(await wakeExportsOfJob(deps, job)).toBe(2);
    expect(deps.queue.exports.map((m) => m.exportId).sort()).toEqual([first.id, second.id].sort());
    deps.queue.exports.length = 0;
    await cancelJob(deps, job.clientId, job.id);
    expect(deps.queue.exports).toHaveLength(2);
    await processExport(deps, first.clientId, first.id);
    expect((await deps.exports.get(first.clientId, first.id))?.error?.code).toBe('job_failed');
  });
});

describe('processExport in a platform format (SPEC 3.2 format, files, warnings)', () => {
  it('splits a Shopify CSV over 15 MB into files, each signed, delivery_url the first, the split in warnings', async () => {
    const { catalogJsonChunks, makeEntityIds } = await import('../../lambdas/core/catalog/index');
    const { exportResource } = await import('../../lambdas/core/model');
    const { deliveryLink } = await import('../../lambdas/core/use-cases/exports');
    const deps = fakeDeps();
    const job = aJob({ state: 'completed', jobType: 'new_retail_catalog' });
    await deps.jobs.create(job);
    const id = makeEntityIds(job.id);
    const description = 'd'.repeat(19_000);
    const items = Array.from({ length: 850 }, (_, i) => ({
      id: id('item', String(i)),
      name: `Product ${i}`,
      description,
      category_id: null,
      brand: null,
      tags: [],
      calories: 120,
      modifier_group_ids: [],
      images: [],
      external_id: null,
      option_names: [],
      variants: [
        {
          id: id('variant', String(i)),
          name: null,
          options: {},
          sku: `SKU-${i}`,
          gtin: null,
          size: null,
          unit: null,
          price: { amount: 1000, currency: 'USD' },
          pricing: 'fixed' as const,
          images: [],
          external_id: null,
        },
      ],
    }));
    const chunks: string[] = [];
    for await (const chunk of catalogJsonChunks({
      format_version: 2,
      job_id: job.id,
      job_type: 'new_retail_catalog',
      generated_at: job.createdAt,
      language: 'en_us',
      currency: 'USD',
      merchant: { name: 'Joe', address: null, token: null },
      categories: [],
      items,
      modifier_groups: [],
      image_mappings: [],
    }))
      chunks.push(chunk);
    deps.catalogs.objects.set(objectKeys.catalog(job.clientId, job.id), Buffer.from(chunks.join('')));
    const exp = await createExport(deps, job.clientId, {
      id: job.id,
      type: 'catalog',
      format: 'shopify_csv',
    });
    expect((await processExport(deps, job.clientId, exp.id)).kind).toBe('completed');
    const done = (await deps.exports.get(job.clientId, exp.id)) as ExportRecord;
    const resource = exportResource(done, await deliveryLink(deps, done));
    expect(resource.format).toBe('shopify_csv');
    expect(resource.files).toHaveLength(2);
    expect(resource.files?.map((f) => f.name)).toEqual(['products-1.csv', 'products-2.csv']);
    expect(resource.files?.every((f) => f.size_bytes <= 15_000_000 && f.content_type === 'text/csv')).toBe(
      true,
    );
    expect(resource.files?.reduce((n, f) => n + f.item_count, 0)).toBe(850);
    expect(resource.file).toMatchObject({
      content_type: 'text/csv',
      size_bytes: resource.files?.[0]?.size_bytes,
    });
    expect(resource.delivery_url).toBe(resource.files?.[0]?.url);
    expect(resource.files?.[1]?.url).toContain(objectKeys.exportPart(job.clientId, exp.id, 2));
    for (const [i, f] of (done.files ?? []).entries()) {
      const bytes = deps.exportFiles.objects.get(f.key) as Buffer;
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(resource.files?.[i]?.checksum_sha256);
    }
    expect(resource.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'split', count: 2 }),
        expect.objectContaining({ code: 'not_carried', field: 'calories', count: 850 }),
      ]),
    );
  }, 60_000);
});
