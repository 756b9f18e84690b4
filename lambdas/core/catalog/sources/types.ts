import type { OutboundHttp } from '../../ports';
import type { JobType, Language } from '../../schemas/job';
import type { SourceFormat, TextEncoding } from '../../schemas/source-formats';
import type { Draft } from '../draft';
import type { DraftingServices } from '../drafts/drafting';
import type { WarningInput } from '../warnings';
import type { WebJobContext } from '../web/web-session';

/**
 * The seam between sources and the rest of the pipeline (SPEC 5.2). A source format is one
 * `SourceReader` in its own file, listed in `registry.ts`: detection finds it by the source's bytes,
 * content type or file name, and its `read` turns the bytes into either
 * - `tables`: rows of cells with a header row somewhere near the top (CSV, XLSX, JSON rows), which then go
 *   through header mapping (headers/) and the job type's row normaliser (rows/), or
 * - `drafts`: the normalised intermediate form of draft.ts, for sources that are not rows (a catalog
 *   document; PDF, photo, web page and online store readers),
 * and says how it read the source (`ctx.describe`), what it could not use (`ctx.warn`) and whether a
 * person must check the result (`ctx.needsReview`: the job then goes to `in_review`).
 */

/** Bytes as a source yields them: a Node Readable, a fetch body, or the OutboundResponse body. */
export type ByteStream = AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;

/** One cell as a reader yields it. Objects come from JSON rows (a price `{ amount, currency }`). */
export type CellValue =
  | string
  | number
  | boolean
  | null
  | { readonly [key: string]: unknown }
  | readonly unknown[];

/** One row of a table: `row` is the 1-based row number a person would see (header row included). */
export interface TableRow {
  readonly row: number;
  readonly cells: readonly CellValue[];
}

/**
 * A table as a reader yields it: every row from the top, header row included (the header mapper finds
 * it, skipping title rows above it), in batches (whatever the reader has at hand: a parsed chunk of a
 * CSV, a whole sheet), so that the pipeline awaits once per batch, not once per row. Blank rows may be
 * left in: they are skipped without a warning.
 */
export interface Table {
  /** The sheet's name in a workbook; null for a single-table source. */
  readonly sheet: string | null;
  readonly batches: AsyncIterable<readonly TableRow[]> | Iterable<readonly TableRow[]>;
}

/**
 * A workbook whose sheets are all in memory (XLSX), so that a platform whose export spreads one catalog
 * over several sheets (Clover: items on one, their categories and modifier groups on others) can read
 * them together (headers/profiles/workbook.ts). Each sheet's rows are converted when asked for.
 */
export interface Workbook {
  readonly sheets: readonly WorkbookSheet[];
}

export interface WorkbookSheet {
  readonly name: string;
  /** The sheet's rows from the top, header included (a new iteration on each call). */
  rows(): Iterable<TableRow>;
}

export type ReaderOutput =
  | {
      readonly kind: 'tables';
      readonly tables: AsyncIterable<Table> | Iterable<Table>;
      /** The same tables as a workbook, when the reader holds them all (XLSX). */
      readonly workbook?: Workbook;
    }
  | { readonly kind: 'drafts'; readonly drafts: AsyncIterable<Draft> | Iterable<Draft> };

/** What detection looks at: the first bytes, and what the server or the uploader said the source is. */
export interface SourceProbe {
  readonly head: Uint8Array;
  readonly contentType: string | null;
  /** File name or URL (its extension is a hint). */
  readonly name: string | null;
}

/** A source whose reader has been chosen. */
export interface OpenedSource extends SourceProbe {
  /** The catalog source as the job names it (URL or uploaded file id). */
  readonly source: string;
  /** The whole body, head included. Iterate it at most once. */
  readonly bytes: AsyncIterable<Buffer>;
  /** For text formats: the encoding detection decided on (SPEC 5.2). Null for binary formats. */
  readonly encoding: TextEncoding | null;
}

/** How a source was read, beyond what the table pipeline records itself (columns, rows, items). */
export interface SourceDetails {
  readonly encoding?: TextEncoding | null;
  /** `shopify`, `square`, `woocommerce`, `generic`; web and draft readers add theirs (`schema_org`, …). */
  readonly profile?: string | null;
  readonly delimiter?: string | null;
  /** Pages of a paged source (PDF, an online store's API). */
  readonly pages?: number | null;
}

/** What a reader may use and tell while it reads one source. */
export interface ReadContext {
  readonly source: string;
  readonly jobId: string;
  readonly jobType: JobType;
  readonly language: Language;
  /** The job's default currency (from its language). */
  readonly currency: string;
  /** Outbound requests (online store readers page through an API); always the guarded client. */
  readonly http?: OutboundHttp;
  /** The job's bounds on fetching web pages and store APIs, shared by its web sources (web/web-session.ts). */
  readonly web?: WebJobContext;
  /** OCR engines and review records for the PDF and photo readers (drafts/drafting.ts). */
  readonly drafting?: DraftingServices;
  /** A value, row or part of the source that could not be used; `source` defaults to this source. */
  warn(warning: WarningInput): void;
  /** This source needs a person: the job goes to `in_review` with the reason. */
  needsReview(reason: string): void;
  describe(details: SourceDetails): void;
}

export interface SourceReader {
  readonly format: SourceFormat;
  /** True when the first bytes are this format's signature (binary formats). Checked first. */
  readonly signature?: (head: Uint8Array) => boolean;
  /** Media types that name this format (lower case, without parameters). */
  readonly contentTypes?: readonly string[];
  /** File extensions that name this format (lower case, without the dot). */
  readonly extensions?: readonly string[];
  /** Text formats: true when the decoded start of the source looks like this format. */
  readonly sniffText?: (text: string) => boolean;
  /** The sniff is a guess (delimited text: any line with a comma), never enough to overrule a label. */
  readonly looseSniff?: boolean;
  /** Text formats are decoded (BOM, strict UTF-8, Windows-1252); binary ones get `encoding: null`. */
  readonly textual: boolean;
  /**
   * Reads the source. Throws CatalogSourceError when the source cannot be read at all (its code becomes
   * the source's failure); anything less is a warning.
   */
  read(source: OpenedSource, ctx: ReadContext): Promise<ReaderOutput>;
}
