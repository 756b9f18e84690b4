import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ApiClient, ApiProblemError, type Fetch, TransportError } from './api';
import {
  type CommandContext,
  DEFAULT_TIMEOUT_SECONDS,
  EXIT,
  exportsCreate,
  exportsGet,
  filesGet,
  filesUpload,
  jobsCancel,
  jobsCreate,
  jobsGet,
  jobsList,
  type OptionValues,
} from './commands';
import { formatProblem, type Output, Progress } from './output';
import { CliError } from './transfer';

/**
 * `catalog`: the command-line client of the Catalog Jobs API (bin/catalog.ts). Pure of process globals:
 * everything it touches comes in through CliEnvironment, so tests run it in-process.
 */

export const DEFAULT_API_URL = 'http://127.0.0.1:3000';

export interface CliEnvironment {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly out: Output;
  readonly fetch: Fetch;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;
}

type Options = NonNullable<ParseArgsConfig['options']>;

const GLOBAL_OPTIONS: Options = {
  url: { type: 'string' },
  key: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
};

const WAIT_OPTIONS: Options = { wait: { type: 'boolean' }, timeout: { type: 'string' } };

interface CommandDefinition {
  readonly usage: string;
  readonly summary: string;
  readonly details: string;
  readonly options: Options;
  /** The positional argument's name, when the command takes one. */
  readonly argument?: string;
  readonly run: (ctx: CommandContext, values: OptionValues, argument: string) => Promise<number>;
}

const COMMANDS: Record<string, CommandDefinition> = {
  'jobs create': {
    usage:
      'jobs create --type <job_type> --source <file|url|file id>... --merchant <name> [--rush] [--wait]\n' +
      '            [--merchant-address <text>] [--merchant-token <text>] [--language <ll_cc>]\n' +
      '            [--instructions <text>] [--image <url>...] [--metadata key=value...]\n' +
      '            [--client-mappings <json>|@<file>] [--idempotency-key <key>] [--timeout <seconds>]',
    summary: 'create a job (local files are uploaded first)',
    details:
      '--type is new_menu, new_retail_catalog or retail_image_mapping. Each --source is a local file (uploaded\n' +
      'through POST /v1/files, streamed, its bytes counted on stderr), an http(s) URL, or the id of an uploaded\n' +
      'file. Every option is checked as the service checks it before anything is uploaded. --rush asks for\n' +
      'rush processing. --wait shows the job’s state until it is completed, failed or canceled (polling from\n' +
      '200 ms, backing off up to Retry-After), sums up its warnings on stderr and prints the final job; it gives\n' +
      `up after --timeout (default ${DEFAULT_TIMEOUT_SECONDS} s: a job in review waits for a person), exit 4, the job going on.\n` +
      'The create carries an Idempotency-Key (a new one unless given), so retries after 429/503 never create the\n' +
      'job twice.',
    options: {
      type: { type: 'string' },
      source: { type: 'string', multiple: true },
      merchant: { type: 'string' },
      'merchant-address': { type: 'string' },
      'merchant-token': { type: 'string' },
      language: { type: 'string' },
      instructions: { type: 'string' },
      image: { type: 'string', multiple: true },
      metadata: { type: 'string', multiple: true },
      'client-mappings': { type: 'string' },
      rush: { type: 'boolean' },
      'idempotency-key': { type: 'string' },
      ...WAIT_OPTIONS,
    },
    run: (ctx, values) => jobsCreate(ctx, values),
  },
  'jobs get': {
    usage: 'jobs get <id> [--wait] [--timeout <seconds>]',
    summary: 'show a job and sum up its warnings (--wait: until it is terminal)',
    details: `--timeout: how long --wait waits (default ${DEFAULT_TIMEOUT_SECONDS} s), then exit 4; the job goes on.`,
    argument: 'id',
    options: WAIT_OPTIONS,
    run: jobsGet,
  },
  'jobs list': {
    usage: 'jobs list [--state <state>] [--type <job_type>] [--limit <1-100>] [--cursor <cursor>] [--all]',
    summary: 'list your jobs, newest first (--all: every page)',
    details: '',
    options: {
      state: { type: 'string' },
      type: { type: 'string' },
      limit: { type: 'string' },
      cursor: { type: 'string' },
      all: { type: 'boolean' },
    },
    run: (ctx, values) => jobsList(ctx, values),
  },
  'jobs cancel': {
    usage: 'jobs cancel <id>',
    summary: 'cancel a job that is initiated or in review',
    details: '',
    argument: 'id',
    options: {},
    run: jobsCancel,
  },
  'exports create': {
    usage:
      'exports create --job <id> [--out <file.json>] [--table] [--callback-url <url>] [--no-wait]\n' +
      '               [--idempotency-key <key>] [--timeout <seconds>]',
    summary: 'export a job’s catalog, wait for it and download it',
    details:
      'Creates the data export, waits with a progress indicator until it is completed (it waits for its job\n' +
      'too), and with --out downloads delivery_url to that file, checking its size and SHA-256. Prints the\n' +
      'final export, or with --table the catalog itself for people: one line per variant (category, item,\n' +
      'variant, price, SKU, GTIN). --no-wait prints the export as created and returns.',
    options: {
      job: { type: 'string' },
      out: { type: 'string' },
      'callback-url': { type: 'string' },
      'no-wait': { type: 'boolean' },
      table: { type: 'boolean' },
      'idempotency-key': { type: 'string' },
      timeout: { type: 'string' },
    },
    run: (ctx, values) => exportsCreate(ctx, values),
  },
  'exports get': {
    usage: 'exports get <id> [--wait] [--out <file.json>] [--table] [--timeout <seconds>]',
    summary: 'show a data export (--out: wait for it and download it; --table: show its catalog)',
    details: '',
    argument: 'id',
    options: { ...WAIT_OPTIONS, out: { type: 'string' }, table: { type: 'boolean' } },
    run: exportsGet,
  },
  'files upload': {
    usage: 'files upload <path> [--content-type <type>]',
    summary: 'upload a catalog source (streamed, bytes counted); prints the file (its id goes into --source)',
    details: '',
    argument: 'path',
    options: { 'content-type': { type: 'string' } },
    run: filesUpload,
  },
  'files get': {
    usage: 'files get <id>',
    summary: 'show an uploaded file',
    details: '',
    argument: 'id',
    options: {},
    run: filesGet,
  },
};

