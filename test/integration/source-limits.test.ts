import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GuardedHttp } from '../../lambdas/adapters/guarded-http';
import type { JobSpec } from '../../lambdas/core/schemas/job';
import { processJob } from '../../lambdas/core/use-cases/job-processing';
import { createJob } from '../../lambdas/core/use-cases/jobs';
import { emulatorDeps, uniqueClient } from '../helpers/integration';

/**
 * SPEC 5.2 and 9 through the guarded client and the emulators: a merchant's server that streams a source
 * forever, with no Content-Length, fails the job with `source_too_large` once 100 MB are read. (Before, a
 * source was cut at about 105 MB and the job completed with what had been read.)
 */

const deps = emulatorDeps({ http: new GuardedHttp({ allowLoopback: true }), allowLoopbackUrls: true });
let server: Server;
let base: string;
let streamed = 0;

beforeAll(async () => {
  // A JSON array of rows that never ends (JSON is read whole before it is parsed, so this measures the
  // guarded client and the byte count, not the parser; the CSV parser's part is in the unit tests).
  const rows = Buffer.from('{"category":"Pizzas","name":"Margherita","price":"12.50"},'.repeat(20_000));
  server = createServer((req, res) => {
    if (req.url === '/declared.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(200 * 1024 * 1024) });
      return void res.end('[');
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[');
    const pump = () => {
      while (!res.destroyed) {
        streamed += rows.length;
        if (!res.write(rows)) return void res.once('drain', pump);
      }
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const job = (source: string): JobSpec => ({
  job_type: 'new_menu',
  processing_type: 'rush',
  job_data: { catalog_sources: [source], merchant_name: 'Joe', language: 'en_us' },
});

describe('a source over 100 MB', () => {
  it('that streams forever fails the job with source_too_large after 100 MB, and nothing is kept', async () => {
    const client = uniqueClient();
    const created = await createJob(deps, client, job(`${base}/forever.json`));
    const outcome = await processJob(deps, client, created.id, {
      attempt: 1,
      maxAttempts: 5,
      leaseSeconds: 900,
    });
    expect(outcome.kind).toBe('failed');
    const stored = await deps.jobs.get(client, created.id);
    expect(stored).toMatchObject({ state: 'failed', results: {}, error: { code: 'source_too_large' } });
    // It stopped reading at the limit (plus what was in flight), not at the source's end.
    expect(streamed).toBeGreaterThan(100 * 1024 * 1024);
    expect(streamed).toBeLessThan(110 * 1024 * 1024);
  });

  it('that says so in Content-Length is refused before its body is read', async () => {
    const client = uniqueClient();
    const created = await createJob(deps, client, job(`${base}/declared.json`));
    await processJob(deps, client, created.id, { attempt: 1, maxAttempts: 5, leaseSeconds: 900 });
    expect(await deps.jobs.get(client, created.id)).toMatchObject({
      state: 'failed',
      error: { code: 'source_too_large', detail: expect.stringContaining('larger than 100 MB') },
    });
  });
});
