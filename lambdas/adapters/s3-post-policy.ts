import { createHmac } from 'node:crypto';
import type { AwsCredentials } from './aws-http';

/**
 * An S3 POST policy (browser-based upload, SigV4): the form fields that let a client POST one object to a
 * bucket without credentials, with the conditions S3 checks before it stores anything: this key, this
 * Content-Type, and a body of at most `maxBytes` (`content-length-range`; S3 answers 400 EntityTooLarge
 * past it). Laid out exactly as @aws-sdk/s3-presigned-post's createPresignedPost lays it out (the unit test
 * compares the two field by field), without bundling the S3 client to do it.
 */
export interface PostPolicyInput {
  readonly bucket: string;
  readonly key: string;
  readonly contentType: string;
  readonly maxBytes: number;
  readonly expiresInSeconds: number;
  readonly region: string;
  readonly credentials: AwsCredentials;
  readonly now: Date;
}

const iso8601 = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** SigV4's signing key for a day, region and service. */
export const signingKey = (secret: string, day: string, region: string, service: string): Buffer =>
  hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');

/** The signature of a base64 policy document: S3 recomputes it from the credential scope in the form. */
export const policySignature = (secret: string, day: string, region: string, policy: string): string =>
  hmac(signingKey(secret, day, region, 's3'), policy).toString('hex');

/** The policy's fields, to be sent before the file field, in this order. */
export const postPolicyFields = (input: PostPolicyInput): Record<string, string> => {
  const date = iso8601(input.now).replace(/[-:]/g, '');
  const day = date.slice(0, 8);
  const credential = `${input.credentials.accessKeyId}/${day}/${input.region}/s3/aws4_request`;
  const signed: Record<string, string> = {
    'Content-Type': input.contentType,
    bucket: input.bucket,
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': credential,
    'X-Amz-Date': date,
    ...(input.credentials.sessionToken ? { 'X-Amz-Security-Token': input.credentials.sessionToken } : {}),
  };
  const conditions: unknown[] = [
    ['content-length-range', 0, input.maxBytes],
    ...Object.entries(signed).map(([name, value]) => ({ [name]: value })),
    { key: input.key },
  ];
  const expiration = new Date(input.now.getTime() + input.expiresInSeconds * 1000);
  const policy = Buffer.from(
    JSON.stringify({ expiration: iso8601(expiration), conditions }),
    'utf8',
  ).toString('base64');
  const signature = policySignature(input.credentials.secretAccessKey, day, input.region, policy);
  return { ...signed, key: input.key, Policy: policy, 'X-Amz-Signature': signature };
};
