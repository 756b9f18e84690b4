import * as z from 'zod';
import { catalogChangesSchema } from './changes';
import { SOURCE_FORMATS, TEXT_ENCODINGS } from './source-formats';
import { WARNING_CODES } from './warning-codes';

/**
 * SPEC 5.2 `results`: the one definition used by the job worker (which builds it, catalog/build-catalog.ts), the API's response
 * schema and the OpenAPI document. `{}` right after creation; a summary once the job is processed.
 */

const count = z.int().min(0);

/** Where a source's currency came from (catalog/currency-source.ts). */
export const CURRENCY_SOURCES = ['file', 'store', 'language'] as const;

export const catalogSummarySchema = z
  .strictObject({
    item_count: count,
    variant_count: count,
    category_count: count,
    modifier_group_count: count,
    image_count: count.meta({ description: 'Images on items and variants.' }),
  })
  .meta({ description: 'What the catalog holds.' });

export const warningSchema = z
  .strictObject({
    source: z.string().meta({ description: 'The catalog source (URL or file id), or `client_mappings`.' }),
    row: z.int().nullable().meta({
      description: '1-based row as a spreadsheet shows it (header included); the position in a JSON array.',
    }),
    column: z.string().nullable().meta({ description: 'The column as the source names it, or the field.' }),
    sheet: z.string().optional().meta({ description: 'Workbooks: the sheet the row is on.' }),
    page: z.int().min(1).optional().meta({ description: 'PDFs and photos: the page it is about.' }),
    code: z.enum(WARNING_CODES).meta({ description: 'Stable reason, for machines.' }),
    message: z.string().meta({ description: 'What was wrong and what was done about it.' }),
  })
  .meta({ description: 'A value, row or source that could not be used as it was.' });

export const sheetSummarySchema = z.strictObject({
  name: z.string(),
  header_row: z
    .int()
    .min(1)
    .nullable()
    .meta({ description: 'null: no header row was recognised; the sheet was skipped.' }),
  columns: z.record(z.string(), z.string()).meta({ description: 'Column (header as written) → field.' }),
  ignored_columns: z.array(z.string()),
  rows: count,
  items: count,
});

export const sourceErrorSchema = z.strictObject({
  code: z.string().meta({ description: '`source_unreadable`, `invalid_document`, `missing_columns`, …' }),
  message: z.string(),
});

export const sourceSummarySchema = z
  .strictObject({
    source: z.string(),
    format: z.enum(SOURCE_FORMATS),
    encoding: z.enum(TEXT_ENCODINGS).nullable().meta({ description: 'Text formats: the encoding read.' }),
    profile: z
      .string()
      .nullable()
      .meta({
        description:
          'How the source was read. A platform export, told by its header signature: `shopify`, `square`, ' +
          '`woocommerce`, `bigcommerce`, `wix`, `squarespace`, `etsy`, `google_merchant`, `meta`, ' +
          '`lightspeed`, `clover`, `toast`, `loyverse`; `generic` (by column aliases; also a catalog ' +
          'document); a web page: `schema_org`, `shopify_store`, `woocommerce_store`, `html_draft` or `none`; ' +
          'a drafted PDF or image: `text_layer` or `ocr`; null when the source was not read by machine.',
      }),
    columns: z.record(z.string(), z.string()).meta({ description: 'Column (header as written) → field.' }),
    ignored_columns: z.array(z.string()).meta({ description: 'Every column that was not read.' }),
    rows: count.meta({ description: 'Data rows read (blank rows not counted); items of a document.' }),
    items: count.meta({
      description: 'Items this source added (rows merged into an existing item not counted).',
    }),
    currency_source: z
      .enum(CURRENCY_SOURCES)
      .nullable()
      .optional()
      .meta({
        description:
          'Where the currency of the source’s prices came from: `file` (a price cell such as `22.00 USD` ' +
          'or `€12`, a currency column, a header such as `Price (CAD)`, a catalog document), `store` (the ' +
          'country of the store the file comes from: a feed’s `<language>es-MX</language>`, the one ' +
          'country-code domain its links share), `language` (neither says: the job language’s region’s ' +
          'currency is assumed); null when the source has no price.',
      }),
    delimiter: z.string().nullable().optional().meta({ description: 'CSV: the delimiter.' }),
    header_row: z
      .int()
      .min(1)
      .nullable()
      .optional()
      .meta({ description: 'The header’s row (rows above it are titles).' }),
    sheets: z
      .array(sheetSummarySchema)
      .optional()
      .meta({ description: 'XLSX: every sheet, read or skipped.' }),
    pages: count.nullable().optional().meta({
      description: 'Paged sources: pages read (a PDF; a web page and the store API pages fetched for it).',
    }),
    error: sourceErrorSchema.nullable().optional().meta({ description: 'Why the source could not be read.' }),
  })
  .meta({ description: 'How one catalog source was read (SPEC 5.2).' });

export const unreachableImageSchema = z.strictObject({
  url: z.string(),
  status: z.int().nullable().meta({ description: 'The HTTP status when the server answered.' }),
  reason: z.string(),
});

export const jobResultsSchema = z
  .strictObject({
    catalog: catalogSummarySchema.optional(),
    warnings: z.array(warningSchema).optional().meta({ description: 'The first 100 warnings.' }),
    warning_count: count.optional(),
    sources: z.array(sourceSummarySchema).optional(),
    mapped_count: count.optional().meta({ description: 'retail_image_mapping: images mapped to a variant.' }),
    unmatched_images: z
      .array(z.string())
      .optional()
      .meta({ description: 'Images that name no product (first 100).' }),
    unmatched_count: count.optional(),
    unreachable_images: z.array(unreachableImageSchema).optional().meta({ description: 'First 100.' }),
    unreachable_count: count.optional(),
    products_without_image_count: count.optional().meta({ description: 'Variants with no image.' }),
    review_reasons: z
      .array(z.string())
      .optional()
      .meta({ description: 'Why the job went to the operations team (state `in_review`).' }),
    catalog_replaced_at: z.iso.datetime().optional(),
    changes: catalogChangesSchema.optional(),
  })
  .meta({
    description:
      'Empty right after creation. Once the job is processed: a summary of the catalog built (counts, the ' +
      'first 100 warnings, how each source was read), plus the image-mapping counts for ' +
      '`retail_image_mapping`. The catalog itself is delivered by a data export.',
  });

export type CatalogSummary = z.infer<typeof catalogSummarySchema>;
export type SourceSummary = z.infer<typeof sourceSummarySchema>;
export type SheetSummary = z.infer<typeof sheetSummarySchema>;
export type JobResults = z.infer<typeof jobResultsSchema>;
export type ImageMappingResults = Pick<
  JobResults,
  | 'mapped_count'
  | 'unmatched_images'
  | 'unmatched_count'
  | 'unreachable_images'
  | 'unreachable_count'
  | 'products_without_image_count'
>;
