import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type LocalService, startLocalService } from '../helpers/local-service';

/**
 * The README's walk-through, as a new user pastes it: every ```bash block between its walkthrough markers,
 * run as written, in order, in one shell, against `npm start`. Nothing of it may write into the repository;
 * every id a step needs comes from the step before.
 */
const ROOT = process.cwd();

/** The bash blocks of the walk-through, as the README has them. */
const walkthroughBlocks = (readme: string): string[] => {
  const start = readme.indexOf('<!-- walkthrough:start');
  const end = readme.indexOf('<!-- walkthrough:end -->');
  if (start < 0 || end < start) throw new Error('README.md has no walkthrough markers');
  return [...readme.slice(start, end).matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
};

let service: LocalService;
let scratch: string;

beforeAll(async () => {
  service = await startLocalService({}, { viaNpm: true });
  scratch = await mkdtemp(path.join(tmpdir(), 'walkthrough-'));
}, 120_000);

afterAll(async () => {
  await service?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const run = (script: string, env: Record<string, string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    // -e and pipefail: a step that fails stops the walk-through there, as it would stop a reader.
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });

describe('README walk-through', () => {
  it('runs as written against npm start, each step taking the ids it needs, writing only into a temp folder', async () => {
    const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
    const blocks = walkthroughBlocks(readme);
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const before = new Set(await readdir(ROOT));
    const result = await run(blocks.join('\n'), {
      ...service.keysEnv,
      API: service.url,
      // mktemp -d makes the walk-through's folder here, where the test can look into it.
      TMPDIR: scratch,
    });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    // The PUT (200), the form (204), the job's summary and the exported catalog's dishes, as the README says.
    expect(result.stdout.split('\n')).toEqual(expect.arrayContaining(['200', '204', 'Margherita, Cola']));
    expect(result.stdout).toContain('"state": "completed"');
    expect(
      JSON.parse(result.stdout.slice(result.stdout.indexOf('{'), result.stdout.lastIndexOf('}') + 1)),
    ).toEqual({
      state: 'completed',
      catalog: {
        item_count: 2,
        variant_count: 2,
        category_count: 2,
        modifier_group_count: 1,
        image_count: 0,
      },
    });
    // Everything it wrote is in its own folder (mktemp's `tmp.*`; tsx keeps its cache beside it); the
    // repository has no new file.
    const folders = (await readdir(scratch)).filter((name) => name.startsWith('tmp.'));
    expect(folders).toHaveLength(1);
    expect((await readdir(path.join(scratch, folders[0]!))).sort()).toEqual(
      ['catalog.json', 'export.json', 'file.json', 'form.json', 'job.json', 'jobs.json', 'menu.csv'].sort(),
    );
    expect([...(await readdir(ROOT))].filter((name) => !before.has(name))).toEqual([]);
  }, 180_000);
});
