import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CORPUS } from '../fixtures/drafts/corpus';
import { menuPhoto } from '../fixtures/drafts/menus';
import { eventually } from '../helpers/factories';
import { type LocalService, startLocalService } from '../helpers/local-service';

/**
 * Issue 25, finding 1, against `npm start`: a photo job, then a job on a PNG cut in half beside another
 * client's CSV job. The OCR engine was shared by every job of the job worker's thread: the CSV job's end (or
 * the PNG's failure) ended it under the photo job, whose next page posted to the ended engine; that error
 * ended the thread, and every job in it (the CSV one too) stayed `processing` for the 90 minutes of the
 * queue's visibility timeout.
 */

jest.setTimeout(180_000);

let service: LocalService;
let files: Server;
let base: string;

beforeAll(async () => {
  const photo = await menuPhoto(CORPUS[0]!);
  const png = await menuPhoto(CORPUS[1]!, { format: 'png' });
  const halfPng = png.subarray(0, png.length >> 1);
  files = createServer((req, res) => {
    if (req.url === '/menu.jpg') return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
    if (req.url === '/cut.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(halfPng);
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.end('category,name,price\nPizza,Margherita,12.50\nDrinks,Cola,2.50\n');
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  // The gateway's log carries the consumers' thread failures.
  service = await startLocalService({ LOG_REQUESTS: 'true' });
}, 120_000);

afterAll(async () => {
  await service?.stop();
  files?.closeAllConnections();
  await new Promise<void>((resolve) => files?.close(() => resolve()) ?? resolve());
});

const create = async (source: string): Promise<string> => {
  const res = await service.request('/v1/jobs', {
    method: 'POST',
    body: JSON.stringify({
      job: {
        job_type: 'new_menu',
        processing_type: 'rush',
        job_data: { catalog_sources: [source], merchant_name: 'Joe' },
      },
    }),
  });
  expect(res.status).toBe(201);
  return res.json.id as string;
};

const stateOf = async (id: string): Promise<string> => (await service.request(`/v1/jobs/${id}`)).json.state;

describe('npm start: a job that fails in the OCR engine strands nobody', () => {
  it('finishes a photo job, a cut PNG job and a CSV job side by side, and no consumer thread dies', async () => {
    const photo = await create(`${base}/menu.jpg`);
    // The photo job is reading its page when the other two come.
    await eventually(async () => ((await stateOf(photo)) === 'processing' ? true : undefined), {
      what: 'the photo job to start',
    });
    const cut = await create(`${base}/cut.png`);
    const csv = await create(`${base}/menu.csv`);
    const finished = await eventually(
      async () => {
        const states = await Promise.all([photo, cut, csv].map(stateOf));
        return states.every((s) => s !== 'initiated' && s !== 'processing') ? states : undefined;
      },
      { timeoutMs: 150_000, intervalMs: 500, what: 'the three jobs to leave processing' },
    );
    expect(finished[0]).toBe('in_review');
    expect(finished[2]).toBe('completed');
    expect(['in_review', 'failed']).toContain(finished[1]);
    expect(service.output.filter((line) => /thread (failed|exited)/.test(line))).toEqual([]);
  });
});
