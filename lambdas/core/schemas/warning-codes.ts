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
  'duplicate_modifier',
  'incomplete_modifier',
  'no_price',
  'orphan_variant',
  'not_an_item',
  'too_many_variants',
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
