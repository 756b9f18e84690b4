import { randomBytes } from 'node:crypto';
import type { CallbackMessage } from '../../lambdas/core/messages';
import { type ExportRecord, exportResource } from '../../lambdas/core/model';
import type { ClientRecord, WebhookSecret } from '../../lambdas/core/ports';
import {
  type CallbackDeps,
  deliverCallback,
  firstCallbackMessage,
  PENDING_CALLBACK,
} from '../../lambdas/core/use-cases/callbacks';
import { DEFAULT_RETRY_DELAYS, type ExportEvent } from '../../lambdas/core/webhooks';
import {
  FakeClock,
  FakeCredentialRepository,
  FakeExportRepository,
  FakeWorkQueue,
  type ScriptedAnswer,
  ScriptedHttp,
} from './fakes';

/** The export callbacks' use cases (lambdas/core/use-cases/callbacks.ts) over the in-memory fakes. */
export const CLIENT = 'acme';
export const aSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

export const anExport = (overrides: Partial<ExportRecord> = {}): ExportRecord => ({
  id: '5f0c2a4e-8d1b-4c7a-9e3f-2b6d8a1c4e70',
  clientId: CLIENT,
  jobId: '0a9b8c7d-6e5f-4a3b-8c1d-0e9f8a7b6c5d',
  jobType: 'new_menu',
  state: 'completed',
  version: 3,
  callbackUrl: 'https://receiver.example/hooks',
  clientMappings: { categories: {} },
  createdAt: '2025-03-01T10:00:00.000Z',
  updatedAt: '2025-03-01T10:05:00.000Z',
  completedAt: '2025-03-01T10:05:00.000Z',
  objectKey: 'exports/acme/5f0c.json',
  file: {
    content_type: 'application/json',
    size_bytes: 1234,
    checksum_sha256: 'cd'.repeat(32),
    item_count: 7,
  },
  callback: { ...PENDING_CALLBACK },
  error: null,
  ...overrides,
});

const aClient = (secrets: WebhookSecret[]): ClientRecord => ({
  clientId: CLIENT,
  createdAt: '2025-01-01T00:00:00.000Z',
  usageKey: 'usage_x',
  webhookSecrets: secrets,
});

interface Setup {
  exp?: ExportRecord;
  answers?: ScriptedAnswer[];
  fallback?: ScriptedAnswer;
  secrets?: WebhookSecret[] | null;
  retryDelays?: readonly number[];
  now?: Date;
}

export const setup = (options: Setup = {}) => {
  const secret = aSecret();
  const secrets =
    options.secrets === undefined
      ? [{ secret, createdAt: '2025-01-01T00:00:00.000Z', expiresAt: null }]
      : options.secrets;
  const exp = options.exp ?? anExport();
  const exports = new FakeExportRepository();
  exports.items.set(`${exp.clientId}/${exp.id}`, exp);
  const credentials = new FakeCredentialRepository();
  if (secrets) credentials.clients.set(CLIENT, aClient(secrets));
  const http = ScriptedHttp.of(options.answers ?? [], options.fallback);
  const queue = new FakeWorkQueue();
  // Near real time, so that the standardwebhooks verifier (which checks the timestamp) accepts the headers.
  const clock = new FakeClock(options.now ?? new Date(Math.floor(Date.now() / 1000) * 1000));
  let renders = 0;
  const deps: CallbackDeps = {
    exports,
    credentials,
    http,
    queue,
    clock,
    renderExport: async (exp) => {
      renders += 1;
      return exportResource(exp, {
        url: `https://bucket.example/${exp.objectKey}?sig=${renders}`,
        expiresAt: new Date(clock.now().getTime() + 3_600_000).toISOString(),
      });
    },
    retryDelays: options.retryDelays ?? DEFAULT_RETRY_DELAYS,
    random: () => 0.5,
  };
  return { deps, exports, http, queue, clock, secret };
};

export type Harness = ReturnType<typeof setup>;

/** The one export the harness holds, as stored now. */
export const stored = (h: Harness): ExportRecord => {
  const [exp] = h.exports.items.values();
  if (!exp) throw new Error('no export');
  return exp;
};

/** The bodies of the callbacks POSTed so far. */
export const bodies = (h: Harness): ExportEvent[] =>
  h.http.requests.map((r) => JSON.parse(String(r.body)) as ExportEvent);

export const header = (h: Harness, index: number, name: string): string => {
  const value = h.http.requests[index]?.headers?.[name];
  if (value === undefined) throw new Error(`request ${index} has no ${name}`);
  return value;
};

/** Plays the queue: each sent message is delivered once its SQS delay has passed on the fake clock. */
export const drain = async (h: Harness, first: CallbackMessage, maxSteps = 200) => {
  const outcomes = [await deliverCallback(h.deps, first)];
  for (let step = 0; h.queue.callbacks.length > 0; step += 1) {
    if (step >= maxSteps) throw new Error('the queue did not drain');
    const { message, delaySeconds } = h.queue.callbacks.shift()!;
    h.clock.advance(delaySeconds * 1000);
    outcomes.push(await deliverCallback(h.deps, message));
  }
  return outcomes;
};

export const first = (exp: ExportRecord = anExport()) => firstCallbackMessage(exp);
