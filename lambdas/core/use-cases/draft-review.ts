import type * as z from 'zod';
import { type DraftItem, inertContentType, readAll, type WebPageCopy } from '../catalog';
import { NotFoundError } from '../errors';
import type { JobRecord } from '../model';
import {
  type DownloadResponse,
  type FileRepository,
  type ObjectStore,
  objectKeys,
  type SignedUrl,
} from '../ports';
import { isUuid } from '../schemas/job';
import type { itemProvenanceSchema } from '../schemas/responses';

/**
 * What the operations team needs beside a drafted catalog (SPEC 5.2 drafts, 5.4): for each drafted item,
 * where it was read and how sure the machine is; for each source, a copy of the bytes the machine read,
 * so that a reviewer sees exactly that (a URL may answer differently tomorrow). Both live in the catalogs
 * bucket next to the draft: `drafts/{client}/{job}.json` and `sources/{client}/{job}/{n}`.
 */

export const draftReviewKey = objectKeys.draftReview;
export const sourceCopyKey = objectKeys.sourceCopy;

/**
 * One drafted item's provenance, keyed by the item's id in the draft catalog: a page and box of a PDF or
 * photo, or a web page's URL and element path (no box). One type with the operations API's schema.
 */
export type ItemProvenance = z.infer<typeof itemProvenanceSchema>;

/**
 * A drafted item's provenance as the review records it (the draft's own, draft.ts, in the review's words);
 * `sourceIndex` stands in when the draft does not say which of the job's sources it came from.
 */
export const itemProvenanceOf = (itemId: string, item: DraftItem, sourceIndex: number): ItemProvenance => {
  const p = item.provenance;
  const method = p?.method ?? 'text';
  return {
    item_id: itemId,
    name: item.name,
    source: p?.source ?? '',
    source_index: p?.sourceIndex ?? sourceIndex,
    page: p?.page ?? 1,
    box: p?.box ?? null,
    method,
    ...(method === 'html' ? { url: p?.url ?? null, locator: p?.locator ?? null } : {}),
    confidence: item.confidence ?? 0,
    doubts: [...(item.doubts ?? [])],
  };
};

/** A source as the review shows it: where its bytes are, what they are. */
export interface ReviewSource {
  readonly index: number;
  readonly source: string;
  readonly format: string;
  /** Content type of the copy (or of the uploaded file). */
  readonly content_type: string | null;
  readonly size_bytes: number | null;
  /** True when a copy of a URL source was kept at processing time (uploaded files are kept anyway). */
  readonly copied: boolean;
  readonly pages: number | null;
  /**
   * A web source: the pages the copy holds, one after the other (each page's text as UTF-8 at its offset),
   * so that a drafted item's `page` and `locator` can be found in it.
   */
  readonly web_pages?: readonly WebPageCopy[];
}

export interface DraftReview {
  readonly version: 1;
  readonly sources: readonly ReviewSource[];
  /** Lowest confidence first: reviewers check the uncertain items first. */
  readonly items: readonly ItemProvenance[];
}

/**
 * Orders provenance for review: lowest confidence first, then by source, page and position (web page items,
 * which have no box, stay in the page's order).
 */
export const byReviewOrder = (a: ItemProvenance, b: ItemProvenance): number =>
  a.confidence - b.confidence ||
  a.source_index - b.source_index ||
  a.page - b.page ||
  (a.box?.y ?? 0) - (b.box?.y ?? 0) ||
  (a.box?.x ?? 0) - (b.box?.x ?? 0);

async function* once(text: string): AsyncIterable<string> {
  yield text;
}

export const writeDraftReview = async (
  catalogs: ObjectStore,
  job: Pick<JobRecord, 'clientId' | 'id'>,
  review: DraftReview,
): Promise<void> => {
  const body = JSON.stringify({ ...review, items: [...review.items].sort(byReviewOrder) });
  await catalogs.write(draftReviewKey(job.clientId, job.id), once(body), 'application/json');
};

/** Provenance larger than this is not read inline (a draft of a PDF is a few hundred items, ~100 KB). */
export const INLINE_REVIEW_BYTES = 2 * 1024 * 1024;

export const readDraftReview = async (
  catalogs: ObjectStore,
  job: Pick<JobRecord, 'clientId' | 'id'>,
): Promise<DraftReview | null> => {
  const key = draftReviewKey(job.clientId, job.id);
  const size = await catalogs.size(key);
  if (size === undefined || size > INLINE_REVIEW_BYTES) return null;
  return JSON.parse((await readAll(await catalogs.read(key))).toString('utf8')) as DraftReview;
};

export interface SourceDownload extends SignedUrl {
  readonly index: number;
  readonly source: string;
  readonly content_type: string | null;
  readonly size_bytes: number;
}

/** Presigned URLs for viewing a source live this long: enough to open it, short enough not to be shared. */
export const SOURCE_URL_SECONDS = 5 * 60;

const fileNameOf = (source: string, index: number): string => {
  const path = URL.canParse(source) ? new URL(source).pathname : source;
  return decodeURIComponent(path.split('/').filter(Boolean).at(-1) ?? '') || `source-${index}`;
};

/**
 * Where source `index` of a job can be read (SPEC 5.4 `GET /v1/ops/jobs/{id}/sources/{n}`): the uploaded
 * file itself, or the copy of a URL source kept when the job was processed. The bytes are never loaded
 * here: the caller is sent to the object store with a short-lived URL.
 */
export const locateJobSource = async (
  deps: { readonly files: FileRepository; readonly uploads: ObjectStore; readonly catalogs: ObjectStore },
  job: JobRecord,
  index: number,
  review: DraftReview | null,
): Promise<SourceDownload> => {
  const source = job.jobData.catalog_sources[index];
  if (source === undefined) {
    throw new NotFoundError(
      `The job has ${job.jobData.catalog_sources.length} source(s): there is no source ${index}.`,
    );
  }
  const reviewed = review?.sources.find((s) => s.index === index);
  let store: ObjectStore;
  let key: string;
  let response: DownloadResponse;
  let fileName = fileNameOf(source, index);
  if (isUuid(source)) {
    const file = await deps.files.get(job.clientId, source);
    if (!file) throw new NotFoundError(`The uploaded file of source ${index} no longer exists.`);
    store = deps.uploads;
    key = file.objectKey;
    fileName = file.filename;
    // Viewed as the browser can show it inertly: a client's HTML or SVG is served as text, never run.
    response = { contentType: inertContentType(file.contentType), fileName };
  } else {
    store = deps.catalogs;
    key = sourceCopyKey(job.clientId, job.id, index);
    response = { contentType: inertContentType(reviewed?.content_type), fileName };
  }
  const size = await store.size(key);
  if (size === undefined) {
    throw new NotFoundError(
      isUuid(source)
        ? `The uploaded file of source ${index} has no content (expired or never uploaded).`
        : `No copy of source ${index} was kept: copies are kept of the PDFs, images and web pages that go to review.`,
    );
  }
  const signed = await store.presignDownload(key, SOURCE_URL_SECONDS, response);
  return { ...signed, index, source, content_type: response.contentType ?? null, size_bytes: size };
};
