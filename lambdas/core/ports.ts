import type { Scope } from './auth';
import type { CallbackMessage, ExportMessage, JobMessage } from './messages';
import type { CallbackStatus, ExportRecord, FileRecord, JobRecord, PresignedUpload } from './model';
import type { JobState, JobType, ProcessingType } from './schemas/job';
import type { ExportStateEvent, JobStateEvent } from './states';
import type { ExportEvent } from './webhooks';

/**
 * Ports: every interface the use cases need from the outside world, in this one file. Adapters
 * (lambdas/adapters) implement them with DynamoDB, SQS and S3 and import nothing but ports and the domain;
 * tests implement them in memory (test/helpers/fakes.ts), and one contract suite per port runs against both
 * (test/integration/*-contract.test.ts). Adapters translate SDK failures into domain errors: a lost
 * conditional write is a ConflictError, throttling or an outage a DependencyUnavailableError.
 */

export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

export interface JobListQuery {
  readonly state?: JobState;
  readonly jobType?: JobType;
  readonly limit: number;
  readonly cursor?: string;
}

/**
 * A move named by its event in lambdas/core/states.ts, which says from which states and to which one.
 * Optionally pinned to a version; `set` writes other fields in the same conditional write.
 */
export interface Transition<E extends string, R> {
  readonly event: E;
  readonly expectedVersion?: number;
  readonly set?: Partial<Omit<R, 'id' | 'clientId' | 'state' | 'version' | 'createdAt'>>;
  readonly at: string;
}

/** A record written but not yet confirmed on its queue (SPEC: no job may be stranded). */
export interface OutboxEntry {
  readonly kind: 'job' | 'export';
  readonly clientId: string;
  readonly id: string;
  readonly createdAt: string;
}

/** What the sweeps read of a job: no more than the sweep index holds. */
export type JobRef = Pick<JobRecord, 'clientId' | 'id' | 'dueAt'>;

/** What a job's listing of its exports reads: no more than the listing index holds. */
export type ExportRef = Pick<ExportRecord, 'clientId' | 'id' | 'state'>;

export interface JobRepository {
  /** Stores a new job, marked as waiting in the outbox until `markEnqueued`. */
  create(job: JobRecord): Promise<void>;
  get(clientId: string, id: string): Promise<JobRecord | undefined>;
  list(clientId: string, query: JobListQuery): Promise<Page<JobRecord>>;
  /**
   * Makes the move of `t.event` (JOB_TRANSITIONS) and bumps the version. ConflictError, carrying the job as
   * found in `current`, when the job is not in one of the event's `from` states (or not at
   * `expectedVersion`); NotFoundError when there is no such job.
   */
  transition(clientId: string, id: string, t: Transition<JobStateEvent, JobRecord>): Promise<JobRecord>;
  markEnqueued(clientId: string, id: string): Promise<void>;
  /** Removes a job that never reached its queue, if it is still untouched. Returns false if it was not. */
  deleteUnenqueued(clientId: string, id: string): Promise<boolean>;
  /** Jobs waiting for the operations team (`in_review`): rush first, then the oldest due_at first. */
  listForReview(limit: number, cursor?: string): Promise<Page<JobRecord>>;
  /** Jobs not yet terminal whose due_at is before `dueBefore`, oldest first (the time-out sweep). */
  listOverdue(dueBefore: string, limit: number): Promise<JobRef[]>;
  /** A job by its id alone, whatever its client (the operations API). */
  findById(id: string): Promise<JobRecord | undefined>;
  /**
   * The latest completed job of the client with this type and merchant_token, other than `exceptId`: what a
   * job's `results.changes` is measured against (SPEC 5.5). One indexed query, never a scan.
   */
  findPreviousCompleted(
    clientId: string,
    jobType: JobType,
    merchantToken: string,
    exceptId: string,
  ): Promise<JobRecord | undefined>;
}

export interface ExportRepository {
  create(exp: ExportRecord): Promise<void>;
  get(clientId: string, id: string): Promise<ExportRecord | undefined>;
  /** The exports of one job, with their state (which of them still wait for it). */
  listForJob(clientId: string, jobId: string): Promise<ExportRef[]>;
  /** As JobRepository.transition, with EXPORT_TRANSITIONS. */
  transition(
    clientId: string,
    id: string,
    t: Transition<ExportStateEvent, ExportRecord>,
  ): Promise<ExportRecord>;
  markEnqueued(clientId: string, id: string): Promise<void>;
  deleteUnenqueued(clientId: string, id: string): Promise<boolean>;
  /** An export by its id alone, whatever its client: for the operator's callback replay only. */
  findById(id: string): Promise<ExportRecord | undefined>;
  /**
   * Sets the export's `callback` field and nothing else: never its state, version or updated_at.
   * Conditional on `expected` (ConflictError when it no longer holds); NotFoundError when absent.
   */
  updateCallback(clientId: string, id: string, write: CallbackWrite): Promise<ExportRecord>;
}

