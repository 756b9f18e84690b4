import type { IncomingMessage } from 'node:http';
import Busboy from 'busboy';
import { type BoundedBody, boundedBody } from './bounded-body';
import { checkSignature, policySignature, signingCredentialOf } from './s3-auth';
import { S3Error as FormError } from './s3-error';

/**
 * S3's POST object (browser-based uploads with a signed policy), which the S3 emulator (fauxqs) does not
 * implement, checked exactly as S3 checks it before anything is stored: the policy's signature (SigV4) and
 * expiry, every condition (`eq`, `starts-with`, exact fields, `bucket`), no field left uncovered, and
 * `content-length-range` on the file as its bytes arrive (400 EntityTooLarge past the maximum, the upload cut
 * off there). The storage front (storage-front.ts) then streams the file into the emulator.
 */
export interface FormOptions {
  /** Access key id -> secret key: the credentials the local functions sign with. */
  readonly secrets: Readonly<Record<string, string>>;
  readonly now?: () => Date;
}

type Condition = Record<string, unknown> | unknown[];

const denied = (why: string) => new FormError(403, 'AccessDenied', `Invalid according to Policy: ${why}`);

/** Checks the fields against the policy; returns the content-length-range to enforce on the file. */
const checkPolicy = (
  bucket: string,
  fields: Map<string, string>,
  options: FormOptions,
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

/**
 * Reads a form's fields up to its file, checks them against the signed policy, and resolves with the file as
 * a stream bounded by the policy's `content-length-range` (boundedBody), before any of its bytes is stored.
 */
export const receiveForm = (
  req: IncomingMessage,
  bucket: string,
  options: FormOptions,
): Promise<{ key: string; contentType?: string; body: BoundedBody }> =>
  new Promise((resolve, reject) => {
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
      const body = boundedBody(range);
      req.once('aborted', () =>
        body.destroy(new FormError(400, 'IncompleteBody', 'The request body ended early.')),
      );
      resolve({ key: fields.get('key')!, contentType: fields.get('content-type'), body: stream.pipe(body) });
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
