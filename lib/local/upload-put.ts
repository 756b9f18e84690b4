import type { IncomingMessage } from 'node:http';
import aws4 from 'aws4';
import { checkSignature, signingCredentialOf } from './s3-auth';
import { S3Error } from './s3-error';

/** What a presigned PUT needs of the upload server's options. */
export interface PutOptions {
  readonly secrets: Readonly<Record<string, string>>;
  readonly now?: () => Date;
  readonly maxPutBytes: number;
}

const tooLarge = () =>
  new S3Error(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');

/** `20261122T203040Z` → epoch milliseconds (NaN when malformed). */
const amzDate = (value: string): number => {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`) : Number.NaN;
};

/**
 * Checks a presigned PUT as S3 does (SigV4 query signature over the host it was signed for, and its expiry)
 * before anything is read or stored.
 */
const checkPresignedPut = (req: IncomingMessage, url: URL, options: PutOptions): void => {
  const query = url.searchParams;
  const signature = query.get('X-Amz-Signature');
  const credential = query.get('X-Amz-Credential');
  const date = query.get('X-Amz-Date');
  const expires = Number(query.get('X-Amz-Expires'));
  if (!signature || !credential || !date || !Number.isInteger(expires) || expires <= 0) {
    throw new S3Error(
      403,
      'AccessDenied',
      'Query-string authentication requires X-Amz-Credential, X-Amz-Date, X-Amz-Expires and X-Amz-Signature.',
    );
  }
  const { accessKeyId, secretAccessKey, region } = signingCredentialOf(credential, options.secrets);
  const signedAt = amzDate(date);
  const now = (options.now ?? (() => new Date()))().getTime();
  if (!(signedAt + expires * 1000 > now)) throw new S3Error(403, 'AccessDenied', 'Request has expired');
  const unsigned = new URL(url);
  unsigned.searchParams.delete('X-Amz-Signature');
  const request: aws4.Request = {
    host: req.headers.host ?? '',
    path: `${unsigned.pathname}${unsigned.search}`,
    method: 'PUT',
    service: 's3',
    region,
    signQuery: true,
    headers: {},
  };
  aws4.sign(request, { accessKeyId, secretAccessKey });
  checkSignature(
    new URL(request.path ?? '', 'http://signed').searchParams.get('X-Amz-Signature') ?? '',
    signature,
  );
};

/**
 * A presigned PUT of an upload (SPEC 3.3): the signature checked, then the body read up to `maxPutBytes` —
 * a larger Content-Length is refused before any byte is read, a body that runs past it is cut off there
 * (400 EntityTooLarge); nothing is stored unless the whole body arrived.
 */
export const receivePut = async (
  req: IncomingMessage,
  options: PutOptions,
): Promise<{ key: string; contentType?: string; body: Buffer }> => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const segments = url.pathname.split('/').slice(2);
  let key: string;
  try {
    key = segments.map(decodeURIComponent).join('/');
  } catch {
    throw new S3Error(400, 'InvalidURI', 'Could not parse the specified URI.');
  }
  if (!key) throw new S3Error(400, 'InvalidArgument', 'A PUT needs an object key: PUT /<bucket>/<key>.');
  checkPresignedPut(req, url, options);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxPutBytes) throw tooLarge();
  const body = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > options.maxPutBytes) {
        req.off('data', onData);
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', () => reject(new S3Error(400, 'IncompleteBody', 'The request body ended early.')));
    req.once('aborted', () => reject(new S3Error(400, 'IncompleteBody', 'The request body ended early.')));
  });
  const contentType = req.headers['content-type'];
  return { key, ...(contentType ? { contentType } : {}), body };
};
