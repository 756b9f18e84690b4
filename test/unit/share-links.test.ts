import ExcelJS from 'exceljs';
import { shareLinkDownload } from '../../lambdas/core/catalog/share-links';
import type { JobRecord } from '../../lambdas/core/model';
import type { OutboundRequest, OutboundResponse } from '../../lambdas/core/ports';
import { processJob } from '../../lambdas/core/use-cases/job-processing';
import { aJob } from '../helpers/factories';
import { type FakeDeps, fakeDeps } from '../helpers/fakes';

const SHEET_ID = '1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcd';

describe('shareLinkDownload: a share link is fetched as the file it shows', () => {
  test.each([
    [
      `https://docs.google.com/spreadsheets/d/${SHEET_ID}/edit?usp=sharing#gid=0`,
      `https://docs.google.com/spreadsheets/d/${SHEET_ID}/export?format=xlsx`,
    ],
    [
      `https://docs.google.com/spreadsheets/u/1/d/${SHEET_ID}/view`,
      `https://docs.google.com/spreadsheets/d/${SHEET_ID}/export?format=xlsx`,
    ],
    [
      `https://docs.google.com/spreadsheets/d/${SHEET_ID}`,
      `https://docs.google.com/spreadsheets/d/${SHEET_ID}/export?format=xlsx`,
    ],
    [
      `https://docs.google.com/spreadsheets/d/e/2PACX-${SHEET_ID}/pubhtml`,
      `https://docs.google.com/spreadsheets/d/e/2PACX-${SHEET_ID}/pub?output=xlsx`,
    ],
    [
      `https://docs.google.com/document/d/${SHEET_ID}/edit`,
      `https://docs.google.com/document/d/${SHEET_ID}/export?format=pdf`,
    ],
    [
      `https://drive.google.com/file/d/${SHEET_ID}/view?usp=drive_link`,
      `https://drive.google.com/uc?export=download&id=${SHEET_ID}`,
    ],
    [
      `https://drive.google.com/open?id=${SHEET_ID}`,
      `https://drive.google.com/uc?export=download&id=${SHEET_ID}`,
    ],
    [
      'https://www.dropbox.com/scl/fi/abc123/menu.xlsx?rlkey=xyz&dl=0',
      'https://www.dropbox.com/scl/fi/abc123/menu.xlsx?rlkey=xyz&dl=1',
    ],
    ['https://www.dropbox.com/s/abc123/menu.csv', 'https://www.dropbox.com/s/abc123/menu.csv?dl=1'],
  ])('%s → %s', (link, download) => {
    expect(shareLinkDownload(link)?.download).toBe(download);
  });

  test.each([
    `https://docs.google.com/spreadsheets/d/${SHEET_ID}/export?format=csv&gid=0`,
    `https://docs.google.com/spreadsheets/d/e/2PACX-${SHEET_ID}/pub?output=csv`,
    'https://www.dropbox.com/s/abc123/menu.csv?dl=1',
    'https://www.dropbox.com/home/menus',
    'https://docs.google.com/forms/d/abcdefghijklmnop/viewform',
    'https://example.com/spreadsheets/d/abcdefghijklmnop/edit',
    'ftp://docs.google.com/spreadsheets/d/abcdefghijklmnop/edit',
    'not a url',
  ])('%s is fetched as given', (url) => {
    expect(shareLinkDownload(url)).toBeUndefined();
  });
});

describe('a job whose source is a share link', () => {
  const workbook = async (): Promise<Buffer> => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Food').addRows([
      ['Item', 'Price'],
      ['Soup', 5.5],
    ]);
    book.addWorksheet('Drinks').addRows([
      ['Item', 'Price'],
      ['Cola', 2.5],
    ]);
    return Buffer.from(await book.xlsx.writeBuffer());
  };

  const depsAnswering = (answer: (request: OutboundRequest) => Promise<OutboundResponse>) => {
    const deps: FakeDeps = fakeDeps();
    const requests: string[] = [];
    Object.assign(deps, {
      http: {
        request: (request: OutboundRequest) => {
          requests.push(request.url);
          return answer(request);
        },
      },
    });
    return { deps, requests };
  };

  const run = async (deps: FakeDeps, source: string) => {
    const job = aJob({
      jobData: { catalog_sources: [source], merchant_name: 'Joe', language: 'en_us' } as JobRecord['jobData'],
    });
    await deps.jobs.create(job);
    return processJob(deps, job.clientId, job.id, { attempt: 1, maxAttempts: 5, leaseSeconds: 900 });
  };

  const link = `https://docs.google.com/spreadsheets/d/${SHEET_ID}/edit#gid=0`;

  it('reads every tab of a Google Sheets link, the source named as the merchant gave it', async () => {
    const bytes = await workbook();
    const { deps, requests } = depsAnswering(async () => ({
      status: 200,
      headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
      url: 'https://doc-0s-export.googleusercontent.com/export/abc',
      body: (async function* () {
        yield bytes;
      })(),
    }));
    const outcome = await run(deps, link);
    expect(requests).toEqual([`https://docs.google.com/spreadsheets/d/${SHEET_ID}/export?format=xlsx`]);
    expect(outcome.kind).toBe('completed');
    const results = outcome.kind === 'completed' ? (outcome.job.results as Record<string, unknown>) : {};
    expect(results.catalog).toMatchObject({ item_count: 2, category_count: 2 });
    expect(results.sources).toEqual([expect.objectContaining({ source: link, format: 'xlsx' })]);
  });

  it('fails clearly when the file is not shared (the service answers with its sign-in page)', async () => {
    const { deps } = depsAnswering(async () => ({
      status: 200,
      headers: { 'content-type': 'text/html' },
      url: 'https://accounts.google.com/v3/signin/identifier?continue=https://docs.google.com',
      body: (async function* () {
        yield Buffer.from('<!doctype html><html><body>Sign in</body></html>');
      })(),
    }));
    const outcome = await run(deps, link);
    expect(outcome.kind).toBe('failed');
    expect(outcome.kind !== 'skipped' && outcome.job.error).toMatchObject({
      code: 'source_unreadable',
      detail: expect.stringMatching(/not shared with everyone: Google Sheets asked to sign in/),
    });
  });
});
