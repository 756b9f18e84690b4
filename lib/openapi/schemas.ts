import * as z from 'zod';
import {
  catalogDocumentSchema,
  catalogDocumentUploadSchema,
  catalogDocumentV1UploadSchema,
  categorySchema,
  imageMappingSchema,
  imageMappingV1Schema,
  itemImageSchema,
  itemSchema,
  itemV1Schema,
  modifierGroupSchema,
  modifierSchema,
  priceSchema,
  variantSchema,
} from '../../lambdas/core/catalog';
import { makeCreateExportRequestSchema } from '../../lambdas/core/schemas/export';
import { createFileRequestSchema } from '../../lambdas/core/schemas/file';
import {
  catalogSourceSchema,
  clientMappingsSchema,
  createJobRequestSchema,
  jobSchema,
  LIMITS,
  metadataSchema,
} from '../../lambdas/core/schemas/job';
import { opsFailRequestSchema } from '../../lambdas/core/schemas/operations';
import {
  callbackStatusSchema,
  catalogJobDataSchema,
  exportEventSchema,
  exportFileSchema,
  exportResourceSchema,
  fileResourceSchema,
  imageMappingJobDataSchema,
  jobListSchema,
  jobResourceSchema,
  jobResultsSchema,
  opsJobDetailSchema,
  opsJobListSchema,
  opsJobSchema,
  opsSourceDownloadSchema,
  problemBodySchema,
  storedProblemSchema,
} from '../../lambdas/core/schemas/responses';
import {
  catalogSummarySchema,
  sheetSummarySchema,
  sourceSummarySchema,
  warningSchema,
} from '../../lambdas/core/schemas/results';

/**
 * The OpenAPI components generated from the service's own Zod schemas: the request schemas the handlers
 * parse with (converted as their input, so defaults are optional) and the response schemas of
 * lambdas/core/schemas/responses.ts (converted as their output). Names, descriptions and the limits that
 * Zod refinements express (and JSON Schema cannot) are added here, in registries of this module, so the
 * schemas themselves stay as the handlers use them.
 */

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema objects are open-ended
export type JsonSchema = Record<string, any>;

interface DocMeta {
  id?: string;
  description?: string;
  [keyword: string]: unknown;
}

export const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The export request as AWS applies it (https callbacks only); the description mentions the local runtime. */
const AWS_EXPORT_RULES = { allowHttpCallbacks: false, allowLoopback: false };
const createExportRequestSchema = makeCreateExportRequestSchema(AWS_EXPORT_RULES);

const [newMenuJob, newRetailCatalogJob, retailImageMappingJob] = jobSchema.options;

/** Field documentation shared by requests and responses (the same Zod instances appear in both). */
const annotateJobData = (registry: z.core.$ZodRegistry<DocMeta>): void => {
  const shape = catalogJobDataSchema.shape;
  registry.add(shape.catalog_sources, {
    description:
      `1-${LIMITS.catalogSources} sources: http(s) URLs (at most ${LIMITS.urlLength} characters), or ids of ` +
      'files uploaded through POST /v1/files. CSV and JSON (the catalog document, or an array of rows) are ' +
      'read by machine; XLSX, PDF, images and other formats go to the operations team (`in_review`).',
  });
  registry.add(catalogSourceSchema, {
    description: 'An http(s) URL, or the id (UUID) of a file uploaded through POST /v1/files.',
  });
  registry.add(shape.merchant_name, { description: "Merchant's store name; not blank.", minLength: 1 });
  registry.add(shape.merchant_address, { description: 'Store address.' });
  registry.add(shape.merchant_token, { description: 'Identifier for the merchant.' });
  registry.add(shape.instructions, {
    description: 'Guidelines for the operations team. A job with instructions goes to `in_review`.',
  });
  registry.add(shape.language, {
    description: 'Language of the menu or catalog (lower-case `ll_cc`); also sets the default currency.',
  });
  registry.add(clientMappingsSchema, {
    description:
      'Custom mappings for the client’s system, at most 100 KB serialised. `categories` and `items` ' +
      '(objects from our category/item name or sku to your id) set `external_id` in the catalog; other ' +
      'keys are kept and echoed.',
    examples: [{ categories: { Pizza: 'cat-1' }, items: { 'PZ-1': 'item-1' } }],
  });
  registry.add(imageMappingJobDataSchema.shape.image_sources, {
    description:
      `1-${LIMITS.imageSources} image URLs. Each is mapped to a product by the GTIN/UPC/SKU in its file ` +
      'name and checked to be a JPEG, PNG, GIF or WebP image.',
  });
};

