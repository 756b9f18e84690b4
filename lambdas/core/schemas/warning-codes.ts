/**
 * Warning codes (SPEC 5.2 "nothing is lost silently"): every value the pipeline cannot use, every row it skips
 * and every source it cannot read fully is reported with where it was and why. `code` is stable, for
 * machines (part of `results.warnings`, schemas/results.ts); `message` is for a person. A code is set where
 * the warning is made, never derived from its message.
 */
export const WARNING_CODES = [
  // a whole source or column
  'source_unreadable',
  'no_prices',
  'no_identifiers',
  'ambiguous_column',
  'encoding_fallback',
  'unreadable_record',
  'hidden_sheet',
  'columns_inferred',
  'other_languages',
  // one value
  'invalid_value',
  'too_long',
  'not_a_price',
  'invalid_price',
  'unknown_currency',
  'unlabelled_prices',
  'invalid_gtin',
  'bad_check_digit',
  'scientific_notation',
  'conflicting_values',
  'invalid_calories',
  'invalid_url',
  'too_many_values',
  'several_categories',
  // one row or entity
  'missing_name',
  'duplicate_item',
  'duplicate_variant',
  'duplicate_product',
  'shared_name',
  'shared_identifier',
  'duplicate_modifier',
  'incomplete_modifier',
  'no_price',
  'orphan_variant',
  'not_an_item',
  'not_for_sale',
  'too_many_variants',
  'values_dropped',
  // job settings
  'invalid_client_mapping',
  // web pages and online stores
  'page_limit',
  'robots_disallowed',
  'robots_unreadable',
  'store_unreadable',
  'store_incomplete',
  'currency_assumed',
  'variation_unread',
  'invalid_json_ld',
  'structured_data_without_prices',
  'pdf_menu_linked',
  'links_not_followed',
  'page_unreadable',
] as const;

export type WarningCode = (typeof WARNING_CODES)[number];

/**
 * Export warning codes (SPEC 3.2 `warnings` of a data export): what a format could not carry, or had to
 * change so that its target accepts the file. Set by the writer that makes the warning (catalog/export).
 */
export const EXPORT_WARNING_CODES = [
  /** A field the format has no place for (modifiers in a Shopify CSV, a fourth option). */
  'not_carried',
  /** A value cut to the target's limit. */
  'value_too_long',
  /** Variants without a price in the export's currency, written as the target's placeholder (Shopify: 0.00, draft). */
  'no_price',
  /** Values, variants or items the target would refuse, not written. */
  'left_out',
  /** A value written differently so that the target accepts it. */
  'changed',
  /** A value the target requires that the catalog does not hold, written as its documented default. */
  'assumed',
  /**
   * Values that begin with `=`, `+`, `-` or `@`, written as they are in a platform's import file (its
   * importer takes cells literally): a spreadsheet program opening the file may run them as formulas.
   */
  'formula_like',
  /** The file was split into several to fit the target's size or object limit. */
  'split',
] as const;

export type ExportWarningCode = (typeof EXPORT_WARNING_CODES)[number];
