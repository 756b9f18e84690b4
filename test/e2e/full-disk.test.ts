import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from '../helpers/factories';
import { type LocalService, startLocalService } from '../helpers/local-service';

/**
 * Issue 25, finding 3, against `npm start`: a disk that fills up. The disk is made "full" for the service's
 * process only, with its file-size limit (RLIMIT_FSIZE, `prlimit`): every write that would grow a file
 * fails, as on a full disk (EFBIG where a full disk says ENOSPC; LevelDB and SQLite fail alike), and the
 * limit is lifted again to give the space back. The DynamoDB emulator's LevelDB store failed a write and
 * dynalite threw where nothing could catch it: the whole service ended, and every request after it was
 * refused. Needs Linux's `prlimit` (util-linux); skipped, saying so, where there is none.
 */

const prlimitAvailable = (() => {
  if (process.platform !== 'linux') return false;
  try {
    execFileSync('prlimit', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const itOnLinux = prlimitAvailable ? it : it.skip;
if (!prlimitAvailable)
  console.warn('full-disk.test.ts: no prlimit on this machine; the full-disk test is skipped');

jest.setTimeout(180_000);

let service: LocalService;
let files: Server;
let source: string;

beforeAll(async () => {
  files = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.end('category,name,price\nPizza,Margherita,12.50\nDrinks,Cola,2.50\n');
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', () => resolve()));
  source = `http://127.0.0.1:${(files.address() as AddressInfo).port}/menu.csv`;
  if (prlimitAvailable) service = await startLocalService({ LOG_REQUESTS: 'true' });
}, 120_000);

afterAll(async () => {
  if (service) {
    // Whatever happened above, the service gets its disk back before it is stopped.
    setDiskFull(false);
    await service.stop();
  }
  files?.closeAllConnections();
  await new Promise<void>((resolve) => files?.close(() => resolve()) ?? resolve());
});

/** The service's process (node running bin/local.ts, threads and all) may grow no file / any file. */
const setDiskFull = (full: boolean) =>
  execFileSync('prlimit', ['--pid', String(service.pid), `--fsize=${full ? 1 : 'unlimited'}:unlimited`]);

const createJob = (key: string) =>
  service.request('/v1/jobs', {
    method: 'POST',
    headers: { 'idempotency-key': key },
    body: JSON.stringify({
      job: {
        job_type: 'new_menu',
        processing_type: 'rush',
        job_data: { catalog_sources: [source], merchant_name: 'Joe' },
      },
    }),
  });

const stateOf = async (id: string) => (await service.request(`/v1/jobs/${id}`)).json?.state;

describe('npm start on a full disk', () => {
  itOnLinux(
    'answers 503 with Retry-After while the disk is full, loses nothing, and carries on when space returns',
    async () => {
      const before = await createJob('before-full');
      expect(before.status).toBe(201);
      await eventually(async () => ((await stateOf(before.json.id)) === 'completed' ? true : undefined), {
        what: 'the first job to complete',
      });

      setDiskFull(true);
      for (let i = 0; i < 5; i++) {
        const refused = await createJob('while-full');
        expect(refused.status).toBe(503);
        expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(refused.headers.get('content-type')).toBe('application/problem+json');
        expect(refused.json.code).toBe('service_unavailable');
      }
      // Still listening: the API reference needs no store.
      expect((await fetch(`${service.url}/openapi.json`)).status).toBe(200);

      setDiskFull(false);
      const created = await eventually(
        async () => {
          const res = await createJob('while-full');
          return res.status === 201 ? res : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 500, what: 'a create to succeed once space returns' },
      );
      await eventually(async () => ((await stateOf(created.json.id)) === 'completed' ? true : undefined), {
        timeoutMs: 60_000,
        what: 'the job created after the disk was freed to complete',
      });
      // Nothing accepted was lost, and nothing refused was made: exactly the two jobs.
      const listed = await service.request('/v1/jobs?limit=10');
      expect(listed.json.data.map((j: { id: string }) => j.id).sort()).toEqual(
        [before.json.id, created.json.id].sort(),
      );
      expect(await stateOf(before.json.id)).toBe('completed');
      expect(
        service.output.some((line) => line.includes('the DynamoDB emulator stopped and is started again')),
      ).toBe(true);
    },
  );
});
