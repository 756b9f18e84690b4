import * as z from 'zod';
import { catalogDocumentSchema } from '../catalog';
import { EXPORT_CONTENT_TYPES, EXPORT_FORMATS, EXPORT_STATES } from './export';
import { FILE_STATES } from './file';
import { JOB_STATES, JOB_TYPES, jobSchema, PROCESSING_TYPES } from './job';
import { jobResultsSchema } from './results';
import { EXPORT_WARNING_CODES } from './warning-codes';

/**
 * Zod schemas of every response body the API answers, and of the callback it sends: the shapes that
 * model.ts (jobResource, exportResource, fileResource), use-cases/operations.ts (opsJobResource, getOpsJob),
 * shared/problem.ts and webhooks.ts (exportEvent) produce. They exist for the OpenAPI document
 * (lib/openapi) and for the contract tests; handlers build responses with the model's functions, and a unit
 * test checks that both agree (types and values).
 *
 * Objects are strict (additionalProperties: false) wherever the service's shape is closed, so that a field
 * added to a response without being documented fails the contract tests.
 */

const timestamp = z.iso.datetime();
const uuid = z.uuid();

/** The request's job_data with defaults applied (`language` is always present for the two catalog types). */
const [newMenuJob, , retailImageMappingJob] = jobSchema.options;
export const catalogJobDataSchema = newMenuJob.shape.job_data;
export const imageMappingJobDataSchema = retailImageMappingJob.shape.job_data;

/** A problem object (RFC 9457) stored on a failed job or export: model.ts `Problem`. */
export const storedProblemSchema = z
  .strictObject({
    type: z.string().meta({ description: 'URI of the problem type: `urn:catalog-jobs:problem:<code>`.' }),
    title: z.string().meta({ description: 'Short, human-readable summary of the problem type.' }),
    code: z.string().meta({
      description:
        'Stable snake_case reason, e.g. `source_unreadable` (no source could be read), `timed_out` (not ' +
        'terminal 24 h after due_at), `processing_failed`, `job_failed` (an export whose job failed or was ' +
        'canceled), or the code an operator gave.',
    }),
    detail: z.string().meta({ description: 'What happened, for a person to read.' }),
  })
  .meta({ description: 'Why the job or export failed.' });

const int = z.int().min(0);

/** SPEC 5.2 `results`: defined once, with the pipeline that builds it (catalog/finishing/results.ts). */
export { jobResultsSchema };

/** SPEC 3.1: the job as GET /v1/jobs/{id} shows it (model.ts jobResource). */
export const jobResourceSchema = z.strictObject({
  id: uuid.meta({ description: 'Job identifier.' }),
  state: z.enum(JOB_STATES).meta({
    description:
      '`initiated` right after creation; then `processing`, `in_review` (with the operations team), and ' +
      'one of the terminal states `completed`, `failed`, `canceled`.',
  }),
  processing_type: z.enum(PROCESSING_TYPES).meta({ description: 'As requested.' }),
  results: jobResultsSchema,
  job_type: z.enum(JOB_TYPES),
  job_data: z
    .union([catalogJobDataSchema, imageMappingJobDataSchema])
    .meta({ description: 'The request’s job_data, defaults applied.' }),
  metadata: z.record(z.string(), z.string()).meta({ description: 'As requested; `{}` when none was given.' }),
  created_at: timestamp,
  updated_at: timestamp.meta({ description: 'Changes on every state transition.' }),
  due_at: timestamp.meta({ description: 'SLA: creation + 24 h (rush) or 72 h (standard).' }),
  completed_at: timestamp.nullable().meta({ description: 'When the job reached a terminal state.' }),
  error: storedProblemSchema.nullable().meta({ description: 'null, or why the job failed.' }),
});

/** GET /v1/jobs. */
export const jobListSchema = z.strictObject({
  data: z.array(jobResourceSchema).meta({ description: 'Newest first.' }),
  next_cursor: z
    .string()
    .nullable()
    .meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
});

/** SPEC 3.2: the export file, once written. */
export const exportFileSchema = z.strictObject({
  content_type: z.enum(EXPORT_CONTENT_TYPES).meta({
    description:
      'JSON for the JSON formats, text/csv, text/tab-separated-values (Google) or an XLSX workbook.',
  }),
  size_bytes: int,
  checksum_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .meta({ description: 'Hex SHA-256 of the file, to check a download.' }),
  item_count: int,
});

