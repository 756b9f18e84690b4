import { createHash, randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { ConflictError, DependencyUnavailableError, NotFoundError } from '../../lambdas/core/errors';
import type { CallbackMessage, ExportMessage, JobMessage } from '../../lambdas/core/messages';
import type { ExportRecord, FileRecord, JobRecord, PresignedUpload } from '../../lambdas/core/model';
import type {
  ApiKeyRecord,
  CallbackDeadLetter,
  CallbackWrite,
  ClientRecord,
  Clock,
  CredentialRepository,
  DownloadResponse,
  ExportRef,
  ExportRepository,
  FileRepository,
  IdempotencyRecord,
  IdempotencyStore,
  JobListQuery,
  JobRef,
  JobRepository,
  ObjectStore,
  OutboundHttp,
  OutboundRequest,
  OutboundResponse,
  OutboxEntry,
  OutboxReader,
  Page,
  SignedUrl,
  StoredResponse,
  Transition,
  WebhookSecret,
  WorkQueue,
  WrittenObject,
} from '../../lambdas/core/ports';
import type { ProcessingType } from '../../lambdas/core/schemas/job';
import {
  EXPORT_TRANSITIONS,
  type ExportStateEvent,
  isTerminalJobState,
  JOB_TRANSITIONS,
  type JobStateEvent,
  type Move,
} from '../../lambdas/core/states';
import { DEFAULT_JOB_SETTINGS } from '../../lambdas/core/use-cases/jobs';
import type { AppDeps } from '../../lambdas/shared/deps';
import { TEST_EPOCH } from './factories';

/**
 * In-memory implementations of the ports, with the same observable behaviour as the adapters: each runs the
 * contract suite of its port next to its adapter against the emulators (test/integration/*-contract.test.ts).
 */

const clone = <T>(value: T): T => structuredClone(value);

/** The move of a transitions table, refused exactly as the DynamoDB adapter's condition refuses it. */
const applyTransition = <S extends string, R extends { state: S; version: number; updatedAt: string }>(
  current: R | undefined,
  move: Move<S>,
  t: Transition<string, R>,
): R => {
  if (!current) throw new NotFoundError('no such record');
  const versionHolds = t.expectedVersion === undefined || current.version === t.expectedVersion;
  if (!move.from.includes(current.state) || !versionHolds) {
    throw new ConflictError(`${t.event} was refused: the record is ${current.state}`, {
      current: clone(current),
    });
  }
  const set = Object.fromEntries(Object.entries(t.set ?? {}).filter(([, v]) => v !== undefined));
  return { ...current, ...set, state: move.to, version: current.version + 1, updatedAt: t.at };
};

const pageOf = <T extends { id: string }>(all: T[], limit: number, cursor?: string): Page<T> => {
  const start = cursor ? all.findIndex((item) => item.id === cursor) + 1 : 0;
  const items = all.slice(start, start + limit);
  return { items: items.map(clone), nextCursor: start + limit < all.length ? items.at(-1)!.id : null };
};

export class FakeJobRepository implements JobRepository {
  readonly items = new Map<string, JobRecord>();
  /** Jobs written but not yet confirmed on their queue: until marked, or until a transition moves them on. */
  readonly outbox = new Set<string>();
  private key = (clientId: string, id: string) => `${clientId}/${id}`;

  async create(job: JobRecord): Promise<void> {
    const key = this.key(job.clientId, job.id);
    if (this.items.has(key)) throw new ConflictError('exists', { current: clone(this.items.get(key)) });
    this.items.set(key, clone(job));
    this.outbox.add(key);
  }
  async get(clientId: string, id: string): Promise<JobRecord | undefined> {
    const job = this.items.get(this.key(clientId, id));
    return job && clone(job);
  }
  async list(clientId: string, query: JobListQuery): Promise<Page<JobRecord>> {
    const all = [...this.items.values()]
      .filter((j) => j.clientId === clientId)
      .sort((a, b) => `${b.createdAt}#${b.id}`.localeCompare(`${a.createdAt}#${a.id}`))
      .filter((j) => !query.state || j.state === query.state)
      .filter((j) => !query.jobType || j.jobType === query.jobType);
    return pageOf(all, query.limit, query.cursor);
  }
  async transition(
    clientId: string,
    id: string,
    t: Transition<JobStateEvent, JobRecord>,
  ): Promise<JobRecord> {
    const key = this.key(clientId, id);
    const next = applyTransition(this.items.get(key), JOB_TRANSITIONS[t.event], t);
    this.items.set(key, next);
    this.outbox.delete(key);
    return clone(next);
  }
  async markEnqueued(clientId: string, id: string): Promise<void> {
    this.outbox.delete(this.key(clientId, id));
  }
  async listForReview(limit: number, cursor?: string): Promise<Page<JobRecord>> {
    const rank = (j: JobRecord) => `${j.processingType === 'rush' ? 0 : 1}#${j.dueAt}#${j.id}`;
    const all = [...this.items.values()]
      .filter((j) => j.state === 'in_review')
      .sort((a, b) => rank(a).localeCompare(rank(b)));
    return pageOf(all, limit, cursor);
  }
  async listOverdue(dueBefore: string, limit: number): Promise<JobRef[]> {
    return [...this.items.entries()]
      .filter(([key, j]) => !this.outbox.has(key) && !isTerminalJobState(j.state) && j.dueAt < dueBefore)
      .map(([, j]) => ({ clientId: j.clientId, id: j.id, dueAt: j.dueAt }))
      .sort((a, b) => a.dueAt.localeCompare(b.dueAt) || a.id.localeCompare(b.id))
      .slice(0, limit);
  }
  async findById(id: string): Promise<JobRecord | undefined> {
    const job = [...this.items.values()].find((j) => j.id === id);
    return job && clone(job);
  }
  async findPreviousCompleted(
    clientId: string,
    jobType: JobRecord['jobType'],
    merchantToken: string,
    exceptId: string,
  ): Promise<JobRecord | undefined> {
    const job = [...this.items.values()]
      .filter(
        (j) =>
          j.clientId === clientId &&
          j.jobType === jobType &&
          j.jobData.merchant_token === merchantToken &&
          j.state === 'completed' &&
          j.id !== exceptId,
      )
      // As the index: by when the job moved to completed (the transition's time, its updatedAt since).
      .sort((a, b) => `${b.updatedAt}#${b.id}`.localeCompare(`${a.updatedAt}#${a.id}`))[0];
    return job && clone(job);
  }
  async deleteUnenqueued(clientId: string, id: string): Promise<boolean> {
    const key = this.key(clientId, id);
    if (!this.outbox.has(key) || this.items.get(key)?.version !== 1) return false;
    this.items.delete(key);
    this.outbox.delete(key);
    return true;
  }
}

export class FakeExportRepository implements ExportRepository {
  readonly items = new Map<string, ExportRecord>();
  readonly outbox = new Set<string>();
  private key = (clientId: string, id: string) => `${clientId}/${id}`;

  async create(exp: ExportRecord): Promise<void> {
    const key = this.key(exp.clientId, exp.id);
    if (this.items.has(key)) throw new ConflictError('exists', { current: clone(this.items.get(key)) });
    this.items.set(key, clone(exp));
    this.outbox.add(key);
  }
  async get(clientId: string, id: string): Promise<ExportRecord | undefined> {
    const exp = this.items.get(this.key(clientId, id));
    return exp && clone(exp);
  }
  async listForJob(clientId: string, jobId: string): Promise<ExportRef[]> {
    return [...this.items.values()]
      .filter((e) => e.clientId === clientId && e.jobId === jobId)
      .sort((a, b) => `${a.createdAt}#${a.id}`.localeCompare(`${b.createdAt}#${b.id}`))
      .map((e) => ({ clientId: e.clientId, id: e.id, state: e.state }));
  }
  async transition(
    clientId: string,
    id: string,
    t: Transition<ExportStateEvent, ExportRecord>,
  ): Promise<ExportRecord> {
    const next = applyTransition(this.items.get(this.key(clientId, id)), EXPORT_TRANSITIONS[t.event], t);
    this.items.set(this.key(clientId, id), next);
    return clone(next);
  }
  async markEnqueued(clientId: string, id: string): Promise<void> {
    this.outbox.delete(this.key(clientId, id));
  }
  async updateCallback(clientId: string, id: string, write: CallbackWrite): Promise<ExportRecord> {
    const exp = this.items.get(this.key(clientId, id));
    if (!exp) throw new NotFoundError('no such export');
    const current = exp.callback ?? { state: 'pending', attempts: 0 };
    if (current.state !== write.expected.state || current.attempts !== write.expected.attempts) {
      throw new ConflictError('callback changed', { current: clone(exp) });
    }
    const next = { ...exp, callback: write.next };
    this.items.set(this.key(clientId, id), next);
    return clone(next);
  }
  async findById(id: string): Promise<ExportRecord | undefined> {
    const exp = [...this.items.values()].find((e) => e.id === id);
    return exp && clone(exp);
  }
  async deleteUnenqueued(clientId: string, id: string): Promise<boolean> {
    const key = this.key(clientId, id);
    if (!this.outbox.has(key) || this.items.get(key)?.version !== 1) return false;
    this.items.delete(key);
    this.outbox.delete(key);
    return true;
  }
}

export class FakeOutboxReader implements OutboxReader {
  constructor(
    private readonly jobs: FakeJobRepository,
    private readonly exports: FakeExportRepository,
  ) {}
  async pending(olderThan: string, limit: number): Promise<OutboxEntry[]> {
    const entry =
      (kind: 'job' | 'export') =>
      (r: { clientId: string; id: string; createdAt: string }): OutboxEntry => ({
        kind,
        clientId: r.clientId,
        id: r.id,
        createdAt: r.createdAt,
      });
    const order = (e: OutboxEntry) => `${e.createdAt}#${e.kind}#${e.clientId}#${e.id}`;
    return [
      ...[...this.jobs.outbox].map((k) => entry('job')(this.jobs.items.get(k)!)),
      ...[...this.exports.outbox].map((k) => entry('export')(this.exports.items.get(k)!)),
    ]
      .filter((e) => e.createdAt < olderThan)
      .sort((a, b) => order(a).localeCompare(order(b)))
      .slice(0, limit);
  }
}

export class FakeFileRepository implements FileRepository {
  readonly items = new Map<string, FileRecord>();
  async create(file: FileRecord): Promise<void> {
    const key = `${file.clientId}/${file.id}`;
    if (this.items.has(key)) throw new ConflictError('exists', { current: clone(this.items.get(key)) });
    this.items.set(key, clone(file));
  }
  async get(clientId: string, id: string): Promise<FileRecord | undefined> {
    const file = this.items.get(`${clientId}/${id}`);
    return file && clone(file);
  }
  /** Marks a pending file; a file already marked is returned as it is (another reader marked it). */
  async markUploaded(clientId: string, id: string, sizeBytes: number, at: string): Promise<FileRecord> {
    const file = this.items.get(`${clientId}/${id}`);
    if (!file) throw new NotFoundError('no such file');
    if (file.state !== 'pending') return clone(file);
    const next: FileRecord = { ...file, state: 'uploaded', sizeBytes, updatedAt: at };
    this.items.set(`${clientId}/${id}`, next);
    return clone(next);
  }
}

export class FakeCredentialRepository implements CredentialRepository {
  readonly keys = new Map<string, ApiKeyRecord>();
  readonly clients = new Map<string, ClientRecord>();
  async findKey(digest: string): Promise<ApiKeyRecord | undefined> {
    const key = this.keys.get(digest);
    return key && clone(key);
  }
  async putKey(key: ApiKeyRecord): Promise<void> {
    this.keys.set(key.digest, clone(key));
  }
  /** By client, then by creation time (the adapter's index order). */
  async listKeys(clientId?: string): Promise<ApiKeyRecord[]> {
    const order = (k: ApiKeyRecord) => `${k.clientId}#${k.createdAt}#${k.keyId}`;
    return [...this.keys.values()]
      .filter((k) => !clientId || k.clientId === clientId)
      .sort((a, b) => order(a).localeCompare(order(b)))
      .map(clone);
  }
  async revokeKey(digest: string, at: string): Promise<ApiKeyRecord> {
    const key = this.keys.get(digest);
    if (!key) throw new NotFoundError('no such key');
    const next = { ...key, revokedAt: key.revokedAt ?? at };
    this.keys.set(digest, next);
    return clone(next);
  }
  async getClient(clientId: string): Promise<ClientRecord | undefined> {
    const client = this.clients.get(clientId);
    return client && clone(client);
  }
  async ensureClient(client: ClientRecord): Promise<ClientRecord> {
    const existing = this.clients.get(client.clientId);
    if (existing) return clone(existing);
    this.clients.set(client.clientId, clone(client));
    return clone(client);
  }
  async setWebhookSecrets(clientId: string, secrets: readonly WebhookSecret[]): Promise<void> {
    const client = this.clients.get(clientId);
    if (!client) throw new NotFoundError(`No client has the id ${clientId}.`);
    this.clients.set(clientId, { ...client, webhookSecrets: clone(secrets) });
  }
}

export class FakeIdempotencyStore implements IdempotencyStore {
  readonly records = new Map<string, IdempotencyRecord>();
  async claim(record: IdempotencyRecord, nowSeconds: number): Promise<IdempotencyRecord | undefined> {
    const key = `${record.clientId}/${record.key}`;
    const existing = this.records.get(key);
    const live =
      existing &&
      existing.expiresAt >= nowSeconds &&
      !(existing.state === 'in_progress' && existing.lockExpiresAt < nowSeconds);
    if (live) return clone(existing);
    this.records.set(key, clone(record));
    return undefined;
  }
  async complete(clientId: string, key: string, response: StoredResponse): Promise<void> {
    const existing = this.records.get(`${clientId}/${key}`);
    if (!existing) return;
    this.records.set(`${clientId}/${key}`, { ...existing, state: 'completed', response: clone(response) });
  }
  async release(clientId: string, key: string): Promise<void> {
    this.records.delete(`${clientId}/${key}`);
  }
}

/** Every queue of the service, recorded. `failNext` makes the next sends fail as an SQS outage does. */
export class FakeWorkQueue implements WorkQueue {
  readonly jobs: { message: JobMessage; processingType: ProcessingType }[] = [];
  readonly exports: ExportMessage[] = [];
  readonly exportDelays: (number | undefined)[] = [];
  readonly callbacks: { message: CallbackMessage; delaySeconds: number }[] = [];
  readonly deadLetters: CallbackDeadLetter[] = [];
  failNext = 0;
  async sendJob(message: JobMessage, processingType: ProcessingType): Promise<void> {
    this.maybeFail();
    this.jobs.push({ message: clone(message), processingType });
  }
  async sendExport(message: ExportMessage, delaySeconds?: number): Promise<void> {
    this.maybeFail();
    this.exports.push(clone(message));
    this.exportDelays.push(delaySeconds);
  }
  async sendCallback(message: CallbackMessage, delaySeconds: number): Promise<void> {
    this.maybeFail();
    this.callbacks.push({ message: clone(message), delaySeconds });
  }
  async sendCallbackDeadLetter(letter: CallbackDeadLetter): Promise<void> {
    this.maybeFail();
    this.deadLetters.push(clone(letter));
  }
  private maybeFail(): void {
    if (this.failNext > 0) {
      this.failNext--;
      throw new DependencyUnavailableError('enqueue: the queue is unavailable');
    }
  }
}

export class FakeObjectStore implements ObjectStore {
  readonly objects = new Map<string, Buffer>();
  constructor(
    private readonly clock: Clock,
    private readonly name = 'bucket',
  ) {}
  private signed(key: string, verb: string, seconds: number): SignedUrl {
    return {
      url: `https://${this.name}.example.test/${key}?verb=${verb}&sig=${randomUUID()}`,
      expiresAt: new Date(this.clock.now().getTime() + seconds * 1000).toISOString(),
    };
  }
  async presignUpload(
    key: string,
    contentType: string,
    seconds: number,
    maxBytes: number,
  ): Promise<PresignedUpload> {
    const { url, expiresAt } = this.signed('', 'post', seconds);
    const putUrl = this.signed(key, 'put', seconds).url;
    return {
      putUrl,
      url,
      fields: { key, 'Content-Type': contentType, Policy: randomUUID() },
      maxBytes,
      expiresAt,
    };
  }
  async presignDownload(key: string, seconds: number, response?: DownloadResponse): Promise<SignedUrl> {
    const signed = this.signed(key, 'get', seconds);
    if (!response?.contentType) return signed;
    return {
      ...signed,
      url: `${signed.url}&response-content-type=${encodeURIComponent(response.contentType)}`,
    };
  }
  async size(key: string): Promise<number | undefined> {
    return this.objects.get(key)?.length;
  }
  async write(key: string, body: AsyncIterable<Uint8Array | string>): Promise<WrittenObject> {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(Buffer.from(chunk));
    const bytes = Buffer.concat(chunks);
    this.objects.set(key, bytes);
    return { sizeBytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }
  async read(key: string): Promise<AsyncIterable<Uint8Array>> {
    const bytes = this.objects.get(key);
    if (!bytes) throw new NotFoundError(`no object ${key}`);
    return (async function* () {
      yield bytes;
    })();
  }
}

/** What ScriptedHttp answers: a response, or an error the request throws. */
export type ScriptedAnswer = { status: number; headers?: Record<string, string>; body?: string } | Error;

/** Outbound HTTP that answers from a function and records every request. */
export class ScriptedHttp implements OutboundHttp {
  readonly requests: OutboundRequest[] = [];
  constructor(
    private readonly answer: (request: OutboundRequest) => ScriptedAnswer = () => ({ status: 404 }),
  ) {}

  /** Answers `answers` in order, then `fallback` to every further request. */
  static of(answers: readonly ScriptedAnswer[], fallback: ScriptedAnswer = { status: 200 }): ScriptedHttp {
    const queue = [...answers];
    return new ScriptedHttp(() => queue.shift() ?? fallback);
  }

  async request(request: OutboundRequest): Promise<OutboundResponse> {
    this.requests.push(request);
    const answer = this.answer(request);
    if (answer instanceof Error) throw answer;
    const body = Buffer.from(answer.body ?? '');
    // Header names lower-cased, as the port promises.
    const headers = Object.fromEntries(
      Object.entries(answer.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
    );
    return {
      status: answer.status,
      headers,
      url: request.url,
      body: (async function* () {
        yield body;
      })(),
    };
  }
}

/** The one fake clock: it moves only when told to, by milliseconds. */
export class FakeClock implements Clock {
  constructor(private current = new Date(TEST_EPOCH)) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export type FakeDeps = AppDeps & {
  jobs: FakeJobRepository;
  exports: FakeExportRepository;
  files: FakeFileRepository;
  credentials: FakeCredentialRepository;
  idempotency: FakeIdempotencyStore;
  queue: FakeWorkQueue;
  uploads: FakeObjectStore;
  catalogs: FakeObjectStore;
  exportFiles: FakeObjectStore;
  http: ScriptedHttp;
  clock: FakeClock;
};

export const silentLogger = (): Logger => new Logger({ serviceName: 'test', logLevel: 'SILENT' });

/** Fresh in-memory dependencies for one test. */
export const fakeDeps = (overrides: Partial<AppDeps> = {}): FakeDeps => {
  const clock = new FakeClock();
  const jobs = new FakeJobRepository();
  const exports = new FakeExportRepository();
  return {
    jobs,
    exports,
    files: new FakeFileRepository(),
    credentials: new FakeCredentialRepository(),
    idempotency: new FakeIdempotencyStore(),
    outbox: new FakeOutboxReader(jobs, exports),
    queue: new FakeWorkQueue(),
    uploads: new FakeObjectStore(clock, 'uploads'),
    catalogs: new FakeObjectStore(clock, 'catalogs'),
    exportFiles: new FakeObjectStore(clock, 'exports'),
    http: new ScriptedHttp(),
    retryDelays: [1, 2, 3],
    clock,
    ids: { uuid: () => randomUUID() },
    logger: silentLogger(),
    metrics: new Metrics({ serviceName: 'test', namespace: 'Test' }),
    jobSettings: DEFAULT_JOB_SETTINGS,
    allowHttpCallbacks: false,
    allowLoopbackUrls: false,
    ...overrides,
  } as FakeDeps;
};
