/**
 * Examples for the OpenAPI document, taken from the seed interface (sections 2.1-2.5 and 4) and SPEC 3.
 * Fixed ids and times keep the generated document deterministic. Every example is validated against its
 * schema by the unit tests and by Redocly's lint.
 */
import { GATEWAY_RESPONSES, gatewayProblem } from '../gateway-responses';

const JOB_ID = '3f1c9a52-7d4e-4b8a-9c61-2e5f8a0b7d13';
const RETAIL_JOB_ID = '8b2d4e61-0c3f-4a9d-b7e5-1f6a2c9d0e48';
const IMAGE_JOB_ID = 'c47e1b09-5a2d-4f83-8e16-9d0b3a7c52f4';
const EXPORT_ID = '5e8a7c30-2b1f-4d6e-a9c4-7f0d1e3b6a25';
const FILE_ID = '9d4b2f17-6e8a-4c05-b3d1-0a7e5c2f8b96';
const REQUEST_ID = '0b7f3c2e-91d4-4e6a-8f25-3c1a9e7d5b40';
const CREATED = '2026-01-15T09:30:00.000Z';

const SEED_JOBS = {
  new_menu: {
    job_type: 'new_menu',
    processing_type: 'rush',
    job_data: {
      catalog_sources: ['https://merchant.example.com/menu.csv'],
      merchant_name: "Joe's Diner",
      merchant_address: '1 Main St, Springfield',
      language: 'en_us',
    },
    metadata: { store_id: 'store-42' },
  },
  new_retail_catalog: {
    job_type: 'new_retail_catalog',
    processing_type: 'standard',
    job_data: {
      catalog_sources: ['https://merchant.example.com/products.csv', FILE_ID],
      merchant_name: 'Corner Store',
      merchant_token: 'MT-123',
      client_mappings: { categories: { Beverages: 'cat-100' } },
    },
  },
  retail_image_mapping: {
    job_type: 'retail_image_mapping',
    processing_type: 'standard',
    job_data: {
      catalog_sources: ['https://merchant.example.com/products.csv'],
      merchant_name: 'Corner Store',
      image_sources: [
        'https://cdn.example.com/images/012345678905.jpg',
        'https://cdn.example.com/images/0049000028911.png',
      ],
      instructions: 'Prefer front-facing product shots.',
    },
  },
} as const;

type SeedJobType = keyof typeof SEED_JOBS;

export interface Example {
  readonly summary: string;
  readonly description?: string;
  readonly value: unknown;
}

const addHours = (iso: string, hours: number): string =>
  new Date(Date.parse(iso) + hours * 3_600_000).toISOString();

/** A job as the service answers it right after creation (seed 2.3: `initiated`, empty results). */
const createdJob = (jobType: SeedJobType, id: string) => {
  const spec = SEED_JOBS[jobType];
  const language = jobType === 'retail_image_mapping' ? {} : { language: 'en_us' };
  return {
    id,
    state: 'initiated',
    processing_type: spec.processing_type,
    results: {},
    job_type: spec.job_type,
    job_data: { ...spec.job_data, ...language },
    metadata: 'metadata' in spec ? spec.metadata : {},
    created_at: CREATED,
    updated_at: CREATED,
    due_at: addHours(CREATED, spec.processing_type === 'rush' ? 24 : 72),
    completed_at: null,
    error: null,
  };
};

const completedMenuJob = {
  ...createdJob('new_menu', JOB_ID),
  state: 'completed',
  results: {
    catalog: { item_count: 5, variant_count: 7, category_count: 3, modifier_group_count: 2, image_count: 1 },
    warnings: [
      {
        source: 'https://merchant.example.com/menu.csv',
        row: 7,
        column: 'Price',
        code: 'not_a_price',
        message:
          '"2 for $5" is a deal (several for one price), not a price; the item is kept without this price',
      },
    ],
    warning_count: 1,
    sources: [
      {
        source: 'https://merchant.example.com/menu.csv',
        format: 'csv',
        encoding: 'windows-1252',
        profile: 'generic',
        columns: { Section: 'category', Dish: 'name', Size: 'size', 'Price ($)': 'price' },
        ignored_columns: ['Notes'],
        rows: 10,
        items: 5,
        delimiter: ';',
        header_row: 1,
      },
    ],
  },
  updated_at: '2026-01-15T09:30:04.000Z',
  completed_at: '2026-01-15T09:30:04.000Z',
};

