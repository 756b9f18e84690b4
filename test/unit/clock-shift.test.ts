import { execFileSync } from 'node:child_process';
import path from 'node:path';

// The guard of `npm run test:future` must itself be able to fail: a process started with the shim and
// TEST_CLOCK_AT reads that date, and one without TEST_CLOCK_AT reads the real clock.
const SHIM = path.join(__dirname, '../helpers/clock-shift.cjs');
const yearIn = (env: Record<string, string>): string =>
  execFileSync(
    process.execPath,
    [
      '--require',
      SHIM,
      '-e',
      'process.stdout.write([new Date().getUTCFullYear(), new Date(Date.now()).getUTCFullYear(), Date().includes("2031")].join(" "))',
    ],
    { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' },
  );

test('the clock shim moves Date, Date.now and Date() to TEST_CLOCK_AT', () => {
  expect(yearIn({ TEST_CLOCK_AT: '2031-06-01T12:00:00Z' })).toBe('2031 2031 true');
});

test('without TEST_CLOCK_AT the shim leaves the real clock', () => {
  const year = String(new Date(Date.now()).getUTCFullYear());
  // This test's own process may itself run shifted (npm run test:future): compare with the unshifted child.
  const [plain] = yearIn({}).split(' ');
  expect(Number(plain)).toBeGreaterThanOrEqual(2026);
  if (!process.env.TEST_CLOCK_AT) expect(plain).toBe(year);
});

test('a date given explicitly is not moved, and instanceof Date still holds', () => {
  const out = execFileSync(
    process.execPath,
    [
      '--require',
      SHIM,
      '-e',
      'process.stdout.write([new Date(0).toISOString(), new Date() instanceof Date].join(" "))',
    ],
    { env: { PATH: process.env.PATH ?? '', TEST_CLOCK_AT: '2031-06-01T12:00:00Z' }, encoding: 'utf8' },
  );
  expect(out).toBe('1970-01-01T00:00:00.000Z true');
});

test('a process started later reads the same clock: the offset passed on wins over TEST_CLOCK_AT', () => {
  const tenYears = 10 * 365.25 * 24 * 3_600_000;
  const [year] = yearIn({
    TEST_CLOCK_AT: '2031-06-01T12:00:00Z',
    TEST_CLOCK_OFFSET_MS: String(tenYears),
  }).split(' ');
  // This process may run shifted itself (npm run test:future): the child's offset is from the real clock.
  const realNow = Date.now() - Number(process.env.TEST_CLOCK_OFFSET_MS || 0);
  const expected = new Date(realNow + tenYears).getUTCFullYear();
  // Within a few seconds of a new year the two readings may straddle it.
  expect([expected, expected + 1]).toContain(Number(year));
});
