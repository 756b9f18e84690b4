import { createCanvas } from '@napi-rs/canvas';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { OcrPage, TextRecognizer } from '../../lambdas/core/catalog/drafts/ports';
import type { JobRecord } from '../../lambdas/core/model';
import type { OutboundRequest } from '../../lambdas/core/ports';
import { processJob } from '../../lambdas/core/use-cases/job-processing';
import { type DraftingAdapters, makeJobWorkerHandler } from '../../lambdas/handlers/queue/job-worker';
import { aJob, eventually, lambdaContext, sqsRecord } from '../helpers/factories';
import { type FakeDeps, fakeDeps, ScriptedHttp } from '../helpers/fakes';

/**
 * Issue 25, in Lambda: a crash while one job is processed fails that job's attempt only. A job-worker
 * invocation holds one record (lib/resources.ts batchSize 1) in an environment of its own; within a batch
 * a thrown error fails only its record (partial batch response), the job is given back at once, and the
 * redelivery of its message takes it over. Each job reads its photos with an OCR engine of its own, so that
 * one job ending (or failing on a truncated PNG) never ends the engine another job is reading with.
 */

const MENU = 'category,name,price\nPizza,Margherita,12.50\nDrinks,Cola,2.50\n';

const jobOf = async (deps: FakeDeps, source: string): Promise<JobRecord> => {
  const job = aJob({
    jobData: { catalog_sources: [source], merchant_name: 'Joe', language: 'en_us' } as JobRecord['jobData'],
  });
  await deps.jobs.create(job);
  return job;
};

const messageOf = (job: JobRecord, messageId?: string, receiveCount = 1) =>
  sqsRecord(
    { kind: 'job', clientId: job.clientId, jobId: job.id },
    {
      ...(messageId ? { messageId } : {}),
      attributes: {
        ApproximateReceiveCount: String(receiveCount),
        SentTimestamp: '0',
        SenderId: 'test',
        ApproximateFirstReceiveTimestamp: '0',
      },
    },
  );

const invoke = (handler: ReturnType<typeof makeJobWorkerHandler>, ...records: SQSEvent['Records']) =>
  handler({ Records: records }, lambdaContext()) as Promise<SQSBatchResponse>;

const png = (): Buffer => {
  const canvas = createCanvas(320, 200);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, 320, 200);
  g.fillStyle = '#000';
  g.font = '24px sans-serif';
  g.fillText('Margherita 12.50', 20, 100);
  return canvas.toBuffer('image/png');
};

/** A page of words, as Tesseract would read the photo above. */
const PAGE: OcrPage = {
  width: 320,
  height: 200,
  words: [
    { text: 'Margherita', x: 20, y: 80, width: 130, height: 26, confidence: 0.9, lineHeight: 26 },
    { text: '12.50', x: 170, y: 80, width: 60, height: 26, confidence: 0.9, lineHeight: 26 },
  ],
};

/** An OCR engine that notes being released while a page is read with it (what ended the thread before). */
class WatchedRecognizer implements TextRecognizer {
  reading = 0;
  releasedWhileReading = false;
  constructor(private readonly gate: Promise<void>) {}
  async recognize(): Promise<OcrPage> {
    this.reading++;
    try {
      await this.gate;
      return PAGE;
    } finally {
      this.reading--;
    }
  }
  async detectOrientation() {
    return undefined;
  }
  async release(): Promise<void> {
    if (this.reading > 0) this.releasedWhileReading = true;
  }
}

describe('the job worker: a crash fails one job’s attempt only', () => {
  it('fails only the record whose processing threw; the other completes; the job is given back at once', async () => {
    const deps = fakeDeps({
      http: new ScriptedHttp((request: OutboundRequest) =>
        request.url.includes('crash')
          ? new TypeError("Cannot read properties of null (reading 'postMessage')")
          : { status: 200, headers: { 'content-type': 'text/csv' }, body: MENU },
      ),
    });
    const crashing = await jobOf(deps, 'https://m.example.com/crash.csv');
    const healthy = await jobOf(deps, 'https://m.example.com/menu.csv');
    const crashed = messageOf(crashing);
    const handler = makeJobWorkerHandler(deps);
    const response = await invoke(handler, crashed, messageOf(healthy));

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: crashed.messageId }]);
    expect((await deps.jobs.get(healthy.clientId, healthy.id))?.state).toBe('completed');
    // Given back: still processing, with no lease, so that its next delivery takes it at once.
    const givenBack = await deps.jobs.get(crashing.clientId, crashing.id);
    expect(givenBack).toMatchObject({ state: 'processing', leaseUntil: null });
  });

  it('lets the redelivery of the message that holds a job take it over; a duplicate message waits', async () => {
    const deps = fakeDeps({
      http: new ScriptedHttp(() => ({ status: 200, headers: { 'content-type': 'text/csv' }, body: MENU })),
    });
    // Its worker died holding it (a thread that ended, a killed process): the lease still runs.
    const job = await jobOf(deps, 'https://m.example.com/menu.csv');
    const at = deps.clock.now().toISOString();
    await deps.jobs.transition(job.clientId, job.id, {
      event: 'claim',
      expectedVersion: 1,
      set: {
        leaseUntil: new Date(deps.clock.now().getTime() + 960_000).toISOString(),
        leaseMessageId: 'm-1',
      },
      at,
    });
    const delivery = (messageId: string) => ({ messageId, attempt: 2, maxAttempts: 5, leaseSeconds: 960 });
    expect(await processJob(deps, job.clientId, job.id, delivery('m-2'))).toEqual({
      kind: 'skipped',
      reason: 'busy',
    });
    expect((await processJob(deps, job.clientId, job.id, delivery('m-1'))).kind).toBe('completed');
  });

  it('gives every job an OCR engine of its own: one job ending never ends another’s page', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const made: WatchedRecognizer[] = [];
    const photo = png();
    const deps = fakeDeps({
      http: new ScriptedHttp((request) =>
        request.url.endsWith('.png')
          ? { status: 200, headers: { 'content-type': 'image/png' }, body: photo }
          : { status: 200, headers: { 'content-type': 'text/csv' }, body: MENU },
      ),
    });
    const drafting = (): DraftingAdapters => {
      const recognizer = new WatchedRecognizer(gate);
      made.push(recognizer);
      return { recognizer };
    };
    const handler = makeJobWorkerHandler({ ...deps, drafting });
    const photoJob = await jobOf(deps, 'https://m.example.com/menu.png');
    const csvJob = await jobOf(deps, 'https://m.example.com/menu.csv');

    // The photo job reads its page (held open); meanwhile the CSV job runs from start to end.
    const reading = invoke(handler, messageOf(photoJob));
    await eventually(async () => (made.some((r) => r.reading > 0) ? true : undefined), {
      what: 'the photo job to read its page',
    });
    expect((await invoke(handler, messageOf(csvJob))).batchItemFailures).toEqual([]);
    open();
    expect((await reading).batchItemFailures).toEqual([]);

    expect(made.length).toBe(2);
    expect(made.some((r) => r.releasedWhileReading)).toBe(false);
    expect((await deps.jobs.get(photoJob.clientId, photoJob.id))?.state).toBe('in_review');
    expect((await deps.jobs.get(csvJob.clientId, csvJob.id))?.state).toBe('completed');
  });
});