const failedJob = {
  ...createdJob('new_retail_catalog', RETAIL_JOB_ID),
  state: 'failed',
  updated_at: '2026-01-15T09:30:05.000Z',
  completed_at: '2026-01-15T09:30:05.000Z',
  error: {
    type: 'urn:catalog-jobs:problem:source_unreadable',
    title: 'No source could be read',
    code: 'source_unreadable',
    detail: 'https://merchant.example.com/products.csv: the server answered 404.',
  },
};

export const jobRequestExamples: Record<SeedJobType, Example> = {
  new_menu: { summary: 'new_menu (seed 2.2), rush', value: { job: SEED_JOBS.new_menu } },
  new_retail_catalog: {
    summary: 'new_retail_catalog from a URL and an uploaded file',
    value: { job: SEED_JOBS.new_retail_catalog },
  },
  retail_image_mapping: {
    summary: 'retail_image_mapping with image_sources',
    value: { job: SEED_JOBS.retail_image_mapping },
  },
};

export const jobCreatedExamples: Record<SeedJobType, Example> = {
  new_menu: { summary: 'new_menu, right after creation', value: createdJob('new_menu', JOB_ID) },
  new_retail_catalog: {
    summary: 'new_retail_catalog, right after creation',
    value: createdJob('new_retail_catalog', RETAIL_JOB_ID),
  },
  retail_image_mapping: {
    summary: 'retail_image_mapping, right after creation',
    value: createdJob('retail_image_mapping', IMAGE_JOB_ID),
  },
};

export const jobExamples: Record<string, Example> = {
  processing: {
    summary: 'Processing (answered with Retry-After)',
    value: { ...createdJob('new_menu', JOB_ID), state: 'processing', updated_at: '2026-01-15T09:30:01.000Z' },
  },
  completed: { summary: 'Completed, with the results summary', value: completedMenuJob },
  failed: { summary: 'Failed, with its error', value: failedJob },
};

export const jobListExample: Example = {
  summary: 'A page of jobs, newest first',
  value: {
    data: [completedMenuJob, failedJob],
    next_cursor: 'eyJQSyI6IkNMSUVOVCNkZXYiLCJTSyI6IkpPQiMuLi4ifQ',
  },
};

export const canceledJobExample: Example = {
  summary: 'Canceled',
  value: {
    ...createdJob('new_menu', JOB_ID),
    state: 'canceled',
    updated_at: '2026-01-15T09:31:00.000Z',
    completed_at: '2026-01-15T09:31:00.000Z',
  },
};

export const exportRequestExamples: Record<string, Example> = {
  poll: { summary: 'Poll for the result (seed 2.4)', value: { id: JOB_ID, type: 'catalog' } },
  callback: {
    summary: 'Be called back when it is ready',
    value: { id: JOB_ID, type: 'catalog', callback_url: 'https://hooks.example.com/catalog' },
  },
};

const createdExport = {
  id: EXPORT_ID,
  state: 'initiated',
  callback_url: 'https://hooks.example.com/catalog',
  delivery_url: null,
  job_id: JOB_ID,
  job_type: 'new_menu',
  client_mappings: {},
  format: 'catalog_json',
  created_at: CREATED,
  updated_at: CREATED,
  completed_at: null,
  delivery_url_expires_at: null,
  file: null,
  files: null,
  warnings: [],
  callback: null,
  error: null,
};