export interface CallbackWrite {
  /**
   * The write applies only while the stored callback still has this state and attempt count; a null or
   * absent `callback` counts as `{ state: 'pending', attempts: 0 }`. Otherwise ConflictError.
   */
  readonly expected: { readonly state: CallbackStatus['state']; readonly attempts: number };
  readonly next: CallbackStatus;
}

export interface OutboxReader {
  /** Entries created before `olderThan` that are still waiting to be enqueued, oldest first. */
  pending(olderThan: string, limit: number): Promise<OutboxEntry[]>;
}

export interface FileRepository {
  create(file: FileRecord): Promise<void>;
  get(clientId: string, id: string): Promise<FileRecord | undefined>;
  markUploaded(clientId: string, id: string, sizeBytes: number, at: string): Promise<FileRecord>;
}

export type CallbackFailureReason =
  /** The receiver answered 410 Gone: it wants no more. */
  | 'gone'
  /** The callback URL is refused by the outbound guard (private address, bad scheme...). */
  | 'blocked'
  /** Another permanent outbound failure. */
  | 'outbound_error'
  /** The client has no usable signing secret. */
  | 'no_signing_secret'
  /** Every attempt of the schedule failed. */
  | 'exhausted';

/** What a failed delivery leaves for an operator: the event, why it failed, and how to replay it. */
export interface CallbackDeadLetter {
  readonly clientId: string;
  readonly exportId: string;
  readonly eventId: string;
  readonly reason: CallbackFailureReason;
  readonly attempts: number;
  readonly lastStatus: number | null;
  readonly failedAt: string;
  /** The body of the last attempt; null when none could be rendered (no signing secret). */
  readonly event: ExportEvent | null;
}

/** The service's queues. `delaySeconds` (at most 900, SQS's limit) postpones delivery. */
export interface WorkQueue {
  /** Rush and standard jobs go to separate queues so that rush work is served first. */
  sendJob(message: JobMessage, processingType: ProcessingType): Promise<void>;
  sendExport(message: ExportMessage, delaySeconds?: number): Promise<void>;
  sendCallback(message: CallbackMessage, delaySeconds: number): Promise<void>;
  /** Where finally failed callback events are kept for an operator (a dead-letter queue). */
  sendCallbackDeadLetter(letter: CallbackDeadLetter): Promise<void>;
}

export interface SignedUrl {
  readonly url: string;
  readonly expiresAt: string;
}

export interface DownloadResponse {
  readonly contentType?: string;
  readonly fileName?: string;
}

export interface WrittenObject {
  readonly sizeBytes: number;
  /** Hex SHA-256 of the bytes written. */
  readonly sha256: string;
}

export interface ObjectStore {
  presignUpload(
    key: string,
    contentType: string,
    expiresInSeconds: number,
    maxBytes: number,
  ): Promise<PresignedUpload>;
  /**
   * A GET URL for the object. `response` sets the Content-Type and an inline Content-Disposition (with
   * the file name) that the storage answers with, so a browser shows the object instead of saving it.
   */
  presignDownload(key: string, expiresInSeconds: number, response?: DownloadResponse): Promise<SignedUrl>;
  /** Size in bytes, or undefined when no object has that key. */
  size(key: string): Promise<number | undefined>;
  /**
   * Streams chunks into an object (a multipart upload: memory stays flat whatever the size), replacing
   * any object of that key.
   */
  write(key: string, body: AsyncIterable<Uint8Array | string>, contentType: string): Promise<WrittenObject>;
  /** The object's bytes as a stream; NotFoundError when there is none. */
  read(key: string): Promise<AsyncIterable<Uint8Array>>;
}

