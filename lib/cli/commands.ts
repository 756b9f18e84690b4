import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ValidationError } from '../../lambdas/core/errors';
import { createJobRequestSchema } from '../../lambdas/core/schemas/job';
import { parseOrThrow } from '../../lambdas/core/validation';
import { type ApiClient, type ApiResponse, type Fetch, type ProblemBody, retryAfterSeconds } from './api';
import { type CatalogLike, catalogTable } from './catalog-table';
import {
  formatBytes,
  formatFailure,
  formatWarnings,
  type Output,
  type Progress,
  printJson,
  spinnerFrame,
  type WarningLike,
} from './output';
import { CliError, download, mediaTypeOf, uploadFile } from './transfer';

/** What every command gets: the API client, where to write, and the clock. */
export interface CommandContext {
  readonly api: ApiClient;
  readonly fetch: Fetch;
  readonly out: Output;
  readonly progress: Progress;
  readonly cwd: string;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;
}

export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/**
 * Exit codes: 0 done; 1 the service refused or could not be reached; 2 usage; 3 the job or export failed;
 * 4 still not finished when --timeout ran out (it goes on: wait again with `jobs get <id> --wait`).
 */
export const EXIT = { ok: 0, error: 1, usage: 2, failed: 3, timeout: 4 } as const;

const JOB_TYPES = ['new_menu', 'new_retail_catalog', 'retail_image_mapping'] as const;
const JOB_TERMINAL = new Set(['completed', 'failed', 'canceled']);
const EXPORT_TERMINAL = new Set(['completed', 'failed']);
/**
 * Polling: the first poll after 200 ms, each next one 1.5 times later, never later than the answer's
 * Retry-After (an upper bound: a job done in 50 ms is seen done in 200, not in the 5 s the service suggests)
 * nor, without one, than MAX_POLL_MS.
 */
const FIRST_POLL_MS = 200;
const POLL_GROWTH = 1.5;
const MAX_POLL_MS = 5_000;
/** --timeout's default: a job in review waits for a person, and may take hours. */
export const DEFAULT_TIMEOUT_SECONDS = 600;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Job {
  readonly id: string;
  readonly state: string;
  readonly error?: ProblemBody | null;
  readonly results?: { readonly warnings?: readonly WarningLike[]; readonly warning_count?: number };
}

interface DataExport {
  readonly id: string;
  readonly state: string;
  readonly delivery_url: string | null;
  readonly file: { size_bytes: number; checksum_sha256: string; item_count: number } | null;
  readonly error?: ProblemBody | null;
}

const str = (values: OptionValues, name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};
const list = (values: OptionValues, name: string): string[] => {
  const value = values[name];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
};
const flag = (values: OptionValues, name: string): boolean => values[name] === true;

const required = (values: OptionValues, name: string): string => {
  const value = str(values, name);
  if (value === undefined || value === '') throw new CliError(`--${name} is required`, EXIT.usage);
  return value;
};

const seconds = (values: OptionValues, name: string): number | undefined => {
  const value = str(values, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new CliError(`--${name} must be a whole number of seconds`, EXIT.usage);
  }
  return Number(value);
};

const idPath = (collection: string, id: string): string => `/v1/${collection}/${encodeURIComponent(id)}`;

const shortId = (id: string): string => id.slice(0, 8);

/**
 * Polls `path` until the resource is in a terminal state, with backoff (FIRST_POLL_MS growing to the answer's
 * Retry-After), showing the state of the last answer on stderr, and gives up after `timeoutSeconds` with
 * EXIT.timeout (the job or export goes on).
 */