const completedExport = {
  ...createdExport,
  state: 'completed',
  delivery_url:
    'https://catalog-exports.s3.amazonaws.com/exports/dev/5e8a7c30-2b1f-4d6e-a9c4-7f0d1e3b6a25.json' +
    '?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=3600&X-Amz-Signature=...',
  updated_at: '2026-01-15T09:30:09.000Z',
  completed_at: '2026-01-15T09:30:09.000Z',
  delivery_url_expires_at: '2026-01-15T10:35:00.000Z',
  file: {
    content_type: 'application/json',
    size_bytes: 48213,
    checksum_sha256: '9f2c4b1e7a6d3f08c5e2b9a4d7c1f6e0b3a8d5c2e9f4a7b0c6d3e1f8a5b2c9d4',
    item_count: 5,
  },
  callback: {
    state: 'delivered',
    attempts: 1,
    last_status: 204,
    last_attempt_at: '2026-01-15T09:30:10.000Z',
  },
};

export const exportCreatedExample: Example = {
  summary: 'Right after creation (seed 2.5)',
  value: createdExport,
};

export const exportExamples: Record<string, Example> = {
  initiated: { summary: 'Waiting for its job (answered with Retry-After)', value: createdExport },
  completed: { summary: 'Completed: download delivery_url', value: completedExport },
};

export const exportEventExamples: Record<string, Example> = {
  completed: {
    summary: 'data_export.completed',
    value: { type: 'data_export.completed', timestamp: completedExport.completed_at, data: completedExport },
  },
  failed: {
    summary: 'data_export.failed',
    value: {
      type: 'data_export.failed',
      timestamp: '2026-01-15T09:30:06.000Z',
      data: {
        ...createdExport,
        state: 'failed',
        job_type: 'new_retail_catalog',
        job_id: RETAIL_JOB_ID,
        updated_at: '2026-01-15T09:30:06.000Z',
        completed_at: '2026-01-15T09:30:06.000Z',
        callback: { state: 'pending', attempts: 0, last_status: null, last_attempt_at: null },
        error: {
          type: 'urn:catalog-jobs:problem:job_failed',
          title: 'Job failed',
          code: 'job_failed',
          detail: 'The job was failed; it has no catalog to export.',
        },
      },
    },
  },
};

export const fileRequestExample: Example = {
  summary: 'A CSV menu',
  value: { filename: 'menu.csv', content_type: 'text/csv' },
};

const pendingFile = {
  id: FILE_ID,
  state: 'pending',
  filename: 'menu.csv',
  content_type: 'text/csv',
  upload_url:
    'https://catalogjobsstateful-uploads1a2b3c4d-5e6f7g8h9i0j.s3.eu-west-1.amazonaws.com/uploads/dev/' +
    '9d4b2f17-6e8a-4c05-b3d1-0a7e5c2f8b96?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIA...' +
    '%2F20260115%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date=20260115T093000Z&X-Amz-Expires=900' +
    '&X-Amz-SignedHeaders=host&X-Amz-Security-Token=IQoJb3JpZ2luX2VjE...&X-Amz-Signature=9a1c...',
  upload_form: {
    url: 'https://catalogjobsstateful-uploads1a2b3c4d-5e6f7g8h9i0j.s3.eu-west-1.amazonaws.com/',
    fields: {
      'Content-Type': 'text/csv',
      bucket: 'catalogjobsstateful-uploads1a2b3c4d-5e6f7g8h9i0j',
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': 'ASIA.../20260115/eu-west-1/s3/aws4_request',
      'X-Amz-Date': '20260115T093000Z',
      'X-Amz-Security-Token': 'IQoJb3JpZ2luX2VjE...',
      key: 'uploads/dev/9d4b2f17-6e8a-4c05-b3d1-0a7e5c2f8b96',
      Policy: 'eyJleHBpcmF0aW9uIjoiMjAyNi0wMS0xNVQwOTo0NTowMFoiLCJjb25kaXRpb25zIjpbXX0=',
      'X-Amz-Signature': '5f0c0b7e...',
    },
  },
  upload_expires_at: '2026-01-15T09:45:00.000Z',
  size_bytes: null,
  created_at: CREATED,
};

