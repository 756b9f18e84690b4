// `npm run test:future [jest args]`: the whole suite with every process's clock five years ahead of the
// calendar (or at TEST_CLOCK_AT), so that a test which mixes a fixed date with the real clock fails the day
// it is written. The shift reaches jest, its workers, the emulators, `npm start` and the browser of the e2e
// tests (test/helpers/clock-shift.cjs).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const FIVE_YEARS_MS = 5 * 365.25 * 24 * 3_600_000;
const at = process.env.TEST_CLOCK_AT ?? new Date(Date.now() + FIVE_YEARS_MS).toISOString();
const shim = fileURLToPath(new URL('./clock-shift.cjs', import.meta.url));
const env = {
  ...process.env,
  TEST_CLOCK_AT: at,
  // One clock for every process, however late it starts (test/helpers/clock-shift.cjs).
  TEST_CLOCK_OFFSET_MS: String(Date.parse(at) - Date.now()),
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require "${shim}"`.trim(),
};
console.error(`test:future: every process's clock starts at ${at}`);
const run = spawnSync('jest', process.argv.slice(2), { stdio: 'inherit', env });
process.exit(run.status ?? 1);
