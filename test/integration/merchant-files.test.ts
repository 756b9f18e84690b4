import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { type CatalogDocument, parseCatalogDocument } from '../../lambdas/core/catalog/document';
import { upgradeCatalogStream } from '../../lambdas/core/catalog/upgrade-stream';
import type { JobRecord } from '../../lambdas/core/model';
import { objectKeys } from '../../lambdas/core/ports';
import type { Language } from '../../lambdas/core/schemas/job';
import { processJob } from '../../lambdas/core/use-cases/job-processing';
import { aJob } from '../helpers/factories';
import { fakeDeps } from '../helpers/fakes';
import {
  type BuiltExpectation,
  type Expectation,
  expectationSchema,
  isFailed,
} from '../unit/fixtures/expectation-schema';

/**
 * The merchant-file corpus (test/fixtures/merchant-files, README there): every file is uploaded and run
 * through a job of its expectation's type and language — source detection, reading, header mapping,
 * normalising, assembly, the stored catalog — and the job's results and its catalog (format 2, as an
 * export delivers it) are compared with what a merchant expects.
 */

const DIR = join(__dirname, '../fixtures/merchant-files');
const CONTENT_TYPES: Record<string, string> = {
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.xls': 'application/vnd.ms-excel',
  '.ods': 'application/vnd.oasis.opendocument.spreadsheet',
};

const expectations = readdirSync(DIR)
  .filter((f) => f.endsWith('.expected.json'))
  .sort()
  .map((f) => expectationSchema.parse(JSON.parse(readFileSync(join(DIR, f), 'utf8'))) as Expectation);

type AnyOf<T> = T | { readonly any_of: readonly T[] };
const options = <T>(value: AnyOf<T>): readonly T[] =>
  value !== null && typeof value === 'object' && 'any_of' in (value as object)
    ? (value as { any_of: readonly T[] }).any_of
    : [value as T];
const fold = (s: string | null) => (s === null ? null : s.trim().toLowerCase());
const squash = (s: string | null | undefined) =>
  s === null || s === undefined ? s : s.replace(/\s+/g, ' ').trim();
const gtin14 = (s: string | null | undefined) => (s === null || s === undefined ? s : s.padStart(14, '0'));

/** Uploads the fixture, runs its job, and returns the job and its catalog as an export delivers it. */
const run = async (expectation: Expectation) => {
  const deps = fakeDeps();
  const clientId = 'merchant';
  const fileId = randomUUID();
  const bytes = readFileSync(join(DIR, expectation.fixture));
  const objectKey = `uploads/${clientId}/${fileId}`;
  await deps.files.create({
    id: fileId,
    clientId,
    state: 'uploaded',
    filename: expectation.fixture,
    contentType: CONTENT_TYPES[extname(expectation.fixture)] ?? 'application/octet-stream',
    objectKey,
    sizeBytes: bytes.length,
    createdAt: deps.clock.now().toISOString(),
    updatedAt: deps.clock.now().toISOString(),
    uploadExpiresAt: deps.clock.now().toISOString(),
  });
  deps.uploads.objects.set(objectKey, bytes);
  const job: JobRecord = aJob({
    clientId,
    jobType: expectation.job.job_type,
    jobData: {
      catalog_sources: [fileId],
      merchant_name: 'Merchant',
      ...(expectation.job.job_type === 'retail_image_mapping'
        ? { image_sources: ['https://cdn.example.com/none.jpg'] }
        : { language: expectation.job.language as Language }),
    } as JobRecord['jobData'],
  });
  await deps.jobs.create(job);
  const outcome = await processJob(deps, clientId, job.id, { attempt: 1, maxAttempts: 3, leaseSeconds: 300 });
  const done = await deps.jobs.get(clientId, job.id);
  if (done === undefined) throw new Error('the job is gone');
  let document: CatalogDocument | null = null;
  const stored = deps.catalogs.objects.get(objectKeys.catalog(clientId, job.id));
  if (stored !== undefined) {
    const parts: Buffer[] = [];
    for await (const part of upgradeCatalogStream([stored])) parts.push(part);
    const parsed = parseCatalogDocument(JSON.parse(Buffer.concat(parts).toString('utf8')));
    if (!parsed.ok)
      throw new Error(`the stored catalog is invalid: ${JSON.stringify(parsed.errors.slice(0, 3))}`);
    document = parsed.document;
  }
  return { outcome, job: done, document, source: fileId };
};

