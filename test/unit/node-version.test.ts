import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { LAMBDA_NODE_MAJOR, nodeVersionProblem, runningNodeMajor } from '../../lib/local/node-version';

const run = promisify(execFile);

/**
 * Every npm script runs on Lambda's Node.js major, whatever Node.js the machine has: the `node` package
 * (a devDependency) puts that Node.js first on an npm script's PATH.
 */
describe('the Node.js the project runs on', () => {
  it('is the Lambda runtime major, for the tests themselves', () => {
    expect(LAMBDA_NODE_MAJOR).toBe(24);
    expect(`node ${process.version}`).toMatch(new RegExp(`^node v${LAMBDA_NODE_MAJOR}\\.`));
    expect(runningNodeMajor()).toBe(LAMBDA_NODE_MAJOR);
    expect(nodeVersionProblem()).toBeUndefined();
  });

  it('is the one npm ci installs: the devDependency `node` at the same major', () => {
    const pkg = JSON.parse(readFileSync(path.join(process.cwd(), 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
      allowScripts?: Record<string, boolean>;
    };
    expect(pkg.devDependencies.node).toMatch(new RegExp(`^${LAMBDA_NODE_MAJOR}\\.\\d+\\.\\d+$`));
    // Its preinstall fetches the binary: approved, so that an npm that blocks unreviewed scripts runs it.
    expect(pkg.allowScripts?.node).toBe(true);
  });

  it('is what child processes started with process.execPath or through npm get', async () => {
    const direct = await run(process.execPath, ['-p', 'process.versions.node']);
    expect(direct.stdout.trim().split('.')[0]).toBe(String(LAMBDA_NODE_MAJOR));
    const viaNpm = await run('npm', ['exec', '--', 'node', '-p', 'process.versions.node']);
    expect(viaNpm.stdout.trim().split('.')[0]).toBe(String(LAMBDA_NODE_MAJOR));
  });
});
