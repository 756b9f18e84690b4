import type { Price, Pricing } from './document';

/**
 * The normalised intermediate form every source is turned into before assembly (SPEC 5.2): a *draft*.
 *
 * Spreadsheet rows get here through header mapping and the row normalisers; readers of sources that are
 * not rows (a catalog document, a PDF or photographed menu, a web page, an online store's API) produce
 * drafts directly. Assembly (assembly/) is the only consumer: it finds each draft's item by the job type's
 * identity rule, merges drafts of the same item (variants, images, modifiers), gives every entity its
 * deterministic id and enforces the document's limits with warnings. A draft therefore only has to say
 * what the source says; it need not be unique, complete or within limits.
 *
 * It is the one shape of a drafted item: the spreadsheet rows, the catalog document, the PDF and photo
 * drafters (drafts/) and the web readers (web/) all produce it, and the review record is made from it.
 *
 * Values are already parsed: prices in minor units with their currency (prices.ts), GTINs as valid
 * digit strings (rows/barcodes.ts), image URLs absolute http(s) (rows/cells.ts has the helpers).
 */

/** A place on a page, as fractions of the page's width and height (0–1), origin top left. */
export interface PageBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Where a draft came from, so that a warning or a reviewer can point at it. */
export interface Provenance {
  /** The catalog source as the job names it (URL or uploaded file id). */
  readonly source: string;
  /** 0-based position of the source in the job's `catalog_sources` (drafted sources, for the review). */
  readonly sourceIndex?: number | null;
  /** 1-based row (spreadsheets: the sheet's row number, header included) or array position (JSON). */
  readonly row?: number | null;
  /** Sheet name of a workbook. */
  readonly sheet?: string | null;
  /** 1-based page of a PDF or multi-page source (an image is page 1; a web source: the page among those kept). */
  readonly page?: number | null;
  /** A web source: the page the draft was read from (after redirects; a linked menu page may differ from the source). */
  readonly url?: string | null;
  /** A web source: a CSS-like path to the element on that page (`main > ul > li:nth-of-type(3)`). */
  readonly locator?: string | null;
  /** Where on the page (a PDF or a photo); a web page has no fixed layout: see `locator`. */
  readonly box?: PageBox | null;
  /** How a drafted item was read: `text` a PDF text layer, `ocr` pixels, `html` a web page's layout. */
  readonly method?: 'text' | 'ocr' | 'html' | null;
}

export interface DraftImage {
  readonly url: string;
  readonly width?: number | null;
  readonly height?: number | null;
}

export interface DraftVariant {
  /** e.g. `Large`; null for an item sold in one form. Named after `size` or `options` when left out. */
  readonly name?: string | null;
  /** Option name → value, e.g. `{ Size: 'Large' }`; the names belong in the item's `optionNames`. */
  readonly options?: Readonly<Record<string, string>>;
  readonly price?: Price | null;
  /** `variable` for market prices (`MP`): the price is set when sold. Defaults to `fixed`. */
  readonly pricing?: Pricing;
  readonly sku?: string | null;
  /** Digits only, GS1 check digit valid (see rows/barcodes.ts). */
  readonly gtin?: string | null;
  readonly size?: string | null;
  readonly unit?: string | null;
  readonly images?: readonly DraftImage[];
  readonly externalId?: string | null;
}

export interface DraftModifier {
  readonly name: string;
  readonly price?: Price | null;
}

export interface DraftModifierGroup {
  readonly name: string;
  /** Defaults: 0 and the number of modifiers. */
  readonly min?: number | null;
  readonly max?: number | null;
  readonly modifiers: readonly DraftModifier[];
}

/** An item (a dish, a product) as one source states it. Several drafts may describe the same item. */
export interface DraftItem {
  readonly kind: 'item';
  /** Category names from the top, e.g. `['Grocery', 'Dairy']`; empty: uncategorised. */
  readonly categoryPath: readonly string[];
  readonly name: string;
  readonly description?: string | null;
  readonly brand?: string | null;
  readonly calories?: number | null;
  readonly tags?: readonly string[];
  readonly images?: readonly DraftImage[];
  /** Option names in order (`['Size', 'Color']`), for the variants' `options`. */
  readonly optionNames?: readonly string[];
  /**
   * The forms the item is sold in. Empty is allowed (a row that only adds a modifier to an item described
   * elsewhere); an item that ends up with no variant at all gets one without a price, with a warning.
   */
  readonly variants: readonly DraftVariant[];
  readonly modifierGroups?: readonly DraftModifierGroup[];
  readonly externalId?: string | null;
  /**
   * The record's own key in its source (a platform's handle or product id), not written to the catalog:
   * two drafts with different keys are two products even when their names and categories are the same.
   */
  readonly sourceKey?: string | null;
  readonly provenance?: Provenance;
  /**
   * 0–1: how sure the reader is. Set on items a machine drafted (PDFs, photos, a web page's layout) and on
   * nothing read from data; reviewers check the lowest first.
   */
  readonly confidence?: number | null;
  /** Drafted items: why the confidence is lowered, in words a reviewer reads (`price read by OCR, not confirmed`). */
  readonly doubts?: readonly string[];
}

/** A category the source declares on its own (e.g. an empty one in a catalog document). */
export interface DraftCategory {
  readonly kind: 'category';
  readonly path: readonly string[];
  readonly externalId?: string | null;
  readonly provenance?: Provenance;
}

export type Draft = DraftItem | DraftCategory;
