import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type LocalService, startLocalService } from '../helpers/local-service';
import { OpenApiContract } from '../helpers/openapi-contract';

/**
 * The command-line client against `npm start`, as a newcomer uses it: from a local CSV to a downloaded
 * catalog in two commands. The job worker processes the uploaded file for real.
 */

const ROOT = process.cwd();
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const contract = OpenApiContract.load();

let service: LocalService;
let work: string;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command with the client's environment, in `cwd`, and collects what it prints. */
const exec = (command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> =>
  new Promise((resolve, reject) => {
    const { INIT_CWD: _npmCwd, npm_lifecycle_event: _npmScript, ...inherited } = process.env;
    const child = spawn(command, args, {
      cwd,
      env: { ...inherited, CATALOG_API_URL: service.url, CATALOG_API_KEY: service.apiKey, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

/** `catalog …` from the working directory, as `npx catalog` runs it (tsx on bin/catalog.ts). */
const catalog = (...args: string[]) => exec(TSX, [path.join(ROOT, 'bin', 'catalog.ts'), ...args], work);

const outputs: Run[] = [];
const recorded = async (run: Promise<Run>): Promise<Run> => {
  const result = await run;
  outputs.push(result);
  return result;
};

beforeAll(async () => {
  service = await startLocalService();
  work = await mkdtemp(path.join(tmpdir(), 'catalog-cli-e2e-'));
  await copyFile(path.join(ROOT, 'test', 'fixtures', 'catalog', 'menu.csv'), path.join(work, 'menu.csv'));
}, 120_000);

afterAll(async () => {
  await service?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('catalog, from a local CSV to a downloaded catalog', () => {
  let jobId: string;

  it('jobs create --source ./menu.csv --wait uploads the file and waits for the completed job', async () => {
    const result = await recorded(
      catalog(
        'jobs',
        'create',
        '--type',
        'new_menu',
        '--source',
        './menu.csv',
        '--merchant',
        "Joe's Diner",
        '--rush',
        '--wait',
      ),
    );
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    const job = JSON.parse(result.stdout);
    expect(contract.schemaErrors('Job', job)).toBeUndefined();
    expect(job).toMatchObject({
      state: 'completed',
      processing_type: 'rush',
      job_data: { merchant_name: "Joe's Diner" },
      results: { catalog: { item_count: 5 } },
    });
    expect(job.job_data.catalog_sources).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    expect(result.stderr).toContain('uploaded ./menu.csv');
    expect(result.stderr).toMatch(/uploading \.\/menu\.csv: \d+ B of \d+ B \(100%\)/);
    expect(result.stderr).toContain(`created job ${job.id}`);
    expect(result.stderr).toMatch(/job [0-9a-f]{8}: completed/);
    jobId = job.id;
  }, 60_000);

  it('exports create --job <id> --out catalog.json waits for the export and downloads the catalog', async () => {
    const result = await recorded(catalog('exports', 'create', '--job', jobId, '--out', 'catalog.json'));
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    const exp = JSON.parse(result.stdout);
    expect(contract.schemaErrors('DataExport', exp)).toBeUndefined();
    expect(exp).toMatchObject({ state: 'completed', job_id: jobId, file: { item_count: 5 } });
    expect(result.stderr).toContain('saved catalog.json');
    expect(result.stderr).toContain('checksum verified');

    const document = JSON.parse(await readFile(path.join(work, 'catalog.json'), 'utf8'));
    expect(contract.schemaErrors('CatalogDocument', document)).toBeUndefined();
    expect(document).toMatchObject({ job_id: jobId, merchant: { name: "Joe's Diner" }, currency: 'USD' });
    expect(document.items.map((i: { name: string }) => i.name).sort()).toEqual(
      // Lemonade's price is not a price: the item is kept without one (SPEC 5.2).
      ['Cola', 'Diavola', 'Lemonade', 'Margherita', 'Tiramisu'].sort(),
    );
  }, 60_000);

  it('gets, lists and cancels, printing JSON on stdout', async () => {
    const got = await recorded(catalog('jobs', 'get', jobId));
    expect(JSON.parse(got.stdout).id).toBe(jobId);
    const listed = await recorded(catalog('jobs', 'list', '--state', 'completed'));
    expect(JSON.parse(listed.stdout).data.map((j: { id: string }) => j.id)).toContain(jobId);
    const cancel = await recorded(catalog('jobs', 'cancel', jobId));
    expect(cancel.code).toBe(1);
    expect(cancel.stderr).toContain('409 Invalid state (invalid_state)');
    expect(cancel.stdout).toBe('');
  }, 60_000);

  it('prints problems clearly, with a non-zero exit code', async () => {
    // What the service's own schema refuses is refused before anything is sent, naming the options.
    const invalid = await recorded(
      catalog(
        'jobs',
        'create',
        '--type',
        'retail_image_mapping',
        '--source',
        'https://merchant.example.com/products.csv',
        '--merchant',
        'Corner Store',
        '--language',
        'en_us',
      ),
    );
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('--image: is required');
    expect(invalid.stderr).toContain('--language: unknown field "language"');
    // What only the service knows comes back as its problem.
    const refused = await recorded(
      catalog(
        'jobs',
        'create',
        '--type',
        'new_menu',
        '--source',
        'http://169.254.169.254/menu.csv',
        '--merchant',
        'Joe',
      ),
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error: 400 Invalid request (validation_failed)');
    expect(refused.stderr).toContain('/job/job_data/catalog_sources/0');
    expect(refused.stderr).toMatch(/request id: [0-9a-f-]{36}/);

    const missing = await recorded(catalog('jobs', 'get', '00000000-0000-4000-8000-000000000000'));
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('404 Not found (not_found)')]);
    const unauthorized = await recorded(
      exec(TSX, [path.join(ROOT, 'bin', 'catalog.ts'), 'jobs', 'list'], work, {
        CATALOG_API_KEY: 'cjk_live_nobody_has_this_key_00000000000',
      }),
    );
    expect([unauthorized.code, unauthorized.stderr]).toEqual([
      1,
      expect.stringContaining('401 Unauthorized'),
    ]);
    expect(unauthorized.stderr).not.toContain('cjk_live_nobody_has_this_key');
  }, 60_000);

  it('runs as `npm run -s catalog --`, with only JSON on stdout', async () => {
    const result = await recorded(
      exec('npm', ['run', '-s', 'catalog', '--', 'jobs', 'list', '--limit', '1'], ROOT),
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).data).toHaveLength(1);
  }, 60_000);

  it('never printed the API key', () => {
    expect(outputs.length).toBeGreaterThan(5);
    for (const output of outputs) expect(`${output.stdout}${output.stderr}`).not.toContain(service.apiKey);
  });
});