const GLOBAL_HELP = `Options for every command:
  --url <url>     the API's base URL (env CATALOG_API_URL, default ${DEFAULT_API_URL})
  --key <key>     the API key (env CATALOG_API_KEY; npm start prints DEV_API_KEY)
  -q, --quiet     no progress on stderr
  -h, --help      this help

Results are JSON on stdout; progress, warnings and errors go to stderr. Exit codes: 0 done, 1 the service
refused (its problem is printed) or could not be reached, 2 wrong usage (nothing was sent), 3 the job or
export ended failed, 4 it was not finished when --timeout ran out (it goes on).`;

export const usage = (): string => {
  const lines = ['Usage: catalog <command> [options]', '', 'Commands:'];
  for (const [name, command] of Object.entries(COMMANDS))
    lines.push(`  ${name.padEnd(16)} ${command.summary}`);
  lines.push(
    '',
    'From a local CSV to a downloaded catalog:',
    '  catalog jobs create --type new_menu --source ./menu.csv --merchant "Joe\'s Diner" --rush --wait',
    '  catalog exports create --job <job id> --out catalog.json --table',
    '',
    GLOBAL_HELP,
    '',
    'catalog <command> --help shows the options of one command.',
  );
  return `${lines.join('\n')}\n`;
};

const commandHelp = (command: CommandDefinition): string => {
  const summary = `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`;
  const details = command.details ? `\n${command.details}\n` : '';
  return `Usage: catalog ${command.usage}\n\n${summary}\n${details}\n${GLOBAL_HELP}\n`;
};