/** Where each kind of object lives in its bucket: always under its client's own prefix. */
export const objectKeys = {
  /** A client's uploaded source file (uploads bucket). */
  upload: (clientId: string, fileId: string): string => `uploads/${clientId}/${fileId}`,
  /** A job's catalog document, draft or final (catalogs bucket). */
  catalog: (clientId: string, jobId: string): string => `catalogs/${clientId}/${jobId}.json`,
  /** An export's file (exports bucket): the catalog document of SPEC 5.5. */
  exportFile: (clientId: string, exportId: string): string => `exports/${clientId}/${exportId}.json`,
  /** File `index` (1-based) of an export in another format (exports bucket). */
  exportPart: (clientId: string, exportId: string, index: number): string =>
    `exports/${clientId}/${exportId}/${index}`,
  /** Every change of a job's catalog since the merchant's previous one (catalogs bucket; catalog/changes.ts). */
  changes: (clientId: string, jobId: string): string => `changes/${clientId}/${jobId}.json`,
  /** Provenance and confidence of a job's drafted items, for review (catalogs bucket; use-cases/draft-review.ts). */
  draftReview: (clientId: string, jobId: string): string => `drafts/${clientId}/${jobId}.json`,
  /** The bytes of a job's URL source `index` as the worker read them, for review (catalogs bucket). */
  sourceCopy: (clientId: string, jobId: string, index: number): string =>
    `sources/${clientId}/${jobId}/${index}`,
} as const;

/**
 * Outbound HTTP: every request the service makes HTTP request goes through (catalog sources, images, callbacks): SPEC 8. The
 * adapter (lambdas/adapters/guarded-http.ts) resolves names, refuses internal addresses, pins the
 * connection to the checked address, re-checks redirects and enforces time and size limits.
 */

export interface OutboundRequest {
  readonly url: string;
  readonly method: 'GET' | 'POST' | 'HEAD';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** Whole request, connection to last byte. */
  readonly timeoutMs: number;
  /** The response body is cut off (OutboundTooLargeError) past this many bytes. */
  readonly maxBytes: number;
  /** At most 3 redirects are followed, each re-checked; callbacks follow none (SPEC 6). */
  readonly followRedirects: boolean;
}

export interface OutboundResponse {
  readonly status: number;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /** The URL finally answered (after redirects). */
  readonly url: string;
  /** The body as a stream of chunks; reading past maxBytes throws OutboundTooLargeError. */
  readonly body: AsyncIterable<Uint8Array>;
}

export interface OutboundHttp {
  request(request: OutboundRequest): Promise<OutboundResponse>;
}

export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  uuid(): string;
}

export interface ApiKeyRecord {
  readonly digest: string;
  readonly keyId: string;
  readonly clientId: string;
  readonly scope: Scope;
  readonly createdAt: string;
  readonly revokedAt: string | null;
  /** The client's usage-plan identifier, returned by the authorizer so that throttling is per client. */
  readonly usageKey: string;
}

export interface WebhookSecret {
  readonly secret: string;
  readonly createdAt: string;
  /** Set on the previous secret when a new one is issued: both sign until then (rotation). */
  readonly expiresAt: string | null;
}

export interface ClientRecord {
  readonly clientId: string;
  readonly createdAt: string;
  /** Not a secret: the value of the API Gateway API key that the usage plan throttles this client by. */
  readonly usageKey: string;
  /** Newest first. */
  readonly webhookSecrets: readonly WebhookSecret[];
}

export interface CredentialRepository {
  findKey(digest: string): Promise<ApiKeyRecord | undefined>;
  putKey(key: ApiKeyRecord): Promise<void>;
  listKeys(clientId?: string): Promise<ApiKeyRecord[]>;
  /** Throws NotFoundError for an unknown key. Revoking twice keeps the first time. */
  revokeKey(digest: string, at: string): Promise<ApiKeyRecord>;
  getClient(clientId: string): Promise<ClientRecord | undefined>;
  /** Creates the client if absent; returns the stored record either way. */
  ensureClient(client: ClientRecord): Promise<ClientRecord>;
  setWebhookSecrets(clientId: string, secrets: readonly WebhookSecret[]): Promise<void>;
}

/** What an idempotent create stores: the first response, replayed to repeats (SPEC 5.1). */
export interface StoredResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface IdempotencyRecord {
  readonly clientId: string;
  readonly key: string;
  readonly fingerprint: string;
  readonly state: 'in_progress' | 'completed';
  readonly response: StoredResponse | null;
  /** Epoch seconds after which the record no longer counts (checked in code; TTL deletes it later). */
  readonly expiresAt: number;
  /** Epoch seconds after which an in-progress record is considered abandoned (a crashed request). */
  readonly lockExpiresAt: number;
}

export interface IdempotencyStore {
  /** Writes the record unless a live one exists; returns the existing live record instead. */
  claim(record: IdempotencyRecord, nowSeconds: number): Promise<IdempotencyRecord | undefined>;
  complete(clientId: string, key: string, response: StoredResponse): Promise<void>;
  release(clientId: string, key: string): Promise<void>;
}
