import type { Price } from '../document';
import type { RelativeBox } from './text-runs';

/**
 * What the drafters produce for each dish they find in a PDF or a photo (SPEC 5.2 "Drafts for the operations
 * team"): the dish as catalog format 2 needs it, plus where it was read and how sure the machine is.
 */

export interface DraftVariant {
  /** Null when the dish is sold in one form. */
  readonly name: string | null;
  readonly options: Readonly<Record<string, string>>;
  readonly price: Price | null;
  readonly pricing: 'fixed' | 'variable';
}

/** Where a drafted item was read: the job's source (its index and name), the page and the box on it. */
export interface DraftProvenance {
  /** The source as the job names it (URL or uploaded file id). */
  readonly source: string;
  /** 0-based position of the source in `catalog_sources` (`GET /v1/ops/jobs/{id}/sources/{n}`). */
  readonly source_index: number;
  /** 1-based page (an image is page 1). */
  readonly page: number;
  /** The dish's lines on the page, as fractions of the page's width and height, origin top-left. */
  readonly box: RelativeBox;
  /** `text`: a PDF text layer; `ocr`: recognised from pixels. */
  readonly method: 'text' | 'ocr';
}

export interface DraftItem {
  /** Category names from the outermost in; empty when the menu shows no heading above the dish. */
  readonly categoryPath: readonly string[];
  readonly name: string;
  readonly description: string | null;
  readonly optionNames: readonly string[];
  readonly variants: readonly DraftVariant[];
  readonly provenance: DraftProvenance;
  /** 0–1: how sure the machine is of the name and prices. Reviewers start with the lowest. */
  readonly confidence: number;
  /** Why the confidence is lowered, in words a reviewer reads (`price read by OCR, not confirmed`). */
  readonly doubts: readonly string[];
}

/**
 * Where an item drafted from a web page's layout was read (SPEC 5.2 web pages): a page has no fixed layout,
 * so no box; the page's URL and the element's path stand for it.
 */
export interface WebDraftProvenance {
  readonly source: string;
  readonly source_index: number;
  /** 1-based: the page among those kept of the source (`sources[].web_pages` in the review). */
  readonly page: number;
  readonly box: null;
  readonly method: 'html';
  /** The page the item was read from (after redirects; may be a linked menu page); null: an uploaded page. */
  readonly url: string | null;
  /** A CSS-like path to the element on that page (`#menu > ul > li:nth-of-type(3)`). */
  readonly locator: string | null;
}

/** An item drafted from a web page (sources/html.ts), as the review records it. */
export interface WebDraftItem extends Omit<DraftItem, 'provenance'> {
  readonly provenance: WebDraftProvenance;
}

/** A note about a drafted source (pages skipped, text not placed), for the job's warnings. */
export interface DraftWarning {
  readonly page: number | null;
  readonly message: string;
}

export interface DraftResult {
  readonly items: readonly DraftItem[];
  readonly warnings: readonly DraftWarning[];
  /** Pages read, and how. */
  readonly pages: readonly { readonly page: number; readonly method: 'text' | 'ocr' | 'skipped' }[];
}
