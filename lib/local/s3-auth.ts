import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { S3Error } from './s3-error';

/**
 * Signature Version 4 as S3 checks it, for the local storage front (storage-front.ts): presigned URLs
 * (query-string authentication) and signed headers (`Authorization: AWS4-HMAC-SHA256 …`), and the signature
 * of a POST policy. Written from the SigV4 specification ("Create a signed AWS API request", "Authenticating
 * Requests: Using Query Parameters" of the S3 API reference); the unit tests check it against what the SDK's
 * own signer produces.
 */

/** The signing credential an `X-Amz-Credential` value names (`<key id>/<day>/<region>/s3/aws4_request`). */
export interface SigningCredential {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly day: string;
  readonly region: string;
}

/** The credential `X-Amz-Credential` names, if it is one of `secrets` and scoped to S3; else 403 as S3 answers. */
export const signingCredentialOf = (
  credential: string,
  secrets: Readonly<Record<string, string>>,
): SigningCredential => {
  const [accessKeyId, day, region, service, terminator] = credential.split('/');
  const secretAccessKey = accessKeyId === undefined ? undefined : secrets[accessKeyId];
  if (
    !accessKeyId ||
    !secretAccessKey ||
    !day ||
    !region ||
    service !== 's3' ||
    terminator !== 'aws4_request'
  ) {
    throw new S3Error(403, 'InvalidAccessKeyId', 'The AWS access key id in the credential is unknown.');
  }
  return { accessKeyId, secretAccessKey, day, region };
};

/** Compares the signature given with the one computed, in constant time; 403 SignatureDoesNotMatch if not. */
export const checkSignature = (expected: string, given: string): void => {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new S3Error(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match.');
  }
};

const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();
const sha256 = (data: string): string => createHash('sha256').update(data, 'utf8').digest('hex');

/** SigV4's signing key for a day, region and service. */
export const signingKey = (secret: string, day: string, region: string, service: string): Buffer =>
  hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');

/** The signature of a base64 POST policy: S3 recomputes it from the credential scope in the form. */
export const policySignature = (secret: string, day: string, region: string, policy: string): string =>
  hmac(signingKey(secret, day, region, 's3'), policy).toString('hex');

/** RFC 3986 escaping as SigV4 wants it: everything but unreserved characters, `*` and `'` included. */
const uriEscape = (value: string): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** `20261122T203040Z` → epoch milliseconds (NaN when malformed). */
export const amzDateMs = (value: string): number => {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`) : Number.NaN;
};

/** S3 refuses a presigned URL valid for longer than seven days. */
const MAX_EXPIRES_SECONDS = 604_800;
/** And a header-signed request whose date is more than 15 minutes off (RequestTimeTooSkewed). */
const MAX_SKEW_MS = 15 * 60_000;

const headerValue = (headers: IncomingHttpHeaders, name: string): string => {
  const value = headers[name];
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
  return joined.trim().replace(/\s+/g, ' ');
};

const accessDenied = (message: string) => new S3Error(403, 'AccessDenied', message);

/** What a verified request was signed with. */
export interface VerifiedRequest {
  readonly accessKeyId: string;
  /** Header names the signature covers (lower case). */
  readonly signedHeaders: readonly string[];
  /** Query authentication (a presigned URL) or the Authorization header. */
  readonly presigned: boolean;
}

/**
 * Checks a request's SigV4 signature as S3 does, before anything is read or stored: a presigned URL
 * (`X-Amz-Signature` in the query, its expiry) or an `Authorization` header (its date within 15 minutes).
 * `rawUrl` is the request target exactly as received (path escapes included: they are signed as sent).
 * An unsigned request is 403 AccessDenied; a wrong signature, key, or any signed header or query parameter
 * changed is 403 SignatureDoesNotMatch.
 */
export const verifySigV4 = (
  request: { readonly method: string; readonly rawUrl: string; readonly headers: IncomingHttpHeaders },
  secrets: Readonly<Record<string, string>>,
  now: Date,
): VerifiedRequest => {
  const [rawPath = '/', rawQuery = ''] = request.rawUrl.split(/\?(.*)/s, 2);
  const params = new URLSearchParams(rawQuery);
  const authorization = headerValue(request.headers, 'authorization');
  let credential: string;
  let signedHeaders: string[];
  let signature: string;
  let amzDate: string;
  let payloadHash: string;
  const presigned = params.has('X-Amz-Signature');
  if (presigned) {
    if (params.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') {
      throw accessDenied('Only AWS4-HMAC-SHA256 query-string authentication is supported.');
    }
    credential = params.get('X-Amz-Credential') ?? '';
    signedHeaders = (params.get('X-Amz-SignedHeaders') ?? '').split(';');
    signature = params.get('X-Amz-Signature') ?? '';
    amzDate = params.get('X-Amz-Date') ?? '';
    payloadHash = params.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
    const expires = Number(params.get('X-Amz-Expires'));
    const signedAt = amzDateMs(amzDate);
    if (
      !Number.isInteger(expires) ||
      expires <= 0 ||
      expires > MAX_EXPIRES_SECONDS ||
      Number.isNaN(signedAt)
    ) {
      throw accessDenied('X-Amz-Date and X-Amz-Expires (at most 604800 seconds) are required.');
    }
    if (!(signedAt + expires * 1000 > now.getTime())) throw accessDenied('Request has expired');
  } else if (authorization.startsWith('AWS4-HMAC-SHA256 ')) {
    const parts = Object.fromEntries(
      authorization
        .slice('AWS4-HMAC-SHA256 '.length)
        .split(',')
        .map((part) => {
          const eq = part.indexOf('=');
          return [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
        }),
    );
    credential = parts.Credential ?? '';
    signedHeaders = (parts.SignedHeaders ?? '').split(';');
    signature = parts.Signature ?? '';
    amzDate = headerValue(request.headers, 'x-amz-date');
    payloadHash = headerValue(request.headers, 'x-amz-content-sha256') || 'UNSIGNED-PAYLOAD';
    const signedAt = amzDateMs(amzDate);
    if (Number.isNaN(signedAt) || Math.abs(now.getTime() - signedAt) > MAX_SKEW_MS) {
      throw new S3Error(
        403,
        'RequestTimeTooSkewed',
        'The difference between the request time and the current time is too large.',
      );
    }
  } else {
    throw accessDenied('Access Denied: every request to this storage must be signed.');
  }
  if (!signedHeaders.includes('host')) throw accessDenied('The signature must cover the Host header.');
  const { accessKeyId, secretAccessKey, day, region } = signingCredentialOf(credential, secrets);
  if (!amzDate.startsWith(day)) throw accessDenied('The credential scope and X-Amz-Date disagree.');

  const canonicalQuery = [...params.entries()]
    .filter(([name]) => !(presigned && name === 'X-Amz-Signature'))
    .map(([name, value]) => [uriEscape(name), uriEscape(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const canonicalHeaders = signedHeaders
    .map((name) => `${name}:${headerValue(request.headers, name)}\n`)
    .join('');
  const canonicalRequest = [
    request.method,
    rawPath,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders.join(';'),
    payloadHash,
  ].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const expected = hmac(signingKey(secretAccessKey, day, region, 's3'), stringToSign).toString('hex');
  checkSignature(expected, signature);
  return { accessKeyId, signedHeaders, presigned };
};
