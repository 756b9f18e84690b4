import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import Busboy from 'busboy';
import { policySignature } from '../../lambdas/adapters/s3-post-policy';
import { checkSignature, signingCredentialOf } from './s3-auth';
import { S3Error as FormError, sendS3Error as send } from './s3-error';
import { receivePut } from './upload-put';

/**
 * S3's POST object (browser-based uploads with a signed policy), which the S3 emulator (fauxqs) does not
 * implement: a small server that checks a form exactly as S3 does before it stores anything — the policy's
 * signature (SigV4) and expiry, every condition (`eq`, `starts-with`, exact fields, `bucket`), no field left
 * uncovered, and `content-length-range` on the file as its bytes arrive (400 EntityTooLarge past the
 * maximum, the upload cut off there) — and then puts the object into the emulator. It also takes the
 * presigned PUTs of the same uploads (upload-put.ts), bounded by `maxPutBytes`. Answers are S3's: 204 (a
 * form) or 200 (a PUT) on success, XML errors with S3's codes otherwise.
 */
export interface UploadFormOptions {
  readonly s3: S3Client;
  /** Access key id -> secret key: the credentials the local functions sign with. */
  readonly secrets: Readonly<Record<string, string>>;
  readonly now?: () => Date;
  /** 0 (the default) picks a free port; a remembered one keeps forms signed before a restart valid. */
  readonly port?: number;
  /** The largest presigned PUT accepted (SPEC 9: 100 MB); S3 has no such bound, the local runtime does. */
  readonly maxPutBytes: number;
}