/** SPEC 3.2: one file of an export split to fit its target's size limit. */
export const exportPartSchema = z.strictObject({
  name: z.string().meta({ description: 'A file name for it, numbered in order (`products-2.csv`).' }),
  url: z
    .url()
    .nullable()
    .meta({ description: 'A presigned GET, valid 1 hour, signed afresh on every read.' }),
  content_type: z.enum(EXPORT_CONTENT_TYPES),
  size_bytes: int,
  checksum_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  item_count: int.meta({ description: 'Items in this file.' }),
});

/** What a format could not carry, or had to change for its target to accept the file. */
export const exportWarningSchema = z.strictObject({
  code: z.enum(EXPORT_WARNING_CODES).meta({
    description:
      'Stable reason: `not_carried` (a field the format has no place for), `value_too_long` (cut to the ' +
      'target’s limit), `no_price` (variants without a price in the export’s currency, written as a placeholder), `left_out` (not ' +
      'written: the target would refuse it), `changed` (written differently so that the target accepts it), ' +
      '`assumed` (a value the target requires and the catalog lacks, written as its default), `formula_like` ' +
      '(values beginning with =, +, - or @ written as they are in a platform’s import file; a spreadsheet ' +
      'program opening it may run them), `split` (files over the target’s size limit).',
  }),
  field: z.string().nullable().meta({ description: 'The catalog field concerned, e.g. `modifier_groups`.' }),
  count: int.meta({ description: 'How many items (or variants, as the message says).' }),
  message: z.string(),
});

/** SPEC 3.2/6: the outcome of the export's callback. */
export const callbackStatusSchema = z.strictObject({
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: int,
  last_status: z.int().nullable().meta({ description: 'HTTP status of the last attempt; null if none.' }),
  last_attempt_at: timestamp.nullable(),
});

/** SPEC 3.2: the data export as GET /v1/data_exports/{id} and the callback show it (model.ts exportResource). */
export const exportResourceSchema = z.strictObject({
  id: uuid.meta({ description: 'Export identifier.' }),
  state: z.enum(EXPORT_STATES).meta({
    description: '`initiated` right after creation, then `processing`, then `completed` or `failed`.',
  }),
  callback_url: z.string().nullable().meta({ description: 'Echo of the request; null when none was given.' }),
  delivery_url: z
    .url()
    .nullable()
    .meta({
      description:
        'null until `completed`; then a presigned GET of the catalog file, valid for 1 hour and signed ' +
        'afresh on every read.',
    }),
  job_id: uuid.meta({ description: 'The job whose catalog this export delivers.' }),
  job_type: z.enum(JOB_TYPES),
  client_mappings: z.record(z.string(), z.unknown()).meta({
    description: '`{}` until completed; then the job’s client_mappings as applied to this export.',
  }),
  format: z.enum(EXPORT_FORMATS).meta({ description: 'As requested (default `catalog_json`).' }),
  created_at: timestamp,
  updated_at: timestamp,
  completed_at: timestamp.nullable(),
  delivery_url_expires_at: timestamp.nullable(),
  file: exportFileSchema
    .nullable()
    .meta({ description: 'The catalog file (the first, when split), once written.' }),
  files: z
    .array(exportPartSchema)
    .nullable()
    .meta({
      description:
        'null unless the file was split to fit the target’s size limit (Shopify 15 MB, Square 10,000 objects ' +
        'per request): then every file in order, `delivery_url` being the first’s.',
    }),
  warnings: z.array(exportWarningSchema).meta({
    description: 'What the format could not carry or had to change, with counts; `[]` when nothing.',
  }),
  callback: callbackStatusSchema
    .nullable()
    .meta({ description: 'null without callback_url or before the first attempt.' }),
  error: storedProblemSchema.nullable(),
});

