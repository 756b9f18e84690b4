/**
 * The shapes the console reads from the operations API (SPEC 5.4). One module, so that a change of the API
 * is adapted in one place. Fields added by the drafts work (`sources`, `draft_provenance`) are optional:
 * the console works without them and shows them when the service sends them.
 */

export interface ProblemBody {
  readonly type?: string;
  readonly title?: string;
  readonly status?: number;
  readonly detail?: string;
  readonly code?: string;
  readonly request_id?: string;
  readonly errors?: readonly { readonly pointer: string; readonly code?: string; readonly message: string }[];
}

export interface JobData {
  readonly merchant_name: string;
  readonly merchant_address?: string | null;
  readonly merchant_token?: string | null;
  readonly instructions?: string | null;
  readonly language?: string;
  readonly catalog_sources?: readonly string[];
  readonly image_sources?: readonly string[];
}

export type JobState = 'initiated' | 'processing' | 'in_review' | 'completed' | 'failed' | 'canceled';
export type JobType = 'new_menu' | 'new_retail_catalog' | 'retail_image_mapping';

/** A job as `GET /v1/ops/jobs` lists it: the client's view plus `client_id`. */
export interface OpsJobSummary {
  readonly id: string;
  readonly state: JobState;
  readonly processing_type: 'rush' | 'standard';
  readonly job_type: JobType;
  readonly job_data: JobData;
  readonly results: Record<string, unknown> | null;
  readonly client_id: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly due_at: string;
  readonly completed_at: string | null;
  readonly error: ProblemBody | null;
}

export interface QueuePage {
  readonly data: readonly OpsJobSummary[];
  readonly next_cursor: string | null;
}

/**
 * Where a drafted item was read (`relative` box: fractions of the page, origin top left). An item drafted
 * from a web page (`method: 'html'`) has no box but the page's URL and the element's path (`locator`).
 */
export interface ItemProvenance {
  readonly item_id: string;
  readonly confidence: number | null;
  readonly doubts?: readonly string[];
  readonly source?: string;
  readonly source_index?: number | null;
  readonly page?: number | null;
  readonly box?: {
    readonly x: number;
    readonly y: number;
    readonly width: number;
    readonly height: number;
  } | null;
  readonly method?: string;
  readonly url?: string | null;
  readonly locator?: string | null;
}

/** One page of a web source's kept copy: its URL and where its text lies in the copy (UTF-8 bytes). */
export interface WebPageRef {
  readonly page: number;
  readonly url: string;
  readonly offset: number;
  readonly length: number;
}

export interface SourceView {
  readonly index: number;
  readonly source: string;
  readonly format?: string | null;
  readonly content_type?: string | null;
  readonly pages?: number | null;
  /** A web source: the pages its copy holds, one after the other (UTF-8 byte offsets). */
  readonly web_pages?: readonly WebPageRef[] | null;
  /** Path of `GET /v1/ops/jobs/{id}/sources/{n}` (relative to the API root). */
  readonly view_path: string;
  /** False when the service kept no copy to show (a URL source it did not draft). */
  readonly viewable?: boolean;
}

/** `GET /v1/ops/jobs/{id}`. */
export interface OpsJob extends OpsJobSummary {
  readonly draft_catalog: unknown;
  readonly draft_catalog_url?: string | null;
  readonly draft_provenance?: readonly ItemProvenance[] | null;
  readonly sources?: readonly SourceView[];
}

/** The job's sources: as the service lists them, or (older services) from `job_data.catalog_sources`. */
export const sourcesOf = (job: OpsJob): SourceView[] =>
  job.sources
    ? [...job.sources]
    : (job.job_data.catalog_sources ?? []).map((source, index) => ({
        index,
        source,
        view_path: `/v1/ops/jobs/${encodeURIComponent(job.id)}/sources/${index}`,
      }));

/** Provenance and confidence by item id. */
export const provenanceByItem = (job: OpsJob): Map<string, ItemProvenance> =>
  new Map((job.draft_provenance ?? []).map((p) => [p.item_id, p]));