export interface UploadFormServer {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

type Condition = Record<string, unknown> | unknown[];

const denied = (why: string) => new FormError(403, 'AccessDenied', `Invalid according to Policy: ${why}`);

/** Checks the fields against the policy; returns the content-length-range to enforce on the file. */
const checkPolicy = (
  bucket: string,
  fields: Map<string, string>,
  options: UploadFormOptions,
): { min: number; max: number } => {
  const field = (name: string) => fields.get(name.toLowerCase());
  const encoded = field('policy');
  const signature = field('x-amz-signature');
  const credential = field('x-amz-credential');
  if (!field('key'))
    throw new FormError(400, 'InvalidArgument', "Bucket POST must contain a field named 'key'.");
  if (!encoded || !signature || !credential || field('x-amz-algorithm') !== 'AWS4-HMAC-SHA256') {
    throw new FormError(400, 'InvalidArgument', 'Bucket POST must contain a signed policy (SigV4 fields).');
  }
  const { secretAccessKey, day, region } = signingCredentialOf(credential, options.secrets);
  checkSignature(policySignature(secretAccessKey, day, region, encoded), signature);
  let policy: { expiration?: string; conditions?: Condition[] };
  try {
    policy = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
  } catch {
    throw new FormError(400, 'InvalidPolicyDocument', 'Invalid Policy: Invalid JSON.');
  }
  const now = (options.now ?? (() => new Date()))();
  if (!policy.expiration || !(Date.parse(policy.expiration) > now.getTime())) throw denied('Policy expired.');
  let range = { min: 0, max: Number.POSITIVE_INFINITY };
  const covered = new Set(['policy', 'x-amz-signature', 'file']);
  const formValue = (name: string) => (name.toLowerCase() === 'bucket' ? bucket : field(name));
  for (const condition of policy.conditions ?? []) {
    if (Array.isArray(condition)) {
      const [op, target, value] = condition as [string, unknown, unknown];
      if (op === 'content-length-range') {
        range = { min: Number(target), max: Number(value) };
        continue;
      }
      const name = String(target).replace(/^\$/, '');
      covered.add(name.toLowerCase());
      const actual = formValue(name) ?? '';
      const holds =
        op === 'eq' ? actual === value : op === 'starts-with' ? actual.startsWith(String(value)) : false;
      if (!holds) throw denied(`Policy Condition failed: ${JSON.stringify(condition)}`);
    } else {
      for (const [name, value] of Object.entries(condition)) {
        covered.add(name.toLowerCase());
        if (formValue(name) !== value) throw denied(`Policy Condition failed: ${JSON.stringify(condition)}`);
      }
    }
  }
  const extra = [...fields.keys()].filter((name) => !covered.has(name) && !name.startsWith('x-ignore-'));
  if (extra.length > 0) throw denied(`Extra input fields: ${extra.join(', ')}`);
  return range;
};

const receive = (req: IncomingMessage, bucket: string, options: UploadFormOptions) =>
  new Promise<{ key: string; contentType?: string; body: Buffer }>((resolve, reject) => {
    let busboy: Busboy.Busboy;
    try {
      busboy = Busboy({ headers: req.headers, limits: { files: 1, fields: 50, fieldSize: 64 * 1024 } });
    } catch {
      reject(
        new FormError(
          412,
          'PreconditionFailed',
          'Bucket POST must be of the enclosure-type multipart/form-data.',
        ),
      );
      return;
    }
    const fields = new Map<string, string>();
    let sawFile = false;
    busboy.on('field', (name, value) => {
      if (!sawFile) fields.set(name.toLowerCase(), value);
    });
    busboy.on('file', (name, stream) => {
      if (name.toLowerCase() !== 'file' || sawFile) {
        stream.resume();
        return;
      }
      sawFile = true;
      let range: { min: number; max: number };
      try {
        range = checkPolicy(bucket, fields, options);
      } catch (error) {
        stream.resume();
        reject(error);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > range.max) {
          stream.removeAllListeners('data');
          stream.resume();
          req.unpipe(busboy);
          reject(
            new FormError(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size'),
          );
          return;
        }
        chunks.push(chunk);
      });
      stream.on('end', () => {
        if (size > range.max) return;
        if (size < range.min) {
          reject(
            new FormError(
              400,
              'EntityTooSmall',
              'Your proposed upload is smaller than the minimum allowed size',
            ),
          );
          return;
        }
        resolve({
          key: fields.get('key')!,
          contentType: fields.get('content-type'),
          body: Buffer.concat(chunks),
        });
      });
    });
    busboy.on('close', () => {
      if (!sawFile)
        reject(new FormError(400, 'InvalidArgument', 'POST requires exactly one file upload per request.'));
    });
    busboy.on('error', () =>
      reject(
        new FormError(
          400,
          'MalformedPOSTRequest',
          'The body of your POST request is not well-formed multipart/form-data.',
        ),
      ),
    );
    req.pipe(busboy);
  });

export const startUploadForms = async (options: UploadFormOptions): Promise<UploadFormServer> => {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const bucket = decodeURIComponent(
      new URL(req.url ?? '/', 'http://localhost').pathname.split('/')[1] ?? '',
    );
    if (!bucket || (req.method !== 'POST' && req.method !== 'PUT')) {
      req.resume();
      return send(
        res,
        new FormError(
          405,
          'MethodNotAllowed',
          'Only POST /<bucket> (an upload form) and PUT /<bucket>/<key> (a presigned PUT) are served here.',
        ),
      );
    }
    try {
      const upload =
        req.method === 'PUT' ? await receivePut(req, options) : await receive(req, bucket, options);
      await options.s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: upload.key,
          Body: upload.body,
          ContentType: upload.contentType,
        }),
      );
      if (req.method === 'PUT') {
        res.writeHead(200, { etag: `"${createHash('md5').update(upload.body).digest('hex')}"` });
      } else res.writeHead(204, { location: `/${bucket}/${upload.key}` });
      res.end();
    } catch (error) {
      // The rest of a refused body is read and dropped, so that the client reads the answer.
      req.resume();
      if (error instanceof FormError) return send(res, error);
      return send(
        res,
        new FormError(500, 'InternalError', 'We encountered an internal error. Please try again.'),
      );
    }
  };
  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
