import { readAll } from '../bytes';
import { draftSource } from '../drafts/read-draft';
import { CatalogSourceError } from '../errors';
import { sniffPhotoFormat } from './signatures';
import type { OpenedSource, ReadContext, ReaderOutput } from './types';

/** SPEC 9: a source is at most 100 MB; a PDF or an image is read whole (pdf.js and OCR need every byte). */
const MAX_DRAFT_SOURCE_BYTES = 100 * 1024 * 1024;

const readWhole = (source: OpenedSource): Promise<Uint8Array> =>
  readAll(source.bytes, {
    maxBytes: MAX_DRAFT_SOURCE_BYTES,
    tooLarge: () => new CatalogSourceError('the source is over 100 MB', 'source_unreadable'),
  });

/**
 * Reads a PDF or photographed menu into drafts (SPEC 5.2 "Drafts for the operations team"): the job goes to
 * `in_review` whatever the machine found, since a draft is never published without a person. Other job
 * types (retail catalogs) are left to the operations team as they are. Either way a copy of the bytes is
 * kept for the reviewer (when the job worker provides `drafting`).
 */
export const readDraftSource = async (
  format: 'pdf' | 'image',
  what: string,
  source: OpenedSource,
  ctx: ReadContext,
): Promise<ReaderOutput> => {
  const bytes = await readWhole(source);
  const drafting = ctx.drafting;
  // What the bytes are, whatever the server called them: a reviewer's browser then shows them.
  const image = sniffPhotoFormat(source.head);
  const contentType =
    format === 'pdf'
      ? 'application/pdf'
      : image
        ? `image/${image}`
        : source.contentType?.split(';')[0]?.trim() || 'application/octet-stream';
  if (ctx.jobType !== 'new_menu') {
    // Only menus are drafted; the reviewer of another catalog still sees the source as it was read.
    await drafting?.keepCopy(source.source, bytes, { contentType, format, pages: null });
    ctx.needsReview(`${source.source} is ${what}, which the operations team reads`);
    return { kind: 'drafts', drafts: [] };
  }
  const result = await draftSource(
    {
      bytes,
      format,
      source: source.source,
      sourceIndex: drafting?.indexOf(source.source) ?? 0,
      language: ctx.language,
      currency: ctx.currency,
    },
    { recognizer: drafting?.recognizer, rasterizer: drafting?.rasterizer, decoder: drafting?.decoder },
    drafting?.limits,
  );
  await drafting?.keepCopy(source.source, bytes, { contentType, format, pages: result.pages.length });
  drafting?.record(source.source, result.items);
  ctx.describe({
    pages: result.pages.length,
    profile: result.pages.some((p) => p.method === 'ocr') ? 'ocr' : 'text_layer',
  });
  for (const warning of result.warnings) {
    ctx.warn({
      row: null,
      column: null,
      ...(warning.page ? { page: warning.page } : {}),
      code: warning.code,
      message: warning.message,
    });
  }
  ctx.needsReview(
    result.items.length > 0
      ? `${source.source} is ${what}: ${result.items.length} dishes were drafted by machine for the operations team to check`
      : `${source.source} is ${what} in which no dish with a price was found: the operations team reads it`,
  );
  return { kind: 'drafts', drafts: result.items };
};
