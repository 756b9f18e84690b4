import type { WarningCode } from '../../schemas/warning-codes';
import type { DraftItem } from '../draft';

/**
 * What the web readers (schema.org data, storefront catalogs, HTML menu drafts) produce: drafts (draft.ts,
 * the shape every reader emits), with prices already in minor units and barcodes already checked. Items
 * drafted from a page's layout carry `provenance` (the page's URL and the element's path), `confidence`
 * and `doubts`; items read from data carry none. Each reader is pure; the pages they read are fetched by
 * `web-session.ts`.
 */

/** A problem with one entity or one page: the entity is kept without the bad value, or the page skipped. */
export interface WebWarning {
  /** A stable snake_case reason (schemas/warning-codes.ts). */
  readonly code: WarningCode;
  readonly message: string;
  /** The page or endpoint the warning is about. */
  readonly url?: string;
  /** The entity's name or the field concerned, when there is one. */
  readonly field?: string;
}

/** How a web source was read (SPEC 5.2 `results.sources[].profile`). */
export type WebProfile = 'schema_org' | 'shopify_store' | 'woocommerce_store' | 'html_draft' | 'none';

/** What the readers need to know about the job. */
export interface WebReadContext {
  /** The catalog source as the job names it (drafted items' `provenance.source`). */
  readonly source: string;
  /** `menu` prefers Menu data over Product data on a page that has both; `retail` the other way round. */
  readonly kind: 'menu' | 'retail';
  /** The job's default currency (from its language), used when a page names none. */
  readonly currency: string;
}

/** The result of mapping one page or one batch of storefront data. */
export interface WebExtraction {
  readonly items: DraftItem[];
  readonly warnings: WebWarning[];
}
