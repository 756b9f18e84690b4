import type { z } from 'zod';
import type {
  itemProvenanceSchema,
  opsJobDetailSchema,
  opsJobListSchema,
  opsJobSchema,
  opsSourceViewSchema,
  ProblemBodyShape,
} from '../../../lambdas/core/schemas/responses';
import type { JobResults } from '../../../lambdas/core/schemas/results';

/**
 * The shapes the console reads from the operations API (SPEC 5.4): the API's own, from the Zod schemas its
 * handlers answer with and its OpenAPI document is generated from (lambdas/core/schemas/responses.ts), so
 * that a change of the API shows here as a type error rather than as a field the page silently misses.
 * Type-only imports: nothing of the service is bundled for them.
 */

export type ProblemBody = Partial<ProblemBodyShape>;

/** A job's `results` (lambdas/core/catalog/finishing/results.ts): counts, warnings, how each source was read. */
export type Results = JobResults;
export type Warning = NonNullable<JobResults['warnings']>[number];
export type SourceSummary = NonNullable<JobResults['sources']>[number];

export type OpsJobSummary = z.output<typeof opsJobSchema>;
export type JobState = OpsJobSummary['state'];
export type JobData = OpsJobSummary['job_data'];
export type QueuePage = z.output<typeof opsJobListSchema>;

/**
 * Where a drafted item was read (`relative` box: fractions of the page, origin top left). An item drafted
 * from a web page (`method: 'html'`) has no box but the page's URL and the element's path (`locator`).
 */
export type ItemProvenance = z.output<typeof itemProvenanceSchema>;

export type SourceView = z.output<typeof opsSourceViewSchema>;
/** One page of a web source's kept copy: its URL and where its text lies in the copy (UTF-8 bytes). */
export type WebPageRef = NonNullable<SourceView['web_pages']>[number];

/**
 * `GET /v1/ops/jobs/{id}`. Its draft is read as `unknown`: the page loads it through catalog/wire.ts, which
 * validates it (and upgrades format 1) before anything is edited.
 */
export type OpsJob = Omit<z.output<typeof opsJobDetailSchema>, 'draft_catalog'> & {
  readonly draft_catalog: unknown;
};

/** The job's language (a retail image mapping has none: the catalog's default). */
export const languageOf = (job: OpsJobSummary): string | undefined =>
  'language' in job.job_data ? job.job_data.language : undefined;

/** Provenance and confidence by item id. */
export const provenanceByItem = (job: OpsJob): Map<string, ItemProvenance> =>
  new Map((job.draft_provenance ?? []).map((p) => [p.item_id, p]));

/** What a person calls a source: an uploaded file by its name, a URL by its last path segment. */
export const sourceName = (source: Pick<SourceView, 'source' | 'filename'>): string => {
  if (source.filename) return source.filename;
  try {
    const url = new URL(source.source);
    return decodeURIComponent(url.pathname.split('/').filter(Boolean).at(-1) ?? url.host);
  } catch {
    return source.source;
  }
};

/** Review reasons and warnings name sources by id or URL: each uploaded file's id becomes its name. */
export const withFileNames = (text: string, sources: readonly SourceView[]): string =>
  sources.reduce((out, s) => (s.filename ? out.split(s.source).join(`“${s.filename}”`) : out), text);
