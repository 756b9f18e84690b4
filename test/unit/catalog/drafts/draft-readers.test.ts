import { randomUUID } from 'node:crypto';
import type { Draft, DraftItem } from '../../../../lambdas/core/catalog/draft';
import type { DraftingServices } from '../../../../lambdas/core/catalog/drafts/drafting';
import { imageReader } from '../../../../lambdas/core/catalog/sources/image';
import { pdfReader } from '../../../../lambdas/core/catalog/sources/pdf';
import type { ReadContext, SourceDetails } from '../../../../lambdas/core/catalog/sources/types';
import type { JobType } from '../../../../lambdas/core/schemas/job';
import { DraftCollector } from '../../../../lambdas/core/use-cases/draft-collector';
import {
  draftReviewKey,
  readDraftReview,
  sourceCopyKey,
} from '../../../../lambdas/core/use-cases/draft-review';
import { CORPUS } from '../../../fixtures/drafts/corpus';
import { menuPdf } from '../../../fixtures/drafts/menus';
import { FakeClock, FakeObjectStore } from '../../../helpers/fakes';

jest.setTimeout(30_000);

const URL_SOURCE = 'https://trattoria.example.com/menu.pdf';

/** A ReadContext that records what the reader says, with DraftingServices that record what it keeps. */
const context = (jobType: JobType = 'new_menu') => {
  const said = {
    review: [] as string[],
    warnings: [] as string[],
    details: {} as SourceDetails,
    copies: [] as { source: string; size: number; contentType: string; pages: number | null }[],
    recorded: [] as DraftItem[],
  };
  const drafting: DraftingServices = {
    indexOf: () => 3,
    keepCopy: async (source, bytes, details) => {
      said.copies.push({
        source,
        size: bytes.length,
        contentType: details.contentType,
        pages: details.pages,
      });
    },
    record: (_source, items) => said.recorded.push(...items),
  };
  const ctx: ReadContext = {
    source: URL_SOURCE,
    jobId: randomUUID(),
    jobType,
    language: 'en_us',
    currency: 'USD',
    drafting,
    warn: (w) => said.warnings.push(w.message),
    needsReview: (reason) => said.review.push(reason),
    describe: (details) => Object.assign(said.details, details),
  };
  return { ctx, said };
};

async function* stream(bytes: Buffer): AsyncIterable<Buffer> {
  // In pieces, as a fetch delivers it.
  for (let i = 0; i < bytes.length; i += 4096) yield bytes.subarray(i, i + 4096);
}

const opened = (bytes: Buffer, contentType: string | null) => ({
  source: URL_SOURCE,
  head: bytes.subarray(0, 64),
  contentType,
  name: URL_SOURCE,
  bytes: stream(bytes),
  encoding: null,
});

const drafts = async (output: Awaited<ReturnType<typeof pdfReader.read>>): Promise<Draft[]> => {
  if (output.kind !== 'drafts') throw new Error('expected drafts');
  const all: Draft[] = [];
  for await (const d of output.drafts) all.push(d);
  return all;
};

describe('the PDF reader', () => {
  it('drafts the dishes of a menu for review, keeps a copy and records provenance', async () => {
    const pdf = await menuPdf(CORPUS[2]!);
    const { ctx, said } = context();
    const items = await drafts(await pdfReader.read(opened(pdf, 'application/octet-stream'), ctx));
    expect(items).toContainEqual({
      kind: 'item',
      categoryPath: ['Pizza'],
      name: 'Margherita',
      description: null,
      optionNames: ['Size'],
      variants: [
        {
          name: 'Small',
          options: { Size: 'Small' },
          price: { amount: 1100, currency: 'USD' },
          pricing: 'fixed',
        },
        {
          name: 'Large',
          options: { Size: 'Large' },
          price: { amount: 1600, currency: 'USD' },
          pricing: 'fixed',
        },
      ],
      provenance: {
        source: URL_SOURCE,
        sourceIndex: 3,
        page: 1,
        box: expect.objectContaining({ x: expect.any(Number), y: expect.any(Number) }),
        method: 'text',
      },
      confidence: 0.95,
      doubts: [],
    });
    expect(said.review).toEqual([
      `${URL_SOURCE} is a PDF menu: ${items.length} dishes were drafted by machine for the operations team to check`,
    ]);
    expect(said.copies).toEqual([
      { source: URL_SOURCE, size: pdf.length, contentType: 'application/pdf', pages: 1 },
    ]);
    expect(said.recorded.map((i) => i.provenance?.sourceIndex)).toEqual(items.map(() => 3));
    expect(said.details).toEqual({ pages: 1, profile: 'text_layer' });
  });

  it('leaves a retail catalog in a PDF to the operations team, with a copy', async () => {
    const pdf = await menuPdf(CORPUS[0]!);
    const { ctx, said } = context('new_retail_catalog');
    expect(await drafts(await pdfReader.read(opened(pdf, 'application/pdf'), ctx))).toEqual([]);
    expect(said.review).toEqual([`${URL_SOURCE} is a PDF menu, which the operations team reads`]);
    expect(said.copies).toHaveLength(1);
  });
});