const pathOf = (document: CatalogDocument, id: string | null): string[] | null => {
  if (id === null) return null;
  const byId = new Map(document.categories.map((c) => [c.id, c]));
  const names: string[] = [];
  for (let c = byId.get(id); c; c = c.parent_id === null ? undefined : byId.get(c.parent_id))
    names.unshift(c.name);
  return names;
};

const checkColumns = (
  label: string,
  entry: { columns: Record<string, string>; ignored_columns: readonly string[] },
  lists: { used_columns?: readonly string[]; ignored_columns?: readonly string[] },
) => {
  const ignored = entry.ignored_columns.map(fold);
  const used = Object.keys(entry.columns).map(fold);
  for (const column of lists.ignored_columns ?? []) {
    expect([label, 'ignored', column, ignored.includes(fold(column))]).toEqual([
      label,
      'ignored',
      column,
      true,
    ]);
  }
  for (const column of lists.used_columns ?? []) {
    expect([label, 'used', column, !ignored.includes(fold(column)) && used.includes(fold(column))]).toEqual([
      label,
      'used',
      column,
      true,
    ]);
  }
};

const checkBuilt = async (expectation: BuiltExpectation) => {
  const { job, document, source } = await run(expectation);
  expect({ state: job.state, error: job.error }).toEqual({ state: 'completed', error: null });
  if (document === null) throw new Error('no catalog was stored');
  const results = job.results;
  const entry = results.sources?.find((s) => s.source === source);
  if (entry === undefined) throw new Error('the source has no entry in results.sources');

  // How the source was read.
  expect(entry.format).toBe(expectation.source.format);
  if (expectation.source.encoding !== undefined)
    expect(entry.encoding?.toLowerCase()).toBe(expectation.source.encoding);
  expect(options(expectation.source.profile)).toContain(entry.profile);
  if (expectation.source.header_row !== undefined)
    expect(entry.header_row).toBe(expectation.source.header_row);
  else if (!['xlsx', 'xls', 'ods', 'json', 'xml'].includes(expectation.source.format))
    expect(entry.header_row).toBe(1);
  checkColumns('source', entry, expectation.source);
  for (const sheet of expectation.source.sheets ?? []) {
    const actual = entry.sheets?.find((s) => s.name === sheet.name);
    expect([sheet.name, actual !== undefined]).toEqual([sheet.name, true]);
    if (!sheet.read) {
      expect([sheet.name, actual?.header_row ?? null]).toEqual([sheet.name, null]);
      continue;
    }
    expect([sheet.name, actual?.header_row]).toEqual([sheet.name, sheet.header_row ?? 1]);
    checkColumns(
      `sheet ${sheet.name}`,
      { columns: actual?.columns ?? {}, ignored_columns: actual?.ignored_columns ?? [] },
      sheet,
    );
  }

  // The catalog.
  const { catalog } = expectation;
  expect(document.currency).toBe(catalog.currency);
  expect({
    items: document.items.length,
    variants: document.items.reduce((n, i) => n + i.variants.length, 0),
  }).toEqual({
    items: catalog.item_count,
    variants: catalog.variant_count,
  });
  const paths = document.categories.map((c) => JSON.stringify(pathOf(document, c.id)));
  for (const path of catalog.category_paths) expect(paths).toContain(JSON.stringify(path));
  for (const want of catalog.items) {
    const candidates = document.items.filter((i) => i.name === want.name);
    const item =
      candidates.length <= 1
        ? candidates[0]
        : candidates.find((i) =>
            options(want.category).some(
              (p) => JSON.stringify(p) === JSON.stringify(pathOf(document, i.category_id)),
            ),
          );
    if (item === undefined)
      throw new Error(
        `no item named ${JSON.stringify(want.name)}; items: ${document.items.map((i) => i.name).join(', ')}`,
      );
    const got = (key: string, value: unknown) => [want.name, key, value];
    expect(
      got(
        'category',
        options(want.category).some(
          (p) => JSON.stringify(p) === JSON.stringify(pathOf(document, item.category_id)),
        ),
      ),
    ).toEqual(got('category', true));
    if (want.description !== undefined)
      expect(got('description', squash(item.description))).toEqual(
        got('description', squash(want.description)),
      );
    if (want.brand !== undefined) expect(got('brand', item.brand)).toEqual(got('brand', want.brand));
    if (want.tags !== undefined)
      expect(got('tags', [...item.tags].sort())).toEqual(got('tags', want.tags.map((t) => t.trim()).sort()));
    if (want.images !== undefined)
      expect(
        got(
          'images',
          item.images.map((i) => i.url),
        ),
      ).toEqual(got('images', want.images));
    if (want.option_names !== undefined)
      expect(got('option_names', item.option_names)).toEqual(got('option_names', want.option_names));
    expect(got('variants', item.variants.length)).toEqual(got('variants', want.variants.length));
    want.variants.forEach((wv, index) => {
      const v = item.variants[index];
      if (v === undefined) return;
      const at = (key: string, value: unknown) => [want.name, index, key, value];
      expect(at('name', options(wv.name).includes(v.name))).toEqual(at('name', true));
      expect(at('price', v.price)).toEqual(at('price', wv.price));
      if (wv.options !== undefined) expect(at('options', v.options)).toEqual(at('options', wv.options));
      if (wv.pricing !== undefined) expect(at('pricing', v.pricing)).toEqual(at('pricing', wv.pricing));
      if (wv.sku !== undefined) expect(at('sku', v.sku)).toEqual(at('sku', wv.sku));
      if (wv.gtin !== undefined) expect(at('gtin', gtin14(v.gtin))).toEqual(at('gtin', gtin14(wv.gtin)));
      if (wv.images !== undefined)
        expect(
          at(
            'images',
            v.images.map((i) => i.url),
          ),
        ).toEqual(at('images', wv.images));
    });
  }
  if (catalog.items_listed === 'all') expect(catalog.items).toHaveLength(document.items.length);

  // Warnings.
  const warnings = (results.warnings ?? []).filter((w) => w.source === source);
  expect(results.warning_count).toBe((results.warnings ?? []).length);
  const matched = new Set<number>();
  for (const want of expectation.warnings) {
    const index = warnings.findIndex(
      (w, i) =>
        !matched.has(i) &&
        w.code === want.code &&
        w.row === want.row &&
        options(want.column).some((c) => fold(c) === fold(w.column)) &&
        (want.sheet === undefined || w.sheet === want.sheet),
    );
    expect([want, index >= 0 ? 'found' : warnings]).toEqual([want, 'found']);
    matched.add(index);
  }
  if (expectation.warnings_exhaustive) {
    expect(warnings.filter((_, i) => !matched.has(i))).toEqual([]);
  }
};

const check = async (expectation: Expectation) => {
  if (isFailed(expectation)) {
    const { job } = await run(expectation);
    expect({ state: job.state, code: job.error?.code }).toEqual({
      state: 'failed',
      code: expectation.error.code,
    });
    return;
  }
  await checkBuilt(expectation);
};

describe('merchant-file corpus through a job (SPEC 5.2, 5.5)', () => {
  test('the corpus is there', () => {
    expect(expectations.length).toBeGreaterThanOrEqual(40);
  });

  // Every fixture, platform exports SPEC 5.2 does not name included: each has its profile now.
  test.each(expectations.map((e) => [e.fixture, e] as const))('%s', async (_fixture, expectation) => {
    await check(expectation);
  });
});