export const fileCreatedExample: Example = { summary: 'Waiting for its bytes', value: pendingFile };

export const fileExamples: Record<string, Example> = {
  pending: { summary: 'Not uploaded yet', value: pendingFile },
  uploaded: {
    summary: 'Uploaded: use its id in catalog_sources',
    value: {
      ...pendingFile,
      state: 'uploaded',
      upload_url: null,
      upload_form: null,
      upload_expires_at: null,
      size_bytes: 2741,
    },
  },
};

const reviewJob = {
  ...createdJob('retail_image_mapping', IMAGE_JOB_ID),
  state: 'in_review',
  results: {
    catalog: {
      item_count: 120,
      variant_count: 131,
      category_count: 8,
      modifier_group_count: 0,
      image_count: 1,
    },
    warnings: [],
    warning_count: 0,
    sources: [
      {
        source: 'https://merchant.example.com/products.csv',
        format: 'csv',
        encoding: 'utf-8',
        profile: 'shopify',
        columns: {
          Handle: 'handle',
          Title: 'name',
          'Body (HTML)': 'description',
          Vendor: 'brand',
          'Product Category': 'category',
          'Option1 Name': 'option_name_1',
          'Option1 Value': 'option_value_1',
          'Variant SKU': 'sku',
          'Variant Price': 'price',
          'Variant Barcode': 'gtin',
          'Image Src': 'image_url',
        },
        ignored_columns: ['Variant Inventory Qty', 'Variant Compare At Price', 'SEO Title', 'Status'],
        rows: 152,
        items: 120,
        delimiter: ',',
        header_row: 1,
      },
    ],
    mapped_count: 1,
    unmatched_images: [],
    unmatched_count: 0,
    unreachable_images: [
      {
        url: 'https://cdn.example.com/images/0049000028911.png',
        status: 404,
        reason: 'the server answered 404',
      },
    ],
    unreachable_count: 1,
    products_without_image_count: 119,
    review_reasons: ['the job carries instructions for the operations team'],
  },
  updated_at: '2026-01-15T09:31:00.000Z',
  client_id: 'acme',
};

export const opsJobListExample: Example = {
  summary: 'The review queue',
  value: { data: [reviewJob], next_cursor: null },
};

export const opsJobExample: Example = { summary: 'A job in review', value: reviewJob };

const CATEGORY_ID = '0d6f2a1b-3c4e-5f60-8a7b-9c0d1e2f3a4b';
const ITEM_ID = '1e7a3b2c-4d5f-5a61-9b8c-0d1e2f3a4b5c';
const VARIANT_ID = '2f8b4c3d-5e6a-5b72-8c9d-1e2f3a4b5c6d';

const catalogDocument = {
  format_version: 2,
  job_id: IMAGE_JOB_ID,
  job_type: 'retail_image_mapping',
  generated_at: '2026-01-15T09:31:00.000Z',
  language: 'en_us',
  currency: 'USD',
  merchant: { name: 'Corner Store', address: null, token: null },
  categories: [{ id: CATEGORY_ID, name: 'Beverages', parent_id: null, sort: 0, external_id: null }],
  items: [
    {
      id: ITEM_ID,
      name: 'Sparkling Water',
      description: null,
      category_id: CATEGORY_ID,
      brand: 'Fizz',
      tags: [],
      calories: null,
      modifier_group_ids: [],
      images: [],
      external_id: null,
      option_names: ['Size'],
      variants: [
        {
          id: VARIANT_ID,
          name: '500 ml',
          options: { Size: '500 ml' },
          sku: 'SW-500',
          gtin: '012345678905',
          size: '500',
          unit: 'ml',
          price: { amount: 199, currency: 'USD' },
          pricing: 'fixed',
          images: [{ url: 'https://cdn.example.com/images/012345678905.jpg', width: 800, height: 800 }],
          external_id: null,
        },
        {
          id: '3a9c5d4e-6f7b-5c83-9dae-2f3a4b5c6d7e',
          name: '1 l',
          options: { Size: '1 l' },
          sku: 'SW-1000',
          gtin: null,
          size: '1',
          unit: 'l',
          price: null,
          pricing: 'variable',
          images: [],
          external_id: null,
        },
      ],
    },
  ],
  modifier_groups: [],
  image_mappings: [
    {
      image_url: 'https://cdn.example.com/images/012345678905.jpg',
      item_id: ITEM_ID,
      variant_id: VARIANT_ID,
      matched_by: 'gtin',
      width: 800,
      height: 800,
    },
  ],
};

