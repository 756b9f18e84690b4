import type { ExportContentType } from '../../schemas/export';
import type { JobType } from '../../schemas/job';
import type { ExportPart } from './files';
import type { CatalogOpener, IndexNeeds, StoredCatalog } from './stored-catalog';
import type { ExportWarnings } from './warnings';

/** What a writer is given: the stored catalog (indexed on first use), the job's changes, the request's options. */
export interface ExportRun {
  readonly exportId: string;
  /** The stored catalog's bytes, opened afresh on each call. */
  readonly open: CatalogOpener;
  /** The catalog indexed for writers that need categories and modifier groups before the items. */
  readonly catalog: (needs?: IndexNeeds) => Promise<StoredCatalog>;
  /** The job's changes file (use-cases/changes.ts), or null when the job has none. */
  readonly openChanges: CatalogOpener | null;
  readonly linkTemplate: string | null;
  readonly warnings: ExportWarnings;
}

/** One export format: its file, the job types it fits, and its writer. A new format is a new file. */
export interface ExportWriter {
  readonly contentType: ExportContentType;
  /** Base name and extension of its file(s): `products.csv` (split files become `products-2.csv`, …). */
  readonly fileName: string;
  /** Jobs whose catalogs the format fits (a menu is no Merchant Center feed). */
  readonly jobTypes: readonly JobType[];
  write(run: ExportRun): AsyncIterable<ExportPart>;
  /** What a client must know when the export is split into several files. */
  readonly splitNote?: string;
}

export const RETAIL_JOBS: readonly JobType[] = ['new_retail_catalog', 'retail_image_mapping'];
export const ALL_JOBS: readonly JobType[] = ['new_menu', 'new_retail_catalog', 'retail_image_mapping'];