const waitForTerminal = async <T extends { id: string; state: string }>(
  ctx: CommandContext,
  what: string,
  pathname: string,
  terminal: ReadonlySet<string>,
  timeoutSeconds: number,
  onState?: (current: T) => void,
): Promise<T> => {
  const started = ctx.now();
  const deadline = started + timeoutSeconds * 1000;
  let tick = 0;
  let interval = FIRST_POLL_MS;
  let reviewNoted = false;
  let lastState = '';
  for (;;) {
    const response: ApiResponse<T> = await ctx.api.get<T>(pathname);
    const current = response.body;
    if (current.state !== lastState) onState?.(current);
    lastState = current.state;
    if (terminal.has(current.state)) {
      ctx.progress.note(`${what} ${shortId(current.id)}: ${current.state} (${elapsed(ctx, started)})`);
      return current;
    }
    if (current.state === 'in_review' && !reviewNoted) {
      reviewNoted = true;
      ctx.progress.note(
        `${what} ${shortId(current.id)} is in review: a person of the operations team finishes it; still ` +
          `waiting, up to --timeout (${timeoutSeconds}s; Ctrl-C stops waiting, not the job)`,
      );
    }
    const ceiling = (retryAfterSeconds(response.headers) ?? MAX_POLL_MS / 1000) * 1000;
    const wait = Math.min(interval, ceiling);
    interval = Math.min(interval * POLL_GROWTH, MAX_POLL_MS);
    if (ctx.now() + wait > deadline) {
      ctx.progress.clear();
      throw new CliError(
        `${what} ${current.id} is still ${current.state} after ${timeoutSeconds}s (--timeout); it goes on`,
        EXIT.timeout,
      );
    }
    const status = `${what} ${shortId(current.id)}: ${current.state}`;
    ctx.progress.update(
      ctx.out.interactive ? `${spinnerFrame(tick++)} ${status} (${elapsed(ctx, started)})` : status,
    );
    await ctx.sleep(wait);
  }
};

const elapsed = (ctx: CommandContext, started: number): string =>
  `${Math.round((ctx.now() - started) / 1000)}s`;

/** What a --source is: a local file to upload, or what goes into catalog_sources as it is. */
type SourceArg =
  | { readonly kind: 'file'; readonly path: string; readonly name: string }
  | { readonly kind: 'as-is'; readonly value: string };

