import type { ExportContentType, ExportFormat, ExportState } from './schemas/export';
import type { FileState } from './schemas/file';
import type { JobData, JobState, JobType, ProcessingType } from './schemas/job';
import type { JobResults } from './schemas/results';
import type { ExportWarningCode } from './schemas/warning-codes';

/** A problem object (RFC 9457) as stored on a failed job or export. */
export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly code: string;
  readonly detail: string;
}

export const problemType = (code: string): string => `urn:catalog-jobs:problem:${code}`;

export const problem = (code: string, title: string, detail: string): Problem => ({
  type: problemType(code),
  title,
  code,
  detail,
});

export interface JobRecord {
  readonly id: string;
  readonly clientId: string;
  readonly state: JobState;
  /** Incremented by every transition; conditional writes compare it (SPEC 4). */
  readonly version: number;
  readonly jobType: JobType;
  readonly processingType: ProcessingType;
  readonly jobData: JobData;
  readonly metadata: Record<string, string>;
  /** SPEC 5.2: `{}` until processed, then the catalog's summary (one type from the worker to the API). */
  readonly results: JobResults;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly dueAt: string;
  readonly completedAt: string | null;
  readonly error: Problem | null;
  /** While `processing`: until when the worker that took the job holds it (a crashed worker's lease runs out). */
  readonly leaseUntil?: string | null;
}

export interface ExportFile {
  readonly content_type: ExportContentType;
  readonly size_bytes: number;
  readonly checksum_sha256: string;
  readonly item_count: number;
}

/** One file of an export split to fit the target's size limit (SPEC 3.2 `files`), as stored. */
export interface StoredExportFile extends ExportFile {
  readonly name: string;
  readonly key: string;
}

/** What a format could not carry, or changed to make the target accept the file: one entry per reason. */
export interface ExportWarning {
  readonly code: ExportWarningCode;
  /** The catalog field concerned (`modifier_groups`, `variants.price`), or null. */
  readonly field: string | null;
  /** How many items (or variants, as the message says) it concerns. */
  readonly count: number;
  readonly message: string;
}

export interface CallbackStatus {
  readonly state: 'pending' | 'delivered' | 'failed';
  readonly attempts: number;
  readonly last_status: number | null;
  readonly last_attempt_at: string | null;
}

export interface ExportRecord {
  readonly id: string;
  readonly clientId: string;
  readonly jobId: string;
  readonly jobType: JobType;
  readonly state: ExportState;
  readonly version: number;
  readonly callbackUrl: string | null;
  /** SPEC 3.2; absent on exports created before formats (they are `catalog_json`). */
  readonly format?: ExportFormat;
  /** `google_merchant_tsv`, `meta_catalog_csv`: the product page URL of each offer. */
  readonly linkTemplate?: string | null;
  readonly clientMappings: Record<string, unknown>;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly completedAt: string | null;
  /** Key of the export file in the exports bucket, once written. */
  readonly objectKey: string | null;
  readonly file: ExportFile | null;
  /** Every file when the export was split (the first is `objectKey`/`file`); absent or null otherwise. */
  readonly files?: readonly StoredExportFile[] | null;
  readonly warnings?: readonly ExportWarning[];
  readonly callback: CallbackStatus | null;
  readonly error: Problem | null;
}

export interface FileRecord {
  readonly id: string;
  readonly clientId: string;
  readonly state: FileState;
  readonly filename: string;
  readonly contentType: string;
  readonly objectKey: string;
  readonly sizeBytes: number | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly uploadExpiresAt: string;
}

/** SPEC 3.1: the job as the API shows it. The seed's four fields come first. */
export const jobResource = (job: JobRecord) => ({
  id: job.id,
  state: job.state,
  processing_type: job.processingType,
  results: job.results,
  job_type: job.jobType,
  job_data: job.jobData,
  metadata: job.metadata,
  created_at: job.createdAt,
  updated_at: job.updatedAt,
  due_at: job.dueAt,
  completed_at: job.completedAt,
  error: job.error,
});
export type JobResource = ReturnType<typeof jobResource>;

export interface DeliveryLink {
  readonly url: string;
  readonly expiresAt: string;
  /** A split export: a link for each of its files, the first being `url`. */
  readonly files?: readonly { readonly url: string; readonly expiresAt: string }[];
}

/** A split export's files with their links (SPEC 3.2); null for an export of one file. */
const exportFiles = (exp: ExportRecord, delivery: DeliveryLink | null) =>
  exp.files && exp.files.length > 1
    ? exp.files.map((f, i) => ({
        name: f.name,
        url: delivery?.files?.[i]?.url ?? null,
        content_type: f.content_type,
        size_bytes: f.size_bytes,
        checksum_sha256: f.checksum_sha256,
        item_count: f.item_count,
      }))
    : null;

/** SPEC 3.2: the data export as the API (and its callback) shows it. The seed's seven fields come first. */
export const exportResource = (exp: ExportRecord, delivery: DeliveryLink | null) => ({
  id: exp.id,
  state: exp.state,
  callback_url: exp.callbackUrl,
  delivery_url: delivery?.url ?? null,
  job_id: exp.jobId,
  job_type: exp.jobType,
  client_mappings: exp.clientMappings,
  format: exp.format ?? 'catalog_json',
  created_at: exp.createdAt,
  updated_at: exp.updatedAt,
  completed_at: exp.completedAt,
  delivery_url_expires_at: delivery?.expiresAt ?? null,
  file: exp.file,
  files: exportFiles(exp, delivery),
  warnings: [...(exp.warnings ?? [])],
  callback: exp.callback,
  error: exp.error,
});
export type ExportResource = ReturnType<typeof exportResource>;

/**
 * SPEC 3.3: an uploaded catalog source. While it waits for its bytes, `upload_url` is the presigned PUT and
 * `upload_form` the presigned POST form to the same object (SPEC 9: the store refuses more than 100 MB).
 */
export const fileResource = (file: FileRecord, upload: PresignedUpload | null) => ({
  id: file.id,
  state: file.state,
  filename: file.filename,
  content_type: file.contentType,
  upload_url: upload?.putUrl ?? null,
  upload_form: upload ? { url: upload.url, fields: upload.fields } : null,
  upload_expires_at: upload?.expiresAt ?? null,
  size_bytes: file.sizeBytes,
  created_at: file.createdAt,
});
export type FileResource = ReturnType<typeof fileResource>;

/**
 * A presigned upload (SPEC 3.3, 9), two ways to the same object until `expiresAt`: `putUrl`, where the client
 * PUTs the bytes (SPEC 3.3), and the form at `url` with `fields`, which the client POSTs as multipart/form-data
 * (fields first, the file last) and which the store itself refuses over `maxBytes`, with another key or
 * Content-Type, or late.
 */
export interface PresignedUpload {
  readonly putUrl: string;
  readonly url: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly maxBytes: number;
  readonly expiresAt: string;
}