const ALL_OPTIONS: Options = Object.assign(
  {},
  GLOBAL_OPTIONS,
  ...Object.values(COMMANDS).map((c) => c.options),
) as Options;

/** Replaces the API key wherever it might appear, so that it is never printed. */
const redacting = (out: Output, secret: string | undefined): Output => {
  if (!secret || secret.length < 4) return out;
  const scrub = (text: string) => text.split(secret).join('[redacted]');
  return {
    stdout: (text) => out.stdout(scrub(text)),
    stderr: (text) => out.stderr(scrub(text)),
    interactive: out.interactive,
  };
};

/** Runs one command line; resolves to the exit code. */
export const runCli = async (argv: readonly string[], environment: CliEnvironment): Promise<number> => {
  // First pass: find the command (options may come before it); second pass: its own options, strictly.
  let words: string[];
  try {
    words = parseArgs({
      args: [...argv],
      options: ALL_OPTIONS,
      strict: false,
      allowPositionals: true,
    }).positionals;
  } catch (error) {
    environment.out.stderr(`catalog: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  const name = words.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  if (!command) {
    const wantsHelp = argv.includes('--help') || argv.includes('-h') || argv.length === 0;
    if (wantsHelp) {
      environment.out.stdout(usage());
      return argv.length === 0 ? EXIT.usage : EXIT.ok;
    }
    environment.out.stderr(`catalog: unknown command "${words.join(' ')}"\n\n${usage()}`);
    return EXIT.usage;
  }

  let values: OptionValues;
  let positionals: string[];
  try {
    const parsed = parseArgs({
      args: [...argv],
      options: { ...GLOBAL_OPTIONS, ...command.options },
      strict: true,
      allowPositionals: true,
    });
    values = parsed.values as OptionValues;
    positionals = parsed.positionals.slice(2);
  } catch (error) {
    environment.out.stderr(`catalog ${name}: ${(error as Error).message}\nUsage: catalog ${command.usage}\n`);
    return EXIT.usage;
  }
  if (values.help === true) {
    environment.out.stdout(commandHelp(command));
    return EXIT.ok;
  }
  const expected = command.argument ? 1 : 0;
  if (positionals.length !== expected) {
    const what = command.argument ? `one <${command.argument}>` : 'no positional argument';
    environment.out.stderr(`catalog ${name}: expected ${what}\nUsage: catalog ${command.usage}\n`);
    return EXIT.usage;
  }

  const apiKey = (typeof values.key === 'string' ? values.key : undefined) ?? environment.env.CATALOG_API_KEY;
  const out = redacting(environment.out, apiKey);
  if (!apiKey) {
    out.stderr(
      `catalog ${name}: no API key. Pass --key or set CATALOG_API_KEY (npm start prints DEV_API_KEY).\n`,
    );
    return EXIT.usage;
  }
  const baseUrl =
    (typeof values.url === 'string' ? values.url : undefined) ??
    environment.env.CATALOG_API_URL ??
    DEFAULT_API_URL;
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    out.stderr(`catalog ${name}: --url ${baseUrl} is not an http(s) URL\n`);
    return EXIT.usage;
  }

  const progress = new Progress(out, values.quiet !== true);
  const api = new ApiClient({
    baseUrl,
    apiKey,
    fetch: environment.fetch,
    sleep: environment.sleep,
    onRetry: (message) => progress.note(message),
  });
  const ctx: CommandContext = {
    api,
    fetch: environment.fetch,
    out,
    progress,
    cwd: environment.cwd,
    sleep: environment.sleep,
    now: environment.now,
  };
  try {
    return await command.run(ctx, values, positionals[0] ?? '');
  } catch (error) {
    progress.clear();
    if (error instanceof ApiProblemError) {
      out.stderr(formatProblem(error.status, error.problem, `${error.method} ${error.path}`));
      return EXIT.error;
    }
    if (error instanceof TransportError) {
      out.stderr(`error: ${error.message}\n`);
      return EXIT.error;
    }
    if (error instanceof CliError) {
      out.stderr(`${error.exitCode === EXIT.usage ? `catalog ${name}` : 'error'}: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
};