describe('the image reader', () => {
  it('says so when no OCR engine is there and sends the photo to a person', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);
    const { ctx, said } = context();
    expect(await drafts(await imageReader.read(opened(jpeg, null), ctx))).toEqual([]);
    expect(said.review[0]).toMatch(/is a photo of a menu in which no dish with a price was found/);
    expect(said.copies[0]).toMatchObject({ contentType: 'image/jpeg' });
    expect(said.warnings).toHaveLength(1);
  });
});

describe('DraftCollector', () => {
  it('keeps copies of URL sources only, and writes the review with the catalog’s item ids', async () => {
    const catalogs = new FakeObjectStore(new FakeClock(), 'catalogs');
    const fileId = randomUUID();
    const job = {
      clientId: 'c1',
      id: randomUUID(),
      jobData: { catalog_sources: [fileId, URL_SOURCE], merchant_name: 'T', language: 'en_us' as const },
    };
    const collector = new DraftCollector({ catalogs }, job);
    expect(collector.indexOf(URL_SOURCE)).toBe(1);
    await collector.keepCopy(URL_SOURCE, Buffer.from('%PDF'), {
      contentType: 'application/pdf',
      format: 'pdf',
      pages: 1,
    });
    await collector.keepCopy(fileId, Buffer.from('jpeg'), {
      contentType: 'image/jpeg',
      format: 'image',
      pages: 1,
    });
    expect([...catalogs.objects.keys()]).toEqual([sourceCopyKey('c1', job.id, 1)]);
    const provenance = {
      source: URL_SOURCE,
      sourceIndex: 1,
      page: 1,
      box: { x: 0, y: 0, width: 1, height: 0.1 },
      method: 'text' as const,
    };
    const dish = (name: string, categoryPath: string[], confidence: number): DraftItem => ({
      kind: 'item',
      categoryPath,
      name,
      description: null,
      optionNames: [],
      variants: [],
      provenance,
      confidence,
      doubts: [],
    });
    collector.record(URL_SOURCE, [
      dish('Soup', ['Starters'], 0.9),
      dish('soup', ['starters'], 0.5),
      dish('Pie', [], 0.4),
    ]);
    const categoryId = randomUUID();
    const [soupId, pieId] = [randomUUID(), randomUUID()];
    const document = {
      categories: [{ id: categoryId, name: 'Starters', parent_id: null }],
      items: [
        { id: soupId, name: 'Soup', category_id: categoryId },
        { id: pieId, name: 'Pie', category_id: null },
      ],
    } as unknown as Parameters<DraftCollector['finish']>[0];
    expect(await collector.finish(document)).toBe(2);
    const review = await readDraftReview(catalogs, job);
    expect(review?.items.map((i) => [i.item_id, i.name, i.confidence])).toEqual([
      [pieId, 'Pie', 0.4],
      [soupId, 'Soup', 0.9],
    ]);
    expect(review?.sources.map((s) => [s.index, s.copied])).toEqual([
      [1, true],
      [0, false],
    ]);
    expect(catalogs.objects.has(draftReviewKey('c1', job.id))).toBe(true);
  });

  it('writes nothing for a job without drafted sources', async () => {
    const catalogs = new FakeObjectStore(new FakeClock(), 'catalogs');
    const collector = new DraftCollector(
      { catalogs },
      {
        clientId: 'c1',
        id: randomUUID(),
        jobData: { catalog_sources: [URL_SOURCE], merchant_name: 'T', language: 'en_us' as const },
      },
    );
    expect(
      await collector.finish({ categories: [], items: [] } as unknown as Parameters<
        DraftCollector['finish']
      >[0]),
    ).toBe(0);
    expect(catalogs.objects.size).toBe(0);
  });
});