const requestRegistry = z.registry<DocMeta>();
annotateJobData(requestRegistry);
requestRegistry.add(createJobRequestSchema, {
  id: 'CreateJobRequest',
  description: 'Seed 2.1: the job, wrapped in the `job` key. Unknown fields are rejected.',
});
requestRegistry.add(jobSchema, {
  id: 'JobSpec',
  description: 'The job: its type, type-specific data (seed 2.2) and processing type.',
});
requestRegistry.add(newMenuJob, { id: 'NewMenuJobSpec', title: 'new_menu' });
requestRegistry.add(newRetailCatalogJob, { id: 'NewRetailCatalogJobSpec', title: 'new_retail_catalog' });
requestRegistry.add(retailImageMappingJob, {
  id: 'RetailImageMappingJobSpec',
  title: 'retail_image_mapping',
});
requestRegistry.add(catalogJobDataSchema, {
  id: 'CatalogJobData',
  description: 'job_data of `new_menu` and `new_retail_catalog`. `image_sources` is not part of these types.',
});
requestRegistry.add(imageMappingJobDataSchema, {
  id: 'ImageMappingJobData',
  description: 'job_data of `retail_image_mapping`. `language` is not part of this type.',
});
requestRegistry.add(metadataSchema, {
  description:
    `Key-value pairs for your own use: at most ${LIMITS.metadataKeys} keys of at most ` +
    `${LIMITS.metadataKeyLength} characters, string values of at most ${LIMITS.metadataValueLength}.`,
  maxProperties: LIMITS.metadataKeys,
});
requestRegistry.add(createExportRequestSchema, {
  id: 'CreateExportRequest',
  description: 'Seed 2.4 with SPEC 3.2.',
});
requestRegistry.add(createExportRequestSchema.shape.id, {
  description: 'The id of one of your jobs: the export delivers that job’s catalog.',
  format: 'uuid',
});
requestRegistry.add(createExportRequestSchema.shape.type, { description: 'Only `catalog`.' });
requestRegistry.add(createExportRequestSchema.shape.format, {
  description:
    'What to write (default `catalog_json`, the catalog document): a platform’s import file (`shopify_csv`, ' +
    '`woocommerce_csv`, `google_merchant_tsv`, `meta_catalog_csv`: retail jobs; `square_csv`, ' +
    '`square_catalog_json`: any job; `ubereats_menu_json`: menus), `csv` or `xlsx` (one row per variant), or ' +
    '`changes` (jobs with a merchant_token). A format that does not fit the job’s type is a 400 at `/format`.',
});
requestRegistry.add(createExportRequestSchema.shape.link_template, {
  description:
    'Required by `google_merchant_tsv` and `meta_catalog_csv`, refused by the others: the URL of each ' +
    'product’s page, with `{handle}` (the product’s URL handle) or `{id}` (the offer id), e.g. ' +
    '`https://shop.example/products/{handle}`.',
});
requestRegistry.add(createExportRequestSchema.shape.callback_url, {
  description:
    'An https URL to POST the export to once it is completed or failed (see the callback). Plain http is ' +
    'accepted only by the local runtime. Omit it (or send null) to poll instead.',
});
requestRegistry.add(createFileRequestSchema, {
  id: 'CreateFileRequest',
  description: 'SPEC 3.3: registers an upload.',
});
requestRegistry.add(createFileRequestSchema.shape.filename, {
  description: 'A plain file name (no path); its extension helps to detect the format.',
});
requestRegistry.add(createFileRequestSchema.shape.content_type, {
  description: 'Media type of the bytes, e.g. `text/csv`; send the same Content-Type with the upload PUT.',
});
requestRegistry.add(opsFailRequestSchema, {
  id: 'OpsFailRequest',
  description: 'Why the operations team fails the job: becomes the job’s `error`.',
});
requestRegistry.add(catalogDocumentUploadSchema, {
  id: 'CatalogDocumentInput',
  description:
    'SPEC 5.5: a catalog document, format 2, as accepted on input. Nullable fields and empty arrays may ' +
    'be omitted; job_id and generated_at may be left out (the service fills them in). Every item has at ' +
    'least one variant; a variant’s options name only its item’s option_names. References (category_id, ' +
    'parent_id, modifier_group_ids, image_mappings[].item_id and variant_id) must point at entities of the ' +
    'same document; ids are unique per kind; job_id and job_type must be the job’s.',
});
requestRegistry.add(catalogDocumentV1UploadSchema, {
  id: 'CatalogDocumentV1Input',
  description:
    'SPEC 5.5 format 1 (no variants: sku, gtin, size, unit and price on the item), still accepted; it is ' +
    'stored as format 2, each item with one variant.',
});
/** The ops PUT body: either format (parseCatalogUpload tells them apart by format_version). */
const catalogUploadSchema = z.union([catalogDocumentUploadSchema, catalogDocumentV1UploadSchema]);
requestRegistry.add(catalogUploadSchema, {
  id: 'CatalogUpload',
  description:
    'A catalog document of format 2 or format 1 (told apart by `format_version`); stored as format 2.',
});
requestRegistry.add(categorySchema, { id: 'CategoryInput' });
requestRegistry.add(itemSchema, { id: 'ItemInput' });
requestRegistry.add(variantSchema, { id: 'VariantInput' });
requestRegistry.add(itemV1Schema, { id: 'ItemV1Input' });
requestRegistry.add(itemImageSchema, { id: 'ItemImageInput' });
requestRegistry.add(modifierGroupSchema, { id: 'ModifierGroupInput' });
requestRegistry.add(modifierSchema, { id: 'ModifierInput' });
requestRegistry.add(imageMappingSchema, { id: 'ImageMappingInput' });
requestRegistry.add(imageMappingV1Schema, { id: 'ImageMappingV1Input' });
requestRegistry.add(priceSchema, {
  id: 'Price',
  description: 'An amount in the currency’s minor units (cents; yen for JPY) and its ISO 4217 code.',
});