/** SPEC 3.3: an uploaded catalog source (model.ts fileResource). */
export const fileResourceSchema = z.strictObject({
  id: uuid.meta({ description: 'File identifier: put it in `catalog_sources`.' }),
  state: z
    .enum(FILE_STATES)
    .meta({ description: '`pending` until the bytes are uploaded, then `uploaded`.' }),
  filename: z.string(),
  content_type: z.string(),
  upload_url: z
    .url()
    .nullable()
    .meta({
      description:
        'Where to PUT the bytes (a presigned S3 URL, valid 15 minutes; no Authorization header). Files up to ' +
        '100 MB: a larger one is refused when it is used (`file_too_large`). null once uploaded or expired.',
    }),
  upload_form: z
    .strictObject({
      url: z.url().meta({ description: 'Where to POST the form.' }),
      fields: z.record(z.string(), z.string()).meta({
        description:
          'The fields to send, as they are, before the file (key, Content-Type, policy and signature).',
      }),
    })
    .nullable()
    .meta({
      description:
        'The same upload as a presigned POST form (`multipart/form-data`: every field, then the file as the ' +
        'last field, `file`), which the store itself refuses over 100 MB. null when `upload_url` is.',
    }),
  upload_expires_at: timestamp.nullable(),
  size_bytes: int.nullable().meta({ description: 'null until uploaded. At most 100 MB.' }),
  created_at: timestamp,
});

/** SPEC 7: every error body (application/problem+json, RFC 9457 with extensions). */
export const problemBodySchema = z.strictObject({
  type: z.string().meta({ description: '`urn:catalog-jobs:problem:<code>`.' }),
  title: z.string(),
  status: z.int().min(400).max(599),
  detail: z.string().meta({ description: 'For a person to read; at 5xx never anything internal.' }),
  code: z.string().meta({
    description:
      'Stable snake_case reason: `validation_failed`, `unauthorized`, `forbidden`, `not_found`, ' +
      '`method_not_allowed`, `invalid_state`, `job_not_exportable`, `conflict`, `idempotency_key_in_use`, ' +
      '`payload_too_large`, `unsupported_media_type`, `idempotency_key_mismatch`, `rate_limited`, ' +
      '`service_unavailable`, `internal_error`.',
  }),
  request_id: z.string().meta({ description: 'Also in the `x-request-id` header; quote it to support.' }),
  errors: z
    .array(
      z.strictObject({
        pointer: z.string().meta({
          description:
            'JSON Pointer into the request body (`/job/job_data/merchant_name`), `/query/<name>` for a ' +
            'query parameter, `/headers/<name>` for a header; `""` for the whole body.',
        }),
        code: z
          .string()
          .meta({ description: 'e.g. `required`, `unknown_field`, `invalid_value`, `too_big`.' }),
        message: z.string(),
      }),
    )
    .optional()
    .meta({ description: 'Validation errors (400): one entry per offending field.' }),
});

/** The operations API's job: the client's view plus whose it is (operations.ts opsJobResource). */
export const opsJobSchema = jobResourceSchema.extend({
  client_id: z.string().meta({ description: 'The client (tenant) the job belongs to.' }),
});

const relativeBoxSchema = z
  .strictObject({
    x: z.number().min(0).max(1),
    y: z.number().min(0).max(1),
    width: z.number().min(0).max(1),
    height: z.number().min(0).max(1),
  })
  .meta({ description: 'Fractions of the page’s width and height, origin at the top-left corner.' });

/** One drafted item's provenance (use-cases/draft-review.ts ItemProvenance). */
export const itemProvenanceSchema = z.strictObject({
  item_id: z.uuid().meta({ description: 'The item in `draft_catalog`.' }),
  name: z.string().meta({ description: 'The item’s name as drafted.' }),
  source: z.string().meta({ description: 'The catalog source as the job names it (URL or file id).' }),
  source_index: z.int().min(0).meta({ description: 'Its position in `catalog_sources`: `sources/{n}`.' }),
  page: z.int().min(1).meta({
    description: '1-based page (an image is page 1; a web source: the page among the source’s `web_pages`).',
  }),
  box: relativeBoxSchema.nullable().meta({
    description: 'Where on the page; null for a web page (`html`), which has no fixed layout: see `locator`.',
  }),
  method: z.enum(['text', 'ocr', 'html']).meta({
    description:
      '`text`: a PDF text layer; `ocr`: read from pixels; `html`: drafted from a web page’s layout.',
  }),
  url: z.string().nullable().optional().meta({
    description: '`html` only: the page the item was read from (after redirects); null for an uploaded page.',
  }),
  locator: z.string().nullable().optional().meta({
    description:
      '`html` only: a CSS selector path to the item’s element on that page (`#menu > ul > li:nth-of-type(3)`).',
  }),
  confidence: z
    .number()
    .min(0)
    .max(1)
    .meta({ description: 'How sure the machine is; check the lowest first.' }),
  doubts: z.array(z.string()).meta({ description: 'Why the confidence is lowered, for the reviewer.' }),
});

