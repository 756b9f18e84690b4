import type { DraftItem } from '../draft';
import type { ImageDecoder, PageRasterizer, TextRecognizer } from './ports';
import type { DraftLimits } from './read-draft';

/** One page of a web source's kept copy: where its text lies in the copy (UTF-8 bytes). */
export interface WebPageCopy {
  /** 1-based, as a web draft's `provenance.page` counts. */
  readonly page: number;
  readonly url: string;
  readonly offset: number;
  readonly length: number;
}

/**
 * What the PDF, photo and web page readers get from the job worker (through the pipeline's ReadContext):
 * the OCR engines, a place to keep the bytes they read (so a reviewer sees what the machine read), and a
 * place to record each drafted item's provenance for the review. Absent in contexts that only read rows; a PDF's
 * text layer is still drafted without it, an image is then left to a person.
 */
/** What is kept with a copy of a drafted source for review. */
export interface SourceCopyDetails {
  readonly contentType: string;
  readonly format: string;
  readonly pages: number | null;
  /** A web source's pages, concatenated in the copy (sources/html.ts). */
  readonly webPages?: readonly WebPageCopy[];
}

export interface DraftingServices {
  readonly recognizer?: TextRecognizer;
  readonly rasterizer?: PageRasterizer;
  readonly decoder?: ImageDecoder;
  readonly limits?: DraftLimits;
  /** Keeps a copy of the source's bytes for review. */
  keepCopy(source: string, bytes: Uint8Array, details: SourceCopyDetails): Promise<void>;
  /**
   * The drafted items of one source, with where each was read (`provenance`: a page and box of a PDF or
   * photo, a web page's URL and element) and how sure the machine is (`confidence`, `doubts`).
   */
  record(source: string, items: readonly DraftItem[]): void;
  /** The source's 0-based position in the job's `catalog_sources`. */
  indexOf(source: string): number;
}