const responseRegistry = z.registry<DocMeta>();
annotateJobData(responseRegistry);
responseRegistry.add(jobResourceSchema, {
  id: 'Job',
  description: 'SPEC 3.1: a job. The seed’s four fields (id, state, processing_type, results) come first.',
});
responseRegistry.add(catalogJobDataSchema, {
  id: 'CatalogJobDataWithDefaults',
  description: 'The job_data of a `new_menu` or `new_retail_catalog` job, `language` filled in.',
});
responseRegistry.add(imageMappingJobDataSchema, {
  id: 'ImageMappingJobData',
  description: 'job_data of `retail_image_mapping`. `language` is not part of this type.',
});
responseRegistry.add(metadataSchema, {
  description:
    `Key-value pairs for your own use: at most ${LIMITS.metadataKeys} keys of at most ` +
    `${LIMITS.metadataKeyLength} characters, string values of at most ${LIMITS.metadataValueLength}.`,
  maxProperties: LIMITS.metadataKeys,
});
responseRegistry.add(jobResultsSchema, { id: 'JobResults' });
responseRegistry.add(catalogSummarySchema, { id: 'CatalogSummary' });
responseRegistry.add(warningSchema, { id: 'CatalogWarning' });
responseRegistry.add(sourceSummarySchema, { id: 'SourceSummary' });
responseRegistry.add(sheetSummarySchema, { id: 'SheetSummary' });
responseRegistry.add(storedProblemSchema, { id: 'Failure' });
responseRegistry.add(jobListSchema, { id: 'JobList', description: 'A page of jobs.' });
responseRegistry.add(exportResourceSchema, {
  id: 'DataExport',
  description: 'SPEC 3.2: a data export. The seed’s seven fields come first.',
});
responseRegistry.add(exportFileSchema, { id: 'ExportFile' });
responseRegistry.add(callbackStatusSchema, { id: 'CallbackStatus' });
responseRegistry.add(fileResourceSchema, {
  id: 'File',
  description: 'SPEC 3.3: an uploaded catalog source.',
});
responseRegistry.add(problemBodySchema, {
  id: 'Problem',
  description: 'SPEC 7: every error, as `application/problem+json` (RFC 9457 with extensions).',
});
responseRegistry.add(opsJobSchema, { id: 'OpsJob', description: 'A job as operators see it.' });
responseRegistry.add(opsJobDetailSchema, {
  id: 'OpsJobDetail',
  description: 'A job with its client, instructions and sources (in job_data) and its draft catalog.',
});
responseRegistry.add(opsJobListSchema, { id: 'OpsJobList' });
responseRegistry.add(opsSourceDownloadSchema, {
  id: 'OpsSourceDownload',
  description: 'Where the bytes of one source of a job can be read (a presigned GET, valid 5 minutes).',
});
responseRegistry.add(exportEventSchema, {
  id: 'DataExportEvent',
  description: 'SPEC 6: the callback body, sent when an export reaches a terminal state.',
});
responseRegistry.add(catalogDocumentSchema, {
  id: 'CatalogDocument',
  description:
    'SPEC 5.5: the catalog document, the content of an export file. Entity ids are deterministic ' +
    '(UUIDv5 of the job id and the entity’s natural key).',
});
responseRegistry.add(categorySchema, { id: 'Category' });
responseRegistry.add(itemSchema, { id: 'Item' });
responseRegistry.add(variantSchema, { id: 'Variant' });
responseRegistry.add(itemImageSchema, { id: 'ItemImage' });
responseRegistry.add(modifierGroupSchema, { id: 'ModifierGroup' });
responseRegistry.add(modifierSchema, { id: 'Modifier' });
responseRegistry.add(imageMappingSchema, { id: 'ImageMapping' });
responseRegistry.add(priceSchema, {
  id: 'Price',
  description: 'An amount in the currency’s minor units (cents; yen for JPY) and its ISO 4217 code.',
});