export const opsJobDetailExample: Example = {
  summary: 'A job in review with its draft catalog',
  value: {
    ...reviewJob,
    draft_catalog: catalogDocument,
    draft_catalog_url:
      'https://catalog-documents.s3.amazonaws.com/catalogs/acme/c47e1b09-5a2d-4f83-8e16-9d0b3a7c52f4.json' +
      '?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900&X-Amz-Signature=...',
    draft_catalog_url_expires_at: '2026-01-15T09:46:00.000Z',
    draft_provenance: null,
    sources: [
      {
        index: 0,
        source: 'https://merchant.example.com/products.csv',
        format: null,
        content_type: null,
        size_bytes: null,
        pages: null,
        web_pages: null,
        view_path: `/v1/ops/jobs/${IMAGE_JOB_ID}/sources/0`,
        viewable: false,
      },
    ],
  },
};

export const opsSourceDownloadExample: Example = {
  summary: 'A PDF menu, as the service fetched it',
  value: {
    index: 0,
    source: 'https://bistro.example.com/menu.pdf',
    url:
      'https://catalog-documents.s3.amazonaws.com/sources/acme/c47e1b09-5a2d-4f83-8e16-9d0b3a7c52f4/0' +
      '?response-content-type=application%2Fpdf&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=300&X-Amz-Signature=...',
    expires_at: '2026-01-15T09:36:00.000Z',
    content_type: 'application/pdf',
    size_bytes: 482113,
  },
};

/** What an operator uploads: job_id and generated_at may be left out. */
const { job_id: _jobId, generated_at: _generatedAt, ...uploadedCatalog } = catalogDocument;

export const catalogDocumentExample: Example = {
  summary: 'The corrected catalog (format 2; job_id and generated_at filled in by the service)',
  value: uploadedCatalog,
};

export const opsFailExample: Example = {
  summary: 'The sources cannot be read',
  value: { code: 'unreadable_sources', message: 'The PDF menu is a scan too blurry to read.' },
};

const { review_reasons: _reviewed, ...reviewedResults } = reviewJob.results;

export const opsCompletedExample: Example = {
  summary: 'Completed by the operations team',
  value: {
    ...reviewJob,
    state: 'completed',
    results: reviewedResults,
    updated_at: '2026-01-15T10:02:00.000Z',
    completed_at: '2026-01-15T10:02:00.000Z',
  },
};

export const opsFailedExample: Example = {
  summary: 'Failed by the operations team',
  value: {
    ...reviewJob,
    state: 'failed',
    updated_at: '2026-01-15T10:02:00.000Z',
    completed_at: '2026-01-15T10:02:00.000Z',
    error: {
      type: 'urn:catalog-jobs:problem:unreadable_sources',
      title: 'Failed by the operations team',
      code: 'unreadable_sources',
      detail: 'The PDF menu is a scan too blurry to read.',
    },
  },
};

/** Problem bodies (SPEC 7), one per code. */
const problem = (
  status: number,
  code: string,
  title: string,
  detail: string,
  errors?: { pointer: string; code: string; message: string }[],
) => ({
  type: `urn:catalog-jobs:problem:${code}`,
  title,
  status,
  detail,
  code,
  request_id: REQUEST_ID,
  ...(errors ? { errors } : {}),
});