/** Local paths are uploaded; http(s) URLs and ids of uploaded files are passed as they are. */
const classifySources = (ctx: CommandContext, sources: readonly string[]): SourceArg[] =>
  sources.map((source): SourceArg => {
    if (/^https?:\/\//i.test(source)) return { kind: 'as-is', value: source };
    const local = path.resolve(ctx.cwd, source);
    if (existsSync(local) && statSync(local).isFile()) return { kind: 'file', path: local, name: source };
    if (UUID.test(source)) return { kind: 'as-is', value: source };
    throw new CliError(
      `--source ${source}: no such file, and not an http(s) URL or the id of an uploaded file`,
      EXIT.usage,
    );
  });

/** Uploads a local file with its bytes counted on stderr; resolves to the file's id. */
const uploadWithProgress = async (ctx: CommandContext, local: string, name: string, contentType?: string) => {
  const started = ctx.now();
  const file = await uploadFile(ctx.api, ctx.fetch, local, contentType ?? mediaTypeOf(local), (sent, total) =>
    ctx.progress.update(
      `uploading ${name}: ${formatBytes(sent)} of ${formatBytes(total)} (${total === 0 ? 100 : Math.floor((sent / total) * 100)}%)`,
    ),
  );
  ctx.progress.note(
    `uploaded ${name} (${formatBytes(file.size_bytes ?? 0)}, ${elapsed(ctx, started)}) as file ${file.id}`,
  );
  return file;
};

const resolveSources = async (ctx: CommandContext, sources: readonly SourceArg[]): Promise<string[]> => {
  const resolved: string[] = [];
  for (const source of sources) {
    resolved.push(
      source.kind === 'file' ? (await uploadWithProgress(ctx, source.path, source.name)).id : source.value,
    );
  }
  return resolved;
};

/**
 * The request as the service will judge it (its own schema, lambdas/core/schemas/job.ts), with a stand-in
 * id for each file still to upload: a wrong --language or --metadata is refused before any byte is sent.
 */
const checkRequest = (body: unknown): void => {
  try {
    parseOrThrow(createJobRequestSchema, body);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const flags: Record<string, string> = {
      '/job/job_data/language': '--language',
      '/job/job_data/merchant_name': '--merchant',
      '/job/job_data/merchant_address': '--merchant-address',
      '/job/job_data/merchant_token': '--merchant-token',
      '/job/job_data/instructions': '--instructions',
      '/job/job_data/client_mappings': '--client-mappings',
      '/job/job_data/image_sources': '--image',
      '/job/job_data/catalog_sources': '--source',
      '/job/metadata': '--metadata',
    };
    const lines = error.errors.map((e) => {
      const flag = Object.entries(flags).find(([pointer]) => e.pointer.startsWith(pointer))?.[1];
      return `${flag ?? e.pointer}: ${e.message}${flag ? ` (${e.pointer})` : ''}`;
    });
    throw new CliError(
      `the job would be refused; nothing was uploaded or created:\n  ${lines.join('\n  ')}`,
      EXIT.usage,
    );
  }
};

const parseMetadata = (entries: readonly string[]): Record<string, string> | undefined => {
  if (entries.length === 0) return undefined;
  const metadata: Record<string, string> = {};
  for (const entry of entries) {
    const at = entry.indexOf('=');
    if (at <= 0) throw new CliError(`--metadata ${entry}: expected key=value`, EXIT.usage);
    metadata[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return metadata;
};

/** `--client-mappings '{"items":{...}}'` or `--client-mappings @mappings.json`. */
const parseJsonOption = async (ctx: CommandContext, name: string, value: string | undefined) => {
  if (value === undefined) return undefined;
  const text = value.startsWith('@')
    ? await readFile(path.resolve(ctx.cwd, value.slice(1)), 'utf8').catch(() => {
        throw new CliError(`--${name} ${value}: cannot read the file`, EXIT.usage);
      })
    : value;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CliError(`--${name}: not valid JSON`, EXIT.usage);
  }
};

/** The job or export ended failed: its body on stdout, why on stderr, exit 3. */
const failed = (
  ctx: CommandContext,
  what: string,
  resource: { state: string; error?: ProblemBody | null },
) => {
  printJson(ctx.out, resource);
  ctx.out.stderr(formatFailure(what, resource.state, resource.error));
  return EXIT.failed;
};

export const jobsCreate = async (ctx: CommandContext, values: OptionValues): Promise<number> => {
  const jobType = required(values, 'type');
  if (!(JOB_TYPES as readonly string[]).includes(jobType)) {
    throw new CliError(`--type must be one of ${JOB_TYPES.join(', ')}`, EXIT.usage);
  }
  const merchant = required(values, 'merchant');
  const sources = classifySources(ctx, list(values, 'source'));
  if (sources.length === 0) throw new CliError('at least one --source is required', EXIT.usage);
  const timeout = seconds(values, 'timeout') ?? DEFAULT_TIMEOUT_SECONDS;
  const clientMappings = await parseJsonOption(ctx, 'client-mappings', str(values, 'client-mappings'));
  const metadata = parseMetadata(list(values, 'metadata'));
  const images = list(values, 'image');

  const request = (catalogSources: string[]) => {
    const optional: Record<string, unknown> = {
      merchant_address: str(values, 'merchant-address'),
      merchant_token: str(values, 'merchant-token'),
      instructions: str(values, 'instructions'),
      language: str(values, 'language'),
      client_mappings: clientMappings,
      image_sources: images.length > 0 ? images : undefined,
    };
    const jobData = {
      catalog_sources: catalogSources,
      merchant_name: merchant,
      ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
    };
    return {
      job: {
        job_type: jobType,
        processing_type: flag(values, 'rush') ? 'rush' : 'standard',
        job_data: jobData,
        ...(metadata ? { metadata } : {}),
      },
    };
  };
  checkRequest(request(sources.map((s) => (s.kind === 'file' ? randomUUID() : s.value))));
  const body = request(await resolveSources(ctx, sources));
  const created = await ctx.api.request<Job>('POST', '/v1/jobs', {
    body,
    headers: { 'idempotency-key': str(values, 'idempotency-key') ?? `catalog-cli-${randomUUID()}` },
    retry: true,
  });
  if (!flag(values, 'wait')) {
    printJson(ctx.out, created.body);
    return EXIT.ok;
  }
  ctx.progress.note(`created job ${created.body.id} (${created.body.state})`);
  return finishJob(ctx, created.body.id, timeout);
};

/** The job's warnings, summed up on stderr for a person (the JSON on stdout has them all). */
const summarise = (ctx: CommandContext, job: Job): void => {
  const warnings = job.results?.warnings ?? [];
  const text = formatWarnings(warnings, job.results?.warning_count ?? warnings.length);
  if (text) ctx.progress.note(text.trimEnd());
};

const finishJob = async (ctx: CommandContext, id: string, timeout: number): Promise<number> => {
  // A job that goes to review has its results (and warnings) then: they are shown while it waits.
  const job = await waitForTerminal<Job>(ctx, 'job', idPath('jobs', id), JOB_TERMINAL, timeout, (current) => {
    if (current.state === 'in_review') summarise(ctx, current);
  });
  if (job.state !== 'completed') return failed(ctx, `job ${job.id}`, job);
  summarise(ctx, job);
  printJson(ctx.out, job);
  return EXIT.ok;
};

export const jobsGet = async (ctx: CommandContext, values: OptionValues, id: string): Promise<number> => {
  const timeout = seconds(values, 'timeout') ?? DEFAULT_TIMEOUT_SECONDS;
  if (flag(values, 'wait')) return finishJob(ctx, id, timeout);
  const job = (await ctx.api.get<Job>(idPath('jobs', id))).body;
  summarise(ctx, job);
  printJson(ctx.out, job);
  return EXIT.ok;
};

export const jobsList = async (ctx: CommandContext, values: OptionValues): Promise<number> => {
  const query = new URLSearchParams();
  for (const [option, parameter] of [
    ['state', 'state'],
    ['type', 'job_type'],
    ['limit', 'limit'],
    ['cursor', 'cursor'],
  ] as const) {
    const value = str(values, option);
    if (value !== undefined) query.set(parameter, value);
  }
  type Page = { data: unknown[]; next_cursor: string | null };
  const fetchPage = async () => {
    const qs = query.toString();
    return (await ctx.api.get<Page>(`/v1/jobs${qs ? `?${qs}` : ''}`)).body;
  };
  if (!flag(values, 'all')) {
    printJson(ctx.out, await fetchPage());
    return EXIT.ok;
  }
  const data: unknown[] = [];
  for (;;) {
    const page = await fetchPage();
    data.push(...page.data);
    ctx.progress.update(`${data.length} jobs…`);
    if (!page.next_cursor) break;
    query.set('cursor', page.next_cursor);
  }
  ctx.progress.clear();
  printJson(ctx.out, { data, next_cursor: null });
  return EXIT.ok;
};

export const jobsCancel = async (ctx: CommandContext, _values: OptionValues, id: string): Promise<number> => {
  printJson(ctx.out, (await ctx.api.request('POST', `${idPath('jobs', id)}/cancel`)).body);
  return EXIT.ok;
};

/**
 * Waits for the export (unless told not to), downloads it to --out, and prints the export (JSON) or, with
 * --table, the catalog as a table for people.
 */
const finishExport = async (ctx: CommandContext, values: OptionValues, id: string): Promise<number> => {
  const out = str(values, 'out');
  const exp = await waitForTerminal<DataExport>(
    ctx,
    'export',
    idPath('data_exports', id),
    EXPORT_TERMINAL,
    seconds(values, 'timeout') ?? DEFAULT_TIMEOUT_SECONDS,
  );
  if (exp.state !== 'completed') return failed(ctx, `export ${exp.id}`, exp);
  if (out !== undefined) await save(ctx, exp, out);
  if (flag(values, 'table')) {
    const document =
      out !== undefined ? await readFile(path.resolve(ctx.cwd, out), 'utf8') : await fetchCatalog(ctx, exp);
    ctx.out.stdout(catalogTable(JSON.parse(document) as CatalogLike));
    return EXIT.ok;
  }
  printJson(ctx.out, exp);
  return EXIT.ok;
};

/** A table is for a catalog a person reads: past this, save it with --out and read it with a program. */
const MAX_TABLE_BYTES = 50 * 1024 * 1024;

const fetchCatalog = async (ctx: CommandContext, exp: DataExport): Promise<string> => {
  if (!exp.delivery_url) throw new CliError(`export ${exp.id} is completed but has no delivery_url`);
  if (exp.file && exp.file.size_bytes > MAX_TABLE_BYTES) {
    throw new CliError(
      `the catalog is ${formatBytes(exp.file.size_bytes)}, too large to show as a table; save it with --out`,
    );
  }
  const response = await ctx.fetch(exp.delivery_url);
  if (!response.ok)
    throw new CliError(`downloading the export failed: delivery_url answered ${response.status}`);
  return response.text();
};

const save = async (ctx: CommandContext, exp: DataExport, out: string): Promise<void> => {
  if (!exp.delivery_url) throw new CliError(`export ${exp.id} is completed but has no delivery_url`);
  const target = path.resolve(ctx.cwd, out);
  ctx.progress.update(`downloading export ${shortId(exp.id)}…`);
  const saved = await download(ctx.fetch, exp.delivery_url, target, exp.file);
  const items = exp.file ? `, ${exp.file.item_count} items` : '';
  const checked = exp.file ? ', checksum verified' : '';
  ctx.progress.note(`saved ${out} (${formatBytes(saved.sizeBytes)}${items}${checked})`);
};

export const exportsCreate = async (ctx: CommandContext, values: OptionValues): Promise<number> => {
  const jobId = required(values, 'job');
  if (flag(values, 'no-wait') && (str(values, 'out') !== undefined || flag(values, 'table'))) {
    throw new CliError('--out and --table need the export to finish: leave out --no-wait', EXIT.usage);
  }
  seconds(values, 'timeout'); // a malformed --timeout is refused before anything is created
  const callbackUrl = str(values, 'callback-url');
  const created = await ctx.api.request<DataExport>('POST', '/v1/data_exports', {
    body: { id: jobId, type: 'catalog', ...(callbackUrl ? { callback_url: callbackUrl } : {}) },
    headers: { 'idempotency-key': str(values, 'idempotency-key') ?? `catalog-cli-${randomUUID()}` },
    retry: true,
  });
  if (flag(values, 'no-wait')) {
    printJson(ctx.out, created.body);
    return EXIT.ok;
  }
  ctx.progress.note(`created export ${created.body.id} of job ${jobId} (${created.body.state})`);
  return finishExport(ctx, values, created.body.id);
};

export const exportsGet = async (ctx: CommandContext, values: OptionValues, id: string): Promise<number> => {
  if (flag(values, 'wait') || flag(values, 'table') || str(values, 'out') !== undefined) {
    return finishExport(ctx, values, id);
  }
  printJson(ctx.out, (await ctx.api.get(idPath('data_exports', id))).body);
  return EXIT.ok;
};

export const filesUpload = async (
  ctx: CommandContext,
  values: OptionValues,
  file: string,
): Promise<number> => {
  const uploaded = await uploadWithProgress(
    ctx,
    path.resolve(ctx.cwd, file),
    file,
    str(values, 'content-type'),
  );
  printJson(ctx.out, uploaded);
  return EXIT.ok;
};

export const filesGet = async (ctx: CommandContext, _values: OptionValues, id: string): Promise<number> => {
  printJson(ctx.out, (await ctx.api.get(idPath('files', id))).body);
  return EXIT.ok;
};
