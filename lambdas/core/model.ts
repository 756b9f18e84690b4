import type { ExportState } from './schemas/export';
import type { FileState } from './schemas/file';
import type { JobData, JobState, JobType, ProcessingType } from './schemas/job';
import type { JobResults } from './schemas/results';

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
  readonly content_type: 'application/json';
  readonly size_bytes: number;
  readonly checksum_sha256: string;
  readonly item_count: number;
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
  readonly clientMappings: Record<string, unknown>;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly completedAt: string | null;
  /** Key of the export file in the exports bucket, once written. */
  readonly objectKey: string | null;
  readonly file: ExportFile | null;
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
}

/** SPEC 3.2: the data export as the API (and its callback) shows it. The seed's seven fields come first. */
export const exportResource = (exp: ExportRecord, delivery: DeliveryLink | null) => ({
  id: exp.id,
  state: exp.state,
  callback_url: exp.callbackUrl,
  delivery_url: delivery?.url ?? null,
  job_id: exp.jobId,
  job_type: exp.jobType,
  client_mappings: exp.clientMappings,
  created_at: exp.createdAt,
  updated_at: exp.updatedAt,
  completed_at: exp.completedAt,
  delivery_url_expires_at: delivery?.expiresAt ?? null,
  file: exp.file,
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
  upload_headers: upload?.putHeaders ?? null,
  upload_form: upload ? { url: upload.url, fields: upload.fields } : null,
  upload_expires_at: upload?.expiresAt ?? null,
  size_bytes: file.sizeBytes,
  created_at: file.createdAt,
});
export type FileResource = ReturnType<typeof fileResource>;

/**
 * A presigned upload (SPEC 3.3, 9), two ways to the same object until `expiresAt`: `putUrl`, where the client
 * PUTs the bytes (SPEC 3.3) with `putHeaders` (signed: the declared Content-Type and `If-None-Match: *`, so
 * that the object is written once, as what it was declared), and the form at `url` with `fields`, which the
 * client POSTs as multipart/form-data (fields first, the file last) and which the store itself refuses over
 * `maxBytes`, with another key or Content-Type, or late.
 */
export interface PresignedUpload {
  readonly putUrl: string;
  /** Headers the PUT must carry exactly: its signature covers them. */
  readonly putHeaders: Readonly<Record<string, string>>;
  readonly url: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly maxBytes: number;
  readonly expiresAt: string;
}
