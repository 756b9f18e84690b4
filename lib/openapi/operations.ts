import type * as z from 'zod';
import { listJobsQuerySchema } from '../../lambdas/core/schemas/job';
import { opsListQuerySchema } from '../../lambdas/core/schemas/operations';
import {
  canceledJobExample,
  catalogDocumentExample,
  type Example,
  exportCreatedExample,
  exportExamples,
  exportRequestExamples,
  fileCreatedExample,
  fileExamples,
  fileRequestExample,
  jobCreatedExamples,
  jobExamples,
  jobListExample,
  jobRequestExamples,
  opsCompletedExample,
  opsFailExample,
  opsFailedExample,
  opsJobDetailExample,
  opsJobExample,
  opsJobListExample,
  opsSourceDownloadExample,
  type ProblemExampleName,
} from './examples';

/**
 * What the OpenAPI document says about each route of lib/resources.ts ROUTES, keyed by its handler. The
 * statuses listed are the ones the handler (and the gateway in front of it) can answer; 401, 403, 429,
 * 500 and 503 apply to every route and are added by the document builder.
 */

export const TAGS = [
  {
    name: 'Jobs',
    description:
      'Asynchronous catalog work (seed 4.1): build a menu, build a retail catalog, or map product images to a ' +
      'retail catalog. A job is `initiated` when created, then `processing`, and ends `completed`, `failed` ' +
      'or `canceled`; a job that needs a person (instructions, PDF or image sources) waits in `in_review`.',
  },
  {
    name: 'Data exports',
    description:
      'Asynchronous retrieval of a job’s catalog (seed 4.2) as a JSON file. Poll the export, or give a ' +
      '`callback_url` and be called when it is ready. An export may be created before its job finishes: it ' +
      'waits, and its callback is how you learn that the catalog is ready.',
  },
  {
    name: 'Files',
    description:
      'Upload a catalog source from your machine: register it, PUT the file to `upload_url` (or POST it ' +
      'as the form `upload_form`), then use its id in `catalog_sources`. Files up to 100 MB: the form is ' +
      'refused over it by the upload itself, a larger PUT when the file is used.',
  },
  {
    name: 'Operations',
    description:
      'For the operations team (keys with the `operator` scope): the review queue, the draft catalog, and ' +
      'completing or failing a job in review. A `client` key gets 403 here.',
  },
] as const;

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema objects are open-ended
type JsonSchemaLike = Record<string, any>;

export type TagName = (typeof TAGS)[number]['name'];

export interface ErrorSpec {
  readonly status: 400 | 404 | 409 | 413 | 415 | 422;
  readonly description: string;
  readonly examples: readonly ProblemExampleName[];
}

export interface OperationSpec {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tag: TagName;
  /** Description of the `{id}` path parameter, for routes that have one. */
  readonly idParam?: string;
  /** Other path parameters (after `{id}`), in path order. */
  readonly pathParams?: readonly {
    readonly name: string;
    readonly description: string;
    readonly schema: JsonSchemaLike;
  }[];
  /** Answers 302 to where the bytes are (the JSON of `success` describes the same place). */
  readonly redirect?: string;
  readonly query?: z.ZodObject;
  readonly body?: {
    readonly schema: string;
    readonly description: string;
    readonly examples: Readonly<Record<string, Example>>;
  };
  /** Accepts Idempotency-Key (SPEC 5.1). */
  readonly idempotent?: boolean;
  readonly success: {
    readonly status: 200 | 201;
    readonly description: string;
    readonly schema: string;
    readonly examples: Readonly<Record<string, Example>>;
    /** 201 with `Location`. */
    readonly location?: boolean;
    /** 200 with `Retry-After` while not terminal: what it says. */
    readonly retryAfter?: string;
  };
  readonly errors: readonly ErrorSpec[];
  /** POST /v1/data_exports: the callback it leads to. */
  readonly callback?: boolean;
}

