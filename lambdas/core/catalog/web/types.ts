import type { WarningCode } from '../../schemas/warning-codes';
import type { Price } from '../document';

/**
 * What the web readers (schema.org data, storefront catalogs, HTML menu drafts) produce: catalog entities in
 * the normalised form the catalog pipeline assembles, with prices already in minor units and barcodes
 * already checked. Each reader is pure; the pages they read are fetched by `web-session.ts`.
 */

export interface WebImage {
  readonly url: string;
  readonly width: number | null;
  readonly height: number | null;
}

export interface WebVariant {
  /** null when the item is sold in one form. */
  readonly name: string | null;
  /** Option name → value, e.g. `{ Size: 'Large' }`; empty for a single variant. */
  readonly options: Readonly<Record<string, string>>;
  readonly price: Price | null;
  readonly pricing: 'fixed' | 'variable';
  readonly sku: string | null;
  /** A GTIN whose check digit was verified (8, 12, 13 or 14 digits). */
  readonly gtin: string | null;
  readonly images: readonly WebImage[];
}

export interface WebModifier {
  readonly name: string;
  readonly price: Price | null;
}

/** Add-ons of a menu item (schema.org `menuAddOn`). */
export interface WebModifierGroup {
  readonly name: string;
  readonly modifiers: readonly WebModifier[];
}

/** Where a drafted entity came from, for the reviewer (SPEC 5.2 drafts). */
export interface WebProvenance {
  /** The page the entity was read from (after redirects). */
  readonly url: string;
  /** A CSS-like path to the element, e.g. `main > section:nth-of-type(2) > ul > li:nth-of-type(3)`. */
  readonly locator: string | null;
}

export interface WebItem {
  /** Outermost first; empty when the source names no category. */
  readonly categoryPath: readonly string[];
  readonly name: string;
  readonly description: string | null;
  readonly brand: string | null;
  readonly tags: readonly string[];
  readonly calories: number | null;
  readonly images: readonly WebImage[];
  /** The option names the variants use, in order (`['Size']`, `['Size', 'Color']`); empty for one variant. */
  readonly optionNames: readonly string[];
  /** At least one. */
  readonly variants: readonly WebVariant[];
  readonly modifierGroups?: readonly WebModifierGroup[];
  /** Set on drafted items (read from a page's layout rather than from data). */
  readonly provenance?: WebProvenance;
  /** 0..1, set on drafted items: how sure the reader is that this is one item with this price. */
  readonly confidence?: number;
  /** Drafted items: why the confidence is lowered (`price without a currency or cents`). */
  readonly doubts?: readonly string[];
}

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
  /** `menu` prefers Menu data over Product data on a page that has both; `retail` the other way round. */
  readonly kind: 'menu' | 'retail';
  /** The job's default currency (from its language), used when a page names none. */
  readonly currency: string;
}

/** The result of mapping one page or one batch of storefront data. */
export interface WebExtraction {
  readonly items: WebItem[];
  readonly warnings: WebWarning[];
}