const SAFE_INTEGER_BOUNDS = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];

/**
 * Per-node clean-up: documentation from `.meta()` (the global registry) is kept; Zod's own regex for a
 * format it also names (date-time, uuid) and the safe-integer bounds of `z.int()` are noise to a reader.
 */
const tidy = (ctx: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }): void => {
  const json = ctx.jsonSchema;
  const global = z.globalRegistry.get(ctx.zodSchema);
  if (global) {
    for (const [key, value] of Object.entries(global)) {
      if (key !== 'id' && json[key] === undefined) json[key] = value;
    }
  }
  if (json.format === 'date-time' || json.format === 'uuid' || json.format === 'uri') delete json.pattern;
  if (json.minimum === SAFE_INTEGER_BOUNDS[0]) delete json.minimum;
  if (json.maximum === SAFE_INTEGER_BOUNDS[1]) delete json.maximum;
  if (
    json.propertyNames &&
    Object.keys(json.propertyNames).length === 1 &&
    json.propertyNames.type === 'string'
  )
    delete json.propertyNames;
};

const convert = (
  registry: z.core.$ZodRegistry<DocMeta>,
  io: 'input' | 'output',
): Record<string, JsonSchema> => {
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    metadata: registry,
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'throw',
    override: tidy,
  });
  const out: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
    out[name] = rest;
  }
  return out;
};

/** The job union as OpenAPI readers (and code generators) understand it best: with its discriminator. */
const withDiscriminator = (schemas: Record<string, JsonSchema>): void => {
  const spec = schemas.JobSpec;
  if (!spec) return;
  spec.discriminator = {
    propertyName: 'job_type',
    mapping: {
      new_menu: '#/components/schemas/NewMenuJobSpec',
      new_retail_catalog: '#/components/schemas/NewRetailCatalogJobSpec',
      retail_image_mapping: '#/components/schemas/RetailImageMappingJobSpec',
    },
  };
};

const sortKeys = (schemas: Record<string, JsonSchema>): Record<string, JsonSchema> =>
  Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b, 'en')));

/**
 * Every component schema of the document. A name produced by both conversions must mean the same schema
 * (e.g. Price); otherwise this throws, so that a request and a response shape never share a name by accident.
 */
export const componentSchemas = (): Record<string, JsonSchema> => {
  const requests = convert(requestRegistry, 'input');
  withDiscriminator(requests);
  const responses = convert(responseRegistry, 'output');
  for (const [name, schema] of Object.entries(responses)) {
    const other = requests[name];
    if (other !== undefined && JSON.stringify(other) !== JSON.stringify(schema)) {
      throw new Error(`OpenAPI component ${name} differs between its request and response use.`);
    }
  }
  return sortKeys({ ...requests, ...responses });
};

/** A standalone JSON Schema of one Zod schema (query parameters), in the document's dialect. */
export const inlineSchema = (schema: z.core.$ZodType, io: 'input' | 'output' = 'input'): JsonSchema => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    metadata: requestRegistry,
    override: tidy,
  }) as JsonSchema;
  return rest;
};
