import { timingSafeEqual } from 'node:crypto';
import { S3Error } from './s3-error';

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
  const [accessKeyId, day, region, service] = credential.split('/');
  const secretAccessKey = accessKeyId === undefined ? undefined : secrets[accessKeyId];
  if (!accessKeyId || !secretAccessKey || !day || !region || service !== 's3') {
    throw new S3Error(403, 'InvalidAccessKeyId', 'The AWS access key id in X-Amz-Credential is unknown.');
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
