import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type LocalService, startLocalService } from '../helpers/local-service';

/**
 * Uploads as large as SPEC 9 allows, against `npm start`: a 60 MB file through the command-line client (a
 * presigned PUT, streamed from disk, bytes counted) and through the presigned form, both past the S3
 * emulator's 11 MiB limit per request (the storage front streams them into it as multipart uploads); the
 * bytes come back whole. An upload over 100 MB is refused as S3 refuses it, with nothing stored.
 */
const ROOT = process.cwd();
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const MB = 1024 * 1024;

let service: LocalService;
let work: string;

/** A CSV menu of `bytes` bytes, written as a stream (never held whole); resolves to its SHA-256. */
const bigCsv = async (file: string, bytes: number): Promise<string> => {
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  let written = 0;
  const write = async (text: string) => {
    hash.update(text);
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('category,name,price\n');
  for (let row = 0; written < bytes; row += 1) {
    const line = `Category ${row % 97},Dish number ${row} with a long name to fill the line,${(row % 5000) / 100}\n`;
    const left = bytes - written;
    await write(left >= Buffer.byteLength(line) ? line : 'x'.repeat(left - 1) + '\n');
  }
  out.end();
  await once(out, 'finish');
  return hash.digest('hex');
};

const downloadSha256 = async (index: number, jobId: string, opsKey: string) => {
  const res = await fetch(`${service.url}/v1/ops/jobs/${jobId}/sources/${index}`, {
    headers: { authorization: `Token api_key=${opsKey}` },
  });
  expect(res.status).toBe(200);
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
};

/** Runs a command with `env` as its whole environment (the test's own carries the integration emulators'). */
const run = (command: string, args: string[], env: Record<string, string>, cwd = work) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(command, args, { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

beforeAll(async () => {
  service = await startLocalService();
  work = await mkdtemp(path.join(tmpdir(), 'large-upload-'));
}, 120_000);

afterAll(async () => {
  await service?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('uploads up to 100 MB, locally as in AWS', () => {
  it('takes a 60 MB file by PUT (the CLI, streamed) and by the form, and gives the same bytes back', async () => {
    const file = path.join(work, 'big-menu.csv');
    const sha256 = await bigCsv(file, 60 * MB);
    expect((await stat(file)).size).toBe(60 * MB);

    const cli = await run(TSX, [path.join(ROOT, 'bin', 'catalog.ts'), 'files', 'upload', 'big-menu.csv'], {
      ...service.keysEnv,
      CATALOG_API_URL: service.url,
      CATALOG_API_KEY: service.apiKey,
    });
    expect({ code: cli.code, stderr: cli.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(cli.stderr).toContain('uploading big-menu.csv: 60.0 MB of 60.0 MB (100%)');
    const put = JSON.parse(cli.stdout);
    expect(put).toMatchObject({ state: 'uploaded', size_bytes: 60 * MB, content_type: 'text/csv' });

    const created = await service.request('/v1/files', {
      method: 'POST',
      body: JSON.stringify({ filename: 'big-menu.csv', content_type: 'text/csv' }),
    });
    const form = new FormData();
    for (const [name, value] of Object.entries(created.json.upload_form.fields as Record<string, string>)) {
      form.append(name, value);
    }
    form.append('file', await openAsBlob(file, { type: 'text/csv' }), 'big-menu.csv');
    const posted = await fetch(created.json.upload_form.url, { method: 'POST', body: form });
    expect(posted.status).toBe(204);
    expect((await service.request(`/v1/files/${created.json.id}`)).json).toMatchObject({
      state: 'uploaded',
      size_bytes: 60 * MB,
    });

    // Both read back whole, through the operations route that serves a job's sources.
    const keys = await run(
      TSX,
      [path.join(ROOT, 'bin', 'keys.ts'), 'create', '--client', 'ops', '--scope', 'operator'],
      service.keysEnv,
      ROOT,
    );
    const opsKey = JSON.parse(keys.stdout.trim()).api_key as string;
    const job = await service.request('/v1/jobs', {
      method: 'POST',
      body: JSON.stringify({
        job: {
          job_type: 'new_menu',
          processing_type: 'standard',
          job_data: { catalog_sources: [put.id, created.json.id], merchant_name: 'Big Menu' },
        },
      }),
    });
    expect(job.status).toBe(201);
    expect(await downloadSha256(0, job.json.id, opsKey)).toEqual({ sha256, size: 60 * MB });
    expect(await downloadSha256(1, job.json.id, opsKey)).toEqual({ sha256, size: 60 * MB });
  }, 240_000);

  it('refuses a PUT over 100 MB as S3 refuses it (400 EntityTooLarge), storing nothing', async () => {
    const created = await service.request('/v1/files', {
      method: 'POST',
      body: JSON.stringify({ filename: 'huge.csv', content_type: 'text/csv' }),
    });
    // Declared, not sent: the front answers from the Content-Length before reading any of the body.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(created.json.upload_url, {
        method: 'PUT',
        headers: { ...created.json.upload_headers, 'content-length': String(100 * MB + 1) },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('<Code>EntityTooLarge</Code>');
    expect((await service.request(`/v1/files/${created.json.id}`)).json).toMatchObject({ state: 'pending' });
  }, 60_000);
});