const badBody = (what: string): ErrorSpec => ({
  status: 400,
  description: `Malformed JSON, an empty body, or ${what} (\`validation_failed\`, with \`errors[]\`).`,
  examples: ['validation_failed', 'malformed_json'],
});
const tooLarge: ErrorSpec = {
  status: 413,
  description: 'The body is over 1 MB (`payload_too_large`).',
  examples: ['payload_too_large'],
};
const notJson: ErrorSpec = {
  status: 415,
  description: 'The body is not sent as `Content-Type: application/json` (`unsupported_media_type`).',
  examples: ['unsupported_media_type'],
};
const keyMismatch: ErrorSpec = {
  status: 422,
  description: 'The Idempotency-Key was already used with another body (`idempotency_key_mismatch`).',
  examples: ['idempotency_key_mismatch'],
};
const notFound = (what: string): ErrorSpec => ({
  status: 404,
  description: `${what} (\`not_found\`). Another client's id answers exactly as an unknown one.`,
  examples: ['not_found'],
});
const badQuery: ErrorSpec = {
  status: 400,
  description: 'A query parameter is invalid or unknown (`validation_failed`, pointers `/query/<name>`).',
  examples: ['invalid_query'],
};

export const OPERATIONS: Readonly<Record<string, OperationSpec>> = {
  'create-job': {
    operationId: 'createJob',
    summary: 'Create a job',
    tag: 'Jobs',
    description:
      'Seed 4.1. Creates a job and answers at once with the job in state `initiated` and empty `results`; ' +
      'the work happens asynchronously. Follow it with GET /v1/jobs/{id} (honour `Retry-After`), or create a ' +
      'data export with a `callback_url` to be called when the catalog is ready.\n\n' +
      '`job_data` depends on `job_type` (seed 2.2): `language` is not part of `retail_image_mapping`, ' +
      '`image_sources` only of it. Uploaded files named in `catalog_sources` must be `uploaded`.',
    body: {
      schema: 'CreateJobRequest',
      description: 'The job (seed 2.1), wrapped in the `job` key.',
      examples: jobRequestExamples,
    },
    idempotent: true,
    success: {
      status: 201,
      description: 'Created: the job in state `initiated` with empty `results`.',
      schema: 'Job',
      examples: jobCreatedExamples,
      location: true,
    },
    errors: [
      badBody(
        'a rule of seed 2.1/2.2 or SPEC 3.1 broken, an unknown field, or an uploaded file that is unknown or not ' +
          'uploaded yet',
      ),
      {
        status: 409,
        description: 'A request with the same Idempotency-Key is still in flight (`idempotency_key_in_use`).',
        examples: ['idempotency_key_in_use'],
      },
      tooLarge,
      notJson,
      keyMismatch,
    ],
  },
  'list-jobs': {
    operationId: 'listJobs',
    summary: 'List jobs',
    tag: 'Jobs',
    description:
      'Your jobs, newest first, a page at a time. Pass `next_cursor` back as `cursor` for the next page.',
    query: listJobsQuerySchema,
    success: {
      status: 200,
      description: 'A page of jobs.',
      schema: 'JobList',
      examples: { page: jobListExample },
    },
    errors: [badQuery],
  },
  'get-job': {
    operationId: 'getJob',
    summary: 'Get a job',
    tag: 'Jobs',
    description:
      'The job as it is now. While it is not terminal the answer carries `Retry-After`: 5 seconds for rush ' +
      'jobs, 30 for standard ones.',
    idParam: 'The job id.',
    success: {
      status: 200,
      description: 'The job.',
      schema: 'Job',
      examples: jobExamples,
      retryAfter:
        'While the job is not terminal: seconds to wait before polling again (5 rush, 30 standard).',
    },
    errors: [notFound('No job of yours has this id')],
  },
  'cancel-job': {
    operationId: 'cancelJob',
    summary: 'Cancel a job',
    tag: 'Jobs',
    description:
      'Cancels a job that is `initiated` or `in_review`. Its waiting exports fail (`job_failed`). No body.',
    idParam: 'The job id.',
    success: {
      status: 200,
      description: 'The canceled job.',
      schema: 'Job',
      examples: { canceled: canceledJobExample },
    },
    errors: [
      notFound('No job of yours has this id'),
      {
        status: 409,
        description: 'The job is neither `initiated` nor `in_review` (`invalid_state`).',
        examples: ['invalid_state'],
      },
    ],
  },
  'create-export': {
    operationId: 'createDataExport',
    summary: 'Create a data export',
    tag: 'Data exports',
    description:
      'Seed 4.2. Exports the catalog of one of your jobs as a JSON file (the catalog document). Answers at ' +
      'once with the export `initiated`, `delivery_url` null and `client_mappings` `{}`. The export waits ' +
      'until its job is terminal, then is written; when it is `completed`, `delivery_url` is a presigned ' +
      'GET valid for one hour (every GET of the export signs a fresh one).\n\n' +
      'With a `callback_url`, the service POSTs the export there when it is completed or failed (see the ' +
      'callback below) and polling is not needed.',
    body: {
      schema: 'CreateExportRequest',
      description: 'The data export request (seed 2.4).',
      examples: exportRequestExamples,
    },
    idempotent: true,
    success: {
      status: 201,
      description: 'Created: the export in state `initiated`, `delivery_url` null.',
      schema: 'DataExport',
      examples: { created: exportCreatedExample },
      location: true,
    },
    errors: [
      badBody(
        'an invalid `id`, a `type` other than `catalog`, a `callback_url` that is not https, an unknown field',
      ),
      notFound('No job of yours has the `id` given'),
      {
        status: 409,
        description:
          'The job already failed or was canceled (`job_not_exportable`), or a request with the same ' +
          'Idempotency-Key is still in flight (`idempotency_key_in_use`).',
        examples: ['job_not_exportable', 'idempotency_key_in_use'],
      },
      tooLarge,
      notJson,
      keyMismatch,
    ],
    callback: true,
  },
  'get-export': {
    operationId: 'getDataExport',
    summary: 'Get a data export',
    tag: 'Data exports',
    description:
      'Poll an export. While it is not terminal the answer carries `Retry-After: 5`. Once `completed`, ' +
      '`delivery_url` is a fresh presigned GET of the file, valid for one hour.',
    idParam: 'The data export id.',
    success: {
      status: 200,
      description: 'The data export.',
      schema: 'DataExport',
      examples: exportExamples,
      retryAfter: 'While the export is not terminal: seconds to wait before polling again (5).',
    },
    errors: [notFound('No data export of yours has this id')],
  },
  'create-file': {
    operationId: 'createFile',
    summary: 'Create a file upload',
    tag: 'Files',
    description:
      'Registers a catalog source to upload, valid 15 minutes, two ways (no Authorization header either ' +
      'way): PUT the bytes to `upload_url` with the declared Content-Type, and best with every header of ' +
      '`upload_headers` (a presigned S3 URL: ' +
      '`curl -T menu.csv -H "content-type: text/csv" -H "if-none-match: *" "$upload_url"`; the store answers ' +
      '200, and 412 to a second PUT: a file is written once), or POST `upload_form.url` as `multipart/form-data` with every field of ' +
      '`upload_form.fields` as it is, then the file as the last field, `file` (the store answers 204). The ' +
      'form is refused over 100 MB by the store itself (400 `EntityTooLarge`); a PUT over 100 MB is refused ' +
      'when the file is used (`file_too_large`). Both are refused after 15 minutes (403). GET the file to ' +
      'see it `uploaded`, then put its `id` in a job’s `catalog_sources`.',
    body: {
      schema: 'CreateFileRequest',
      description: 'The file’s name and media type.',
      examples: { csv: fileRequestExample },
    },
    success: {
      status: 201,
      description: 'Created: the file `pending`, with its `upload_url` and `upload_form`.',
      schema: 'File',
      examples: { pending: fileCreatedExample },
      location: true,
    },
    errors: [
      badBody('a file name with a path or a malformed media type, an unknown field'),
      tooLarge,
      notJson,
    ],
  },
  'get-file': {
    operationId: 'getFile',
    summary: 'Get a file',
    tag: 'Files',
    description:
      'The file: `uploaded` with `size_bytes` once its bytes are in place. While it is `pending` and its ' +
      'upload has not expired, `upload_url` and `upload_form` are signed again.',
    idParam: 'The file id.',
    success: { status: 200, description: 'The file.', schema: 'File', examples: fileExamples },
    errors: [notFound('No file of yours has this id')],
  },
  'ops-list-jobs': {
    operationId: 'listReviewQueue',
    summary: 'List jobs in review',
    tag: 'Operations',
    description: 'The review queue across clients: rush before standard, then the oldest `due_at` first.',
    query: opsListQuerySchema,
    success: {
      status: 200,
      description: 'A page of jobs in review.',
      schema: 'OpsJobList',
      examples: { queue: opsJobListExample },
    },
    errors: [badQuery],
  },
  'ops-get-job': {
    operationId: 'getReviewJob',
    summary: 'Get a job with its draft catalog',
    tag: 'Operations',
    description:
      'Any client’s job, with its client id, instructions and sources, and the draft catalog built.',
    idParam: 'The job id.',
    success: {
      status: 200,
      description: 'The job and its draft catalog.',
      schema: 'OpsJobDetail',
      examples: { review: opsJobDetailExample },
    },
    errors: [notFound('No job has this id')],
  },
  'ops-get-job-source': {
    operationId: 'getReviewJobSource',
    summary: 'View a source of a job',
    tag: 'Operations',
    description:
      'The bytes of source `n` (0-based position in `catalog_sources`), for viewing beside the draft: the ' +
      'uploaded file, or for a URL source the copy kept when the job was processed (so the reviewer sees ' +
      'what the machine read; copies are kept of the PDFs, images and web pages that go to review). A web ' +
      'page is kept as the text the machine read and served as `text/plain`, and a source whose type a ' +
      'browser would run (HTML, SVG, XML) is served as `text/plain` too: merchant markup is never rendered.\n\n' +
      'The service never streams the bytes itself (sources reach 100 MB; a Lambda response is at most 6 MB): ' +
      'it answers `302` to a presigned GET of the object store, valid 5 minutes, which serves the bytes with ' +
      'the source’s content type and `Content-Disposition: inline`. Clients that follow redirects receive ' +
      'the bytes (and drop the `Authorization` header on the way, the redirect being cross-origin). With ' +
      '`Accept: application/json` the answer is `200` with that URL instead. The same locally (`npm start`).',
    idParam: 'The job id.',
    pathParams: [
      {
        name: 'n',
        description:
          'The source’s 0-based position in `catalog_sources`; a number it does not have answers 404.',
        schema: { type: 'integer', minimum: 0 },
      },
    ],
    redirect: 'Found: `Location` is the presigned GET of the bytes; the body describes it as the 200 does.',
    success: {
      status: 200,
      description: 'With `Accept: application/json`: where the bytes are.',
      schema: 'OpsSourceDownload',
      examples: { pdf: opsSourceDownloadExample },
    },
    errors: [
      notFound(
        'No job has this id, the job has no source `n`, the uploaded file is gone, or no copy of this URL source was kept',
      ),
    ],
  },
  'ops-put-catalog': {
    operationId: 'replaceCatalog',
    summary: 'Replace the draft catalog',
    tag: 'Operations',
    description:
      'Replaces the draft catalog of a job in review with a catalog document (SPEC 5.5, format 2 or 1), ' +
      'validated with a JSON Pointer to each problem, and stores it as format 2. The job stays `in_review` ' +
      'until completed.',
    idParam: 'The job id.',
    body: {
      schema: 'CatalogUpload',
      description: 'The catalog document.',
      examples: { catalog: catalogDocumentExample },
    },
    success: {
      status: 200,
      description: 'The job, its results summarising the new catalog.',
      schema: 'OpsJob',
      examples: { review: opsJobExample },
    },
    errors: [
      badBody('an invalid catalog document, or one of another job'),
      notFound('No job has this id'),
      {
        status: 409,
        description: 'The job is not `in_review`, or changed meanwhile (`invalid_state`).',
        examples: ['invalid_state'],
      },
      tooLarge,
      notJson,
    ],
  },
  'ops-complete-job': {
    operationId: 'completeReviewJob',
    summary: 'Complete a job in review',
    tag: 'Operations',
    description: 'Completes the job with its current catalog; its waiting exports proceed. No body.',
    idParam: 'The job id.',
    success: {
      status: 200,
      description: 'The completed job.',
      schema: 'OpsJob',
      examples: { completed: opsCompletedExample },
    },
    errors: [
      notFound('No job has this id'),
      {
        status: 409,
        description:
          'The job is not `in_review`, has no catalog yet, or changed meanwhile (`invalid_state`).',
        examples: ['invalid_state'],
      },
    ],
  },
  'ops-fail-job': {
    operationId: 'failReviewJob',
    summary: 'Fail a job',
    tag: 'Operations',
    description:
      'Fails a job that is not terminal with the operations team’s reason, which becomes its `error`. Its ' +
      'waiting exports fail (`job_failed`).',
    idParam: 'The job id.',
    body: {
      schema: 'OpsFailRequest',
      description: 'The reason.',
      examples: { unreadable: opsFailExample },
    },
    success: {
      status: 200,
      description: 'The failed job.',
      schema: 'OpsJob',
      examples: { failed: opsFailedExample },
    },
    errors: [
      badBody('a code that is not snake_case or a blank message'),
      notFound('No job has this id'),
      {
        status: 409,
        description: 'The job is already terminal, or changed meanwhile (`invalid_state`).',
        examples: ['invalid_state'],
      },
      tooLarge,
      notJson,
    ],
  },
};
