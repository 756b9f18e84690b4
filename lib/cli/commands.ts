import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type ApiClient, type ApiResponse, type Fetch, type ProblemBody, retryAfterSeconds } from './api';
import { formatBytes, formatFailure, type Output, type Progress, printJson, spinnerFrame } from './output';
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

/** Exit codes: 0 done; 1 the service refused or could not be reached; 2 usage; 3 the job or export failed. */
export const EXIT = { ok: 0, error: 1, usage: 2, failed: 3 } as const;

const JOB_TYPES = ['new_menu', 'new_retail_catalog', 'retail_image_mapping'] as const;
const JOB_TERMINAL = new Set(['completed', 'failed', 'canceled']);
const EXPORT_TERMINAL = new Set(['completed', 'failed']);
/** When an answer has no Retry-After (a proxy in between), poll this often. */
const DEFAULT_POLL_SECONDS = 5;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Job {
  readonly id: string;
  readonly state: string;
  readonly error?: ProblemBody | null;
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
 * Polls `path` until the resource is in a terminal state, waiting as long as each answer's Retry-After asks
 * (SPEC 5.1), with a progress line on stderr.
 */
const waitForTerminal = async <T extends { id: string; state: string }>(
  ctx: CommandContext,
  what: string,
  pathname: string,
  terminal: ReadonlySet<string>,
  timeoutSeconds: number | undefined,
): Promise<T> => {
  const started = ctx.now();
  let tick = 0;
  let reviewNoted = false;
  for (;;) {
    const response: ApiResponse<T> = await ctx.api.get<T>(pathname);
    const current = response.body;
    if (terminal.has(current.state)) {
      ctx.progress.note(`${what} ${shortId(current.id)}: ${current.state} (${elapsed(ctx, started)})`);
      return current;
    }
    if (current.state === 'in_review' && !reviewNoted) {
      reviewNoted = true;
      ctx.progress.note(
        `${what} ${shortId(current.id)} is in review with the operations team; still waiting (Ctrl-C stops ` +
          'waiting, not the job)',
      );
    }
    const wait = retryAfterSeconds(response.headers) ?? DEFAULT_POLL_SECONDS;
    if (timeoutSeconds !== undefined && ctx.now() + wait * 1000 - started > timeoutSeconds * 1000) {
      ctx.progress.clear();
      throw new CliError(
        `${what} ${current.id} is still ${current.state} after ${timeoutSeconds}s (--timeout); it goes on`,
      );
    }
    // On a terminal the line is redrawn every second while waiting; otherwise one line per state change.
    const until = ctx.now() + wait * 1000;
    for (;;) {
      const status = `${what} ${shortId(current.id)}: ${current.state}`;
      ctx.progress.update(
        ctx.out.interactive ? `${spinnerFrame(tick++)} ${status} (${elapsed(ctx, started)})` : status,
      );
      const remaining = until - ctx.now();
      if (remaining <= 0) break;
      await ctx.sleep(ctx.out.interactive ? Math.min(1000, remaining) : remaining);
      if (!ctx.out.interactive) break;
    }
  }
};

const elapsed = (ctx: CommandContext, started: number): string =>
  `${Math.round((ctx.now() - started) / 1000)}s`;

/** Local paths are uploaded; http(s) URLs and ids of uploaded files are passed as they are. */
const resolveSources = async (ctx: CommandContext, sources: readonly string[]): Promise<string[]> => {
  const resolved: string[] = [];
  for (const source of sources) {
    if (/^https?:\/\//i.test(source)) {
      resolved.push(source);
      continue;
    }
    const local = path.resolve(ctx.cwd, source);
    if (existsSync(local) && statSync(local).isFile()) {
      ctx.progress.update(`uploading ${source}…`);
      const file = await uploadFile(ctx.api, ctx.fetch, local);
      ctx.progress.note(`uploaded ${source} (${formatBytes(file.size_bytes ?? 0)}) as file ${file.id}`);
      resolved.push(file.id);
      continue;
    }
    if (UUID.test(source)) {
      resolved.push(source);
      continue;
    }
    throw new CliError(
      `--source ${source}: no such file, and not an http(s) URL or the id of an uploaded file`,
      2,
    );
  }
  return resolved;
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
  const sources = list(values, 'source');
  if (sources.length === 0) throw new CliError('at least one --source is required', EXIT.usage);
  const timeout = seconds(values, 'timeout');
  const clientMappings = await parseJsonOption(ctx, 'client-mappings', str(values, 'client-mappings'));
  const metadata = parseMetadata(list(values, 'metadata'));
  const images = list(values, 'image');

  const catalogSources = await resolveSources(ctx, sources);
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
  const body = {
    job: {
      job_type: jobType,
      processing_type: flag(values, 'rush') ? 'rush' : 'standard',
      job_data: jobData,
      ...(metadata ? { metadata } : {}),
    },
  };
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

const finishJob = async (ctx: CommandContext, id: string, timeout: number | undefined): Promise<number> => {
  const job = await waitForTerminal<Job>(ctx, 'job', idPath('jobs', id), JOB_TERMINAL, timeout);
  if (job.state !== 'completed') return failed(ctx, `job ${job.id}`, job);
  printJson(ctx.out, job);
  return EXIT.ok;
};

export const jobsGet = async (ctx: CommandContext, values: OptionValues, id: string): Promise<number> => {
  if (flag(values, 'wait')) return finishJob(ctx, id, seconds(values, 'timeout'));
  printJson(ctx.out, (await ctx.api.get(idPath('jobs', id))).body);
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

/** Waits for the export (unless told not to) and downloads it to --out. */
const finishExport = async (ctx: CommandContext, values: OptionValues, id: string): Promise<number> => {
  const out = str(values, 'out');
  const exp = await waitForTerminal<DataExport>(
    ctx,
    'export',
    idPath('data_exports', id),
    EXPORT_TERMINAL,
    seconds(values, 'timeout'),
  );
  if (exp.state !== 'completed') return failed(ctx, `export ${exp.id}`, exp);
  if (out !== undefined) await save(ctx, exp, out);
  printJson(ctx.out, exp);
  return EXIT.ok;
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
  if (flag(values, 'no-wait') && str(values, 'out') !== undefined) {
    throw new CliError('--out needs the export to finish: leave out --no-wait', EXIT.usage);
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
  if (flag(values, 'wait') || str(values, 'out') !== undefined) return finishExport(ctx, values, id);
  printJson(ctx.out, (await ctx.api.get(idPath('data_exports', id))).body);
  return EXIT.ok;
};

export const filesUpload = async (
  ctx: CommandContext,
  values: OptionValues,
  file: string,
): Promise<number> => {
  const local = path.resolve(ctx.cwd, file);
  ctx.progress.update(`uploading ${file}…`);
  const uploaded = await uploadFile(
    ctx.api,
    ctx.fetch,
    local,
    str(values, 'content-type') ?? mediaTypeOf(local),
  );
  ctx.progress.clear();
  printJson(ctx.out, uploaded);
  return EXIT.ok;
};

export const filesGet = async (ctx: CommandContext, _values: OptionValues, id: string): Promise<number> => {
  printJson(ctx.out, (await ctx.api.get(idPath('files', id))).body);
  return EXIT.ok;
};
