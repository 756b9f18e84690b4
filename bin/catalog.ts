#!/usr/bin/env tsx
/**
 * `npm run -s catalog -- <command>` (or `npx catalog <command>`): the command-line client of the Catalog
 * Jobs API. `catalog --help` lists the commands; lib/cli holds them.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from '../lib/cli/main';

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  // `npm run catalog` moves to the project root; relative paths (--source, --out) mean where the user typed
  // the command, which npm keeps in INIT_CWD.
  cwd: (process.env.npm_lifecycle_event === 'catalog' && process.env.INIT_CWD) || process.cwd(),
  out: {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    interactive: process.stderr.isTTY === true,
  },
  fetch: (input, init) => fetch(input, init),
  sleep: (ms) => sleep(ms),
  now: () => Date.now(),
}).catch((error: unknown) => {
  process.stderr.write(
    `catalog: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return 1;
});