/** A source as operators see it (operations.ts sourceViews). */
export const opsSourceViewSchema = z.strictObject({
  index: z.int().min(0),
  source: z.string(),
  format: z
    .string()
    .nullable()
    .meta({ description: 'How it was read (`pdf`, `image`, …); null if unknown.' }),
  content_type: z.string().nullable(),
  size_bytes: z.int().min(0).nullable(),
  pages: z.int().min(0).nullable(),
  web_pages: z
    .array(
      z.strictObject({
        page: z.int().min(1),
        url: z.string(),
        offset: z.int().min(0).meta({ description: 'Where the page’s text starts in the bytes, in bytes.' }),
        length: z.int().min(0).meta({ description: 'Its length in bytes (UTF-8).' }),
      }),
    )
    .nullable()
    .meta({
      description:
        'A web page fetched by URL: the copy is the page(s) the machine read, as UTF-8 text served as ' +
        '`text/plain` (never rendered), one after the other; each page’s URL and place in it. Null otherwise.',
    }),
  view_path: z.string().meta({ description: 'GET it (operator key) to view the source’s bytes.' }),
  viewable: z.boolean().meta({
    description:
      'False for a URL source of which no copy was kept (copies are kept of PDFs, images and web pages ' +
      'that go to review).',
  }),
});

/** GET /v1/ops/jobs/{id}/sources/{n} with `Accept: application/json` (use-cases/draft-review.ts). */
export const opsSourceDownloadSchema = z.strictObject({
  index: z.int().min(0),
  source: z.string(),
  url: z
    .url()
    .meta({ description: 'Presigned GET of the bytes, valid 5 minutes; shown inline by browsers.' }),
  expires_at: timestamp,
  content_type: z.string().nullable(),
  size_bytes: z.int().min(0),
});

/** GET /v1/ops/jobs/{id} (operations.ts getOpsJob). */
export const opsJobDetailSchema = opsJobSchema.extend({
  draft_provenance: z
    .array(itemProvenanceSchema)
    .nullable()
    .meta({
      description:
        'For each item drafted from a PDF, a photo or a web page’s layout: where it was read and how sure the ' +
        'machine is, lowest confidence first. Null when no source was drafted.',
    }),
  sources: z.array(opsSourceViewSchema),
  draft_catalog: catalogDocumentSchema.nullable().meta({
    description: 'The catalog built so far, inline up to 1 MB; null when there is none or it is larger.',
  }),
  draft_catalog_url: z
    .url()
    .nullable()
    .meta({ description: 'Presigned GET of the draft, valid 15 minutes.' }),
  draft_catalog_url_expires_at: timestamp.nullable(),
});

/** GET /v1/ops/jobs. */
export const opsJobListSchema = z.strictObject({
  data: z.array(opsJobSchema).meta({ description: 'Rush before standard, then the oldest due_at first.' }),
  next_cursor: z.string().nullable(),
});

/** SPEC 6: the body of the callback POSTed to an export's callback_url (webhooks.ts exportEvent). */
export const exportEventSchema = z.strictObject({
  type: z.enum(['data_export.completed', 'data_export.failed']),
  timestamp: timestamp.meta({
    description: 'When the export became terminal: the same on every retry of the event.',
  }),
  data: exportResourceSchema.meta({ description: 'The export, as GET /v1/data_exports/{id} shows it.' }),
});

export type JobResourceBody = z.infer<typeof jobResourceSchema>;
export type JobListBody = z.infer<typeof jobListSchema>;
export type ExportResourceBody = z.infer<typeof exportResourceSchema>;
export type FileResourceBody = z.infer<typeof fileResourceSchema>;
export type ProblemBodyShape = z.infer<typeof problemBodySchema>;
export type ExportEventBody = z.infer<typeof exportEventSchema>;
