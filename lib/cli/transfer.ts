import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { ApiClient, Fetch } from './api';

/** Uploads and downloads: the presigned S3 URLs the service hands out (no API key is sent to them). */

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** SPEC 3.3: files up to 100 MB. */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

const MEDIA_TYPES: Record<string, string> = {
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.jsonl': 'application/x-ndjson',
  '.ndjson': 'application/x-ndjson',
  '.ods': 'application/vnd.oasis.opendocument.spreadsheet',
  '.numbers': 'application/vnd.apple.numbers',
  '.xml': 'application/xml',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.xls': 'application/vnd.ms-excel',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/** The media type a file name suggests; `application/octet-stream` when it suggests none. */
export const mediaTypeOf = (filename: string): string =>
  MEDIA_TYPES[path.extname(filename).toLowerCase()] ?? 'application/octet-stream';

export interface UploadedFile {
  readonly id: string;
  readonly state: string;
  readonly filename: string;
  readonly content_type: string;
  readonly upload_url: string | null;
  /** The headers the PUT to upload_url carries as they are (its signature covers them). */
  readonly upload_headers?: Readonly<Record<string, string>> | null;
  /** The presigned form: its fields are sent as they are before the file. */
  readonly upload_form?: { readonly url: string; readonly fields: Readonly<Record<string, string>> } | null;
  readonly size_bytes: number | null;
}

/** Told how many bytes of how many have gone out. */
export type UploadProgress = (sent: number, total: number) => void;

/** The file's bytes as a stream, counting them out as they are sent. */
const counted = (filePath: string, total: number, onProgress?: UploadProgress) => {
  let sent = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sent += chunk.length;
      onProgress?.(sent, total);
      done(null, chunk);
    },
  });
  return Readable.toWeb(createReadStream(filePath).pipe(count)) as unknown as ReadableStream<Uint8Array>;
};

/**
 * POST /v1/files, then PUT the file to `upload_url` with the headers of `upload_headers` (the declared
 * Content-Type and `If-None-Match: *`: the file is written once, as what it says it is), streamed from disk
 * with its Content-Length (never read whole: up to 100 MB), telling `onProgress` the bytes sent; then GET the
 * file to see it `uploaded`.
 */
export const uploadFile = async (
  api: ApiClient,
  fetch: Fetch,
  filePath: string,
  contentType = mediaTypeOf(filePath),
  onProgress?: UploadProgress,
): Promise<UploadedFile> => {
  const info = await stat(filePath).catch(() => undefined);
  if (!info?.isFile()) throw new CliError(`${filePath}: no such file`, 2);
  if (info.size > MAX_UPLOAD_BYTES)
    throw new CliError(`${filePath}: larger than 100 MB, the upload limit`, 2);
  const created = await api.request<UploadedFile>('POST', '/v1/files', {
    body: { filename: path.basename(filePath), content_type: contentType },
  });
  const { upload_url: putUrl, upload_headers: putHeaders } = created.body;
  if (!putUrl) throw new CliError(`the service gave no upload_url for file ${created.body.id}`);
  let answer: Response;
  try {
    answer = await fetch(putUrl, {
      method: 'PUT',
      body: counted(filePath, info.size, onProgress),
      headers: { 'content-type': contentType, ...putHeaders, 'content-length': String(info.size) },
      duplex: 'half',
    } as RequestInit);
  } catch (error) {
    throw new CliError(
      `uploading ${filePath} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!answer.ok) {
    const text = await answer.text();
    const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
    const detail = code ?? text.slice(0, 300);
    throw new CliError(
      `uploading ${filePath} failed: the upload URL answered ${answer.status} ${detail}`.trim(),
    );
  }
  await answer.arrayBuffer().catch(() => undefined);
  const file = await api.get<UploadedFile>(`/v1/files/${encodeURIComponent(created.body.id)}`);
  if (file.body.state !== 'uploaded') {
    throw new CliError(`file ${file.body.id} is still ${file.body.state} after its upload`);
  }
  return file.body;
};

export interface DownloadResult {
  readonly path: string;
  readonly sizeBytes: number;
  readonly sha256: string;
}

/**
 * Streams `url` to `target` (through a temporary file beside it, renamed once complete) and checks the
 * size and SHA-256 the export announced, when it did.
 */
export const download = async (
  fetch: Fetch,
  url: string,
  target: string,
  expected?: { readonly size_bytes: number; readonly checksum_sha256: string } | null,
): Promise<DownloadResult> => {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new CliError(
      `downloading the export failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!response.ok || !response.body) {
    throw new CliError(`downloading the export failed: delivery_url answered ${response.status}`);
  }
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.part`);
  const hash = createHash('sha256');
  let size = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(response.body as unknown as WebReadableStream),
      measure,
      createWriteStream(temporary),
    );
    const sha256 = hash.digest('hex');
    if (expected && (expected.size_bytes !== size || expected.checksum_sha256 !== sha256)) {
      throw new CliError(
        `the download does not match the export: ${size} bytes, sha256 ${sha256}; expected ` +
          `${expected.size_bytes} bytes, sha256 ${expected.checksum_sha256}`,
      );
    }
    await rename(temporary, target);
    return { path: target, sizeBytes: size, sha256 };
  } catch (error) {
    await rm(temporary, { force: true });
    if (error instanceof CliError) throw error;
    throw new CliError(`writing ${target} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
};