export const problemExamples = {
  validation_failed: {
    summary: 'validation_failed',
    value: problem(400, 'validation_failed', 'Invalid request', 'The request is invalid.', [
      { pointer: '/job/job_data/merchant_name', code: 'required', message: 'is required' },
      {
        pointer: '/job/job_data/image_sources',
        code: 'unknown_field',
        message: 'unknown field "image_sources"',
      },
    ]),
  },
  malformed_json: {
    summary: 'validation_failed (malformed JSON)',
    value: problem(400, 'validation_failed', 'Invalid request', 'The request body is not valid JSON.', [
      { pointer: '', code: 'malformed_json', message: 'the body could not be parsed as JSON' },
    ]),
  },
  invalid_query: {
    summary: 'validation_failed (query)',
    value: problem(400, 'validation_failed', 'Invalid request', 'The query parameters are invalid.', [
      { pointer: '/query/limit', code: 'too_big', message: 'Too big: expected number to be <=100' },
    ]),
  },
  unauthorized: {
    summary: 'unauthorized',
    value: problem(
      401,
      'unauthorized',
      'Unauthorized',
      'A valid API key is required: Authorization: Token api_key=<API_KEY>.',
    ),
  },
  forbidden: {
    summary: 'forbidden',
    value: problem(403, 'forbidden', 'Forbidden', 'This route needs a key with the operator scope.'),
  },
  not_found: {
    summary: 'not_found',
    value: problem(404, 'not_found', 'Not found', `No job has the id ${JOB_ID}.`),
  },
  invalid_state: {
    summary: 'invalid_state',
    value: problem(
      409,
      'invalid_state',
      'Invalid state',
      'A job can be canceled only while it is initiated or in_review; this one is processing.',
    ),
  },
  job_not_exportable: {
    summary: 'job_not_exportable',
    value: problem(
      409,
      'job_not_exportable',
      'Invalid state',
      'The job is failed; only a job that can still complete can be exported.',
    ),
  },
  idempotency_key_in_use: {
    summary: 'idempotency_key_in_use',
    value: problem(
      409,
      'idempotency_key_in_use',
      'Idempotency key in use',
      'A request with this Idempotency-Key is still being processed; retry shortly.',
    ),
  },
  payload_too_large: {
    summary: 'payload_too_large',
    value: problem(
      413,
      'payload_too_large',
      'Payload too large',
      'The body is 1048577 bytes; the limit is 1048576 bytes (1 MB).',
    ),
  },
  unsupported_media_type: {
    summary: 'unsupported_media_type',
    value: problem(
      415,
      'unsupported_media_type',
      'Unsupported media type',
      'Send the body as JSON with Content-Type: application/json.',
    ),
  },
  idempotency_key_mismatch: {
    summary: 'idempotency_key_mismatch',
    value: problem(
      422,
      'idempotency_key_mismatch',
      'Idempotency key reused',
      'This Idempotency-Key was already used with a different request; use a new key for a new request.',
    ),
  },
  rate_limited: {
    summary: 'rate_limited',
    // Always the gateway's answer (lib/gateway-responses.ts).
    value: gatewayProblem(GATEWAY_RESPONSES.THROTTLED, REQUEST_ID),
  },
  internal_error: {
    summary: 'internal_error',
    value: problem(
      500,
      'internal_error',
      'Internal error',
      'The service failed to handle the request. It has been logged with the request id.',
    ),
  },
  service_unavailable: {
    summary: 'service_unavailable',
    value: problem(
      503,
      'service_unavailable',
      'Service unavailable',
      'A dependency of the service is unavailable. Retry after the indicated delay.',
    ),
  },
} satisfies Record<string, Example>;

export type ProblemExampleName = keyof typeof problemExamples;
