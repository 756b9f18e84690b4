import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildOpenApiDocument, serializeOpenApiDocument } from '../../lib/openapi/document';

const run = promisify(execFile);

/**
 * Redocly CLI's `lint` with its built-in `recommended` rules (lib/openapi/redocly.yaml raises the example
 * checks to errors). Runs offline: no remote rules, telemetry and the update check off.
 */
const lint = async (file: string) => {
  const cli = path.join(process.cwd(), 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  const config = path.join(process.cwd(), 'lib', 'openapi', 'redocly.yaml');
  const env = {
    ...process.env,
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    CI: 'true',
  };
  const outcome = await run(process.execPath, [cli, 'lint', file, '--config', config, '--format', 'json'], {
    env,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string }) => error);
  const stdout = outcome.stdout ?? '';
  const start = stdout.indexOf('{');
  if (start < 0) throw new Error(`redocly printed no report:\n${stdout}\n${outcome.stderr ?? ''}`);
  return JSON.parse(stdout.slice(start)) as {
    totals: { errors: number; warnings: number };
    problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
  };
};

describe('Redocly lint', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'openapi-lint-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('finds no error and no warning in docs/openapi.json', async () => {
    const report = await lint(path.join(process.cwd(), 'docs', 'openapi.json'));
    const problems = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('would catch an example that breaks its schema', async () => {
    const document = buildOpenApiDocument();
    document.paths['/v1/jobs'].post.responses['201'].content[
      'application/json'
    ].examples.new_menu.value.state = 'unheard_of';
    const file = path.join(dir, 'broken.json');
    await writeFile(file, serializeOpenApiDocument(document));
    const report = await lint(file);
    expect(report.totals.errors).toBeGreaterThan(0);
    expect(report.problems.map((p) => p.ruleId)).toContain('no-invalid-media-type-examples');
  }, 60_000);
});
