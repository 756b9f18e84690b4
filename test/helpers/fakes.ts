import { createHash, randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { ConflictError, NotFoundError } from '../../lambdas/core/errors';
import type { ExportRecord, FileRecord, JobRecord } from '../../lambdas/core/model';
import type { OutboundHttp, OutboundRequest, OutboundResponse } from '../../lambdas/core/outbound';
import type {
  ApiKeyRecord,
  ClientRecord,
  Clock,
  CredentialRepository,
  DownloadResponse,
  ExportMessage,
  ExportRepository,
  FileRepository,
  IdempotencyRecord,
  IdempotencyStore,
  JobListQuery,
  JobMessage,
  JobRepository,
  ObjectStore,
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
import type {
  CallbackDeadLetter,
  CallbackExportStore,
  CallbackMessage,
  CallbackWrite,
} from '../../lambdas/core/use-cases/callbacks';
import { DEFAULT_JOB_SETTINGS } from '../../lambdas/core/use-cases/jobs';
import type { AppDeps } from '../../lambdas/shared/deps';

/**
 * In-memory implementations of the ports, with the same observable behaviour as the DynamoDB adapters
 * (test/integration/repository-contract.test.ts runs one suite against both).
 */

const clone = <T>(value: T): T => structuredClone(value);

const applyTransition = <S extends string, R extends { state: S; version: number; updatedAt: string }>(
  current: R | undefined,
  t: Transition<S, R>,
): R => {
  if (!current) throw new NotFoundError('no such record');
  if (!t.from.includes(current.state)) throw new ConflictError('state changed');
  if (t.expectedVersion !== undefined && current.version !== t.expectedVersion)
    throw new ConflictError('version changed');
  const set = Object.fromEntries(Object.entries(t.set ?? {}).filter(([, v]) => v !== undefined));
  return { ...current, ...set, state: t.to, version: current.version + 1, updatedAt: t.at };
};

export class FakeJobRepository implements JobRepository {
  readonly items = new Map<string, JobRecord>();
  readonly outbox = new Set<string>();
  private key = (clientId: string, id: string) => `${clientId}/${id}`;

  async create(job: JobRecord): Promise<void> {
    const key = this.key(job.clientId, job.id);
    if (this.items.has(key)) throw new ConflictError('exists');
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
    const start = query.cursor ? all.findIndex((j) => j.id === query.cursor) + 1 : 0;
    const items = all.slice(start, start + query.limit);
    const more = start + query.limit < all.length;
    return { items: items.map(clone), nextCursor: more ? items.at(-1)!.id : null };
  }
  async transition(
    clientId: string,
    id: string,
    t: Transition<JobRecord['state'], JobRecord>,
  ): Promise<JobRecord> {
    const next = applyTransition(this.items.get(this.key(clientId, id)), t);
    this.items.set(this.key(clientId, id), next);
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
    const start = cursor ? all.findIndex((j) => j.id === cursor) + 1 : 0;
    const items = all.slice(start, start + limit);
    return { items: items.map(clone), nextCursor: start + limit < all.length ? items.at(-1)!.id : null };
  }
  async listOverdue(dueBefore: string, limit: number): Promise<JobRecord[]> {
    return [...this.items.values()]
      .filter((j) => !['completed', 'failed', 'canceled'].includes(j.state) && j.dueAt < dueBefore)
      .sort((a, b) => a.dueAt.localeCompare(b.dueAt))
      .slice(0, limit)
      .map(clone);
  }
  async findById(id: string): Promise<JobRecord | undefined> {
    const job = [...this.items.values()].find((j) => j.id === id);
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

export class FakeExportRepository implements ExportRepository, CallbackExportStore {
  readonly items = new Map<string, ExportRecord>();
  readonly outbox = new Set<string>();
  private key = (clientId: string, id: string) => `${clientId}/${id}`;

  async create(exp: ExportRecord): Promise<void> {
    this.items.set(this.key(exp.clientId, exp.id), clone(exp));
    this.outbox.add(this.key(exp.clientId, exp.id));
  }
  async get(clientId: string, id: string): Promise<ExportRecord | undefined> {
    const exp = this.items.get(this.key(clientId, id));
    return exp && clone(exp);
  }
  async listForJob(clientId: string, jobId: string): Promise<ExportRecord[]> {
    return [...this.items.values()].filter((e) => e.clientId === clientId && e.jobId === jobId).map(clone);
  }
  async transition(
    clientId: string,
    id: string,
    t: Transition<ExportRecord['state'], ExportRecord>,
  ): Promise<ExportRecord> {
    const next = applyTransition(this.items.get(this.key(clientId, id)), t);
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
      throw new ConflictError('callback changed');
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
    if (!this.outbox.has(key)) return false;
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
    const entries: OutboxEntry[] = [
      ...[...this.jobs.outbox]
        .map((k) => this.jobs.items.get(k)!)
        .map((j) => ({ kind: 'job' as const, ...j })),
      ...[...this.exports.outbox]
        .map((k) => this.exports.items.get(k)!)
        .map((e) => ({ kind: 'export' as const, ...e })),
    ]
      .filter((r) => r.createdAt < olderThan)
      .map((r) => ({ kind: r.kind, clientId: r.clientId, id: r.id, createdAt: r.createdAt }));
    return entries.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).slice(0, limit);
  }
}

export class FakeFileRepository implements FileRepository {
  readonly items = new Map<string, FileRecord>();
  async create(file: FileRecord): Promise<void> {
    this.items.set(`${file.clientId}/${file.id}`, clone(file));
  }
  async get(clientId: string, id: string): Promise<FileRecord | undefined> {
    const file = this.items.get(`${clientId}/${id}`);
    return file && clone(file);
  }
  async markUploaded(clientId: string, id: string, sizeBytes: number, at: string): Promise<FileRecord> {
    const file = this.items.get(`${clientId}/${id}`);
    if (!file) throw new NotFoundError('no such file');
    const next: FileRecord = { ...file, state: 'uploaded', sizeBytes, updatedAt: at };
    this.items.set(`${clientId}/${id}`, next);
    return clone(next);
  }
}

export class FakeCredentialRepository implements CredentialRepository {
  readonly keys = new Map<string, ApiKeyRecord>();
  readonly clients = new Map<string, ClientRecord>();
  async findKey(digest: string): Promise<ApiKeyRecord | undefined> {
    return this.keys.get(digest);
  }
  async putKey(key: ApiKeyRecord): Promise<void> {
    this.keys.set(key.digest, key);
  }
  async listKeys(clientId?: string): Promise<ApiKeyRecord[]> {
    return [...this.keys.values()].filter((k) => !clientId || k.clientId === clientId);
  }
  async revokeKey(digest: string, at: string): Promise<ApiKeyRecord> {
    const key = this.keys.get(digest);
    if (!key) throw new NotFoundError('no such key');
    const next = { ...key, revokedAt: key.revokedAt ?? at };
    this.keys.set(digest, next);
    return next;
  }
  async getClient(clientId: string): Promise<ClientRecord | undefined> {
    return this.clients.get(clientId);
  }
  async ensureClient(client: ClientRecord): Promise<ClientRecord> {
    const existing = this.clients.get(client.clientId);
    if (existing) return existing;
    this.clients.set(client.clientId, client);
    return client;
  }
  async setWebhookSecrets(clientId: string, secrets: readonly WebhookSecret[]): Promise<void> {
    const client = this.clients.get(clientId);
    if (!client) throw new NotFoundError('no such client');
    this.clients.set(clientId, { ...client, webhookSecrets: secrets });
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
    if (live) return existing;
    this.records.set(key, record);
    return undefined;
  }
  async complete(clientId: string, key: string, response: StoredResponse): Promise<void> {
    const existing = this.records.get(`${clientId}/${key}`)!;
    this.records.set(`${clientId}/${key}`, { ...existing, state: 'completed', response });
  }
  async release(clientId: string, key: string): Promise<void> {
    this.records.delete(`${clientId}/${key}`);
  }
}

export class FakeWorkQueue implements WorkQueue {
  readonly jobs: { message: JobMessage; processingType: ProcessingType }[] = [];
  readonly exports: ExportMessage[] = [];
  readonly exportDelays: (number | undefined)[] = [];
  readonly callbacks: { message: CallbackMessage; delaySeconds: number }[] = [];
  readonly deadLetters: CallbackDeadLetter[] = [];
  failNext = 0;
  async sendCallback(message: CallbackMessage, delaySeconds: number): Promise<void> {
    this.maybeFail();
    this.callbacks.push({ message, delaySeconds });
  }
  async put(letter: CallbackDeadLetter): Promise<void> {
    this.deadLetters.push(letter);
  }
  async sendJob(message: JobMessage, processingType: ProcessingType): Promise<void> {
    this.maybeFail();
    this.jobs.push({ message, processingType });
  }
  async sendExport(message: ExportMessage, delaySeconds?: number): Promise<void> {
    this.maybeFail();
    this.exports.push(message);
    this.exportDelays.push(delaySeconds);
  }
  private maybeFail(): void {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('queue unavailable');
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
  async presignUpload(key: string, _contentType: string, seconds: number): Promise<SignedUrl> {
    return this.signed(key, 'put', seconds);
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
    for await (const chunk of body)
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
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

/** Outbound HTTP that answers from a function and records every request. */
export class ScriptedHttp implements OutboundHttp {
  readonly requests: OutboundRequest[] = [];
  constructor(
    private readonly answer: (request: OutboundRequest) => { status: number; body?: string } = () => ({
      status: 404,
    }),
  ) {}
  async request(request: OutboundRequest): Promise<OutboundResponse> {
    this.requests.push(request);
    const { status, body = '' } = this.answer(request);
    return {
      status,
      headers: {},
      url: request.url,
      body: (async function* () {
        yield Buffer.from(body);
      })(),
    };
  }
}

/** A clock that only moves when told to. */
export class FakeClock implements Clock {
  constructor(private current = new Date('2026-11-22T10:00:00.000Z')) {}
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
  callbackQueue: FakeWorkQueue;
  deadLetters: FakeWorkQueue;
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
  const queue = new FakeWorkQueue();
  return {
    jobs,
    exports,
    files: new FakeFileRepository(),
    credentials: new FakeCredentialRepository(),
    idempotency: new FakeIdempotencyStore(),
    outbox: new FakeOutboxReader(jobs, exports),
    queue,
    callbackQueue: queue,
    deadLetters: queue,
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
