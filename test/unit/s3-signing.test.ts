import { S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { S3ObjectStore } from '../../lambdas/adapters/s3-object-store';
import { postPolicyFields } from '../../lambdas/adapters/s3-post-policy';
import { FakeClock } from '../helpers/fakes';

/**
 * The lean S3 store signs what the SDK would: its upload form field for field as @aws-sdk/s3-presigned-post
 * lays it out, its download URL with the signature the SDK's presigner computes for the same request.
 */
const NOW = new Date('2026-03-04T05:06:07.000Z');
const credentials = {
  accessKeyId: 'ASIAEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE+/=',
};
const region = 'eu-west-1';
const bucket = 'catalogjobsstateful-uploads1a2b3c4d-0123456789ab';
const key = 'uploads/acme/9d4b2f17-6e8a-4c05-b3d1-0a7e5c2f8b96';
const MAX = 100 * 1024 * 1024;

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'queueMicrotask'] });
});
afterEach(() => {
  jest.useRealTimers();
});

// The endpoint AWS's own: not one a test environment names in AWS_ENDPOINT_URL_S3 (the emulators').
const sdk = () => new S3Client({ region, credentials, ignoreConfiguredEndpointUrls: true });
const store = () =>
  new S3ObjectStore({ bucket, region, credentials: async () => credentials }, new FakeClock(NOW));

describe('presigned upload form (POST policy)', () => {
  it('is field for field what @aws-sdk/s3-presigned-post makes, content-length-range included', async () => {
    const expected = await createPresignedPost(sdk(), {
      Bucket: bucket,
      Key: key,
      Conditions: [['content-length-range', 0, MAX]],
      Fields: { 'Content-Type': 'text/csv' },
      Expires: 900,
    });
    const fields = postPolicyFields({
      bucket,
      key,
      contentType: 'text/csv',
      maxBytes: MAX,
      expiresInSeconds: 900,
      region,
      credentials,
      now: NOW,
    });
    expect(fields).toEqual(expected.fields);
    const policy = JSON.parse(Buffer.from(fields.Policy!, 'base64').toString('utf8'));
    expect(policy.expiration).toBe('2026-03-04T05:21:07Z');
    expect(policy.conditions).toContainEqual(['content-length-range', 0, MAX]);

    const form = await store().presignUpload(key, 'text/csv', 900, MAX);
    expect(form).toEqual({
      putUrl: expect.any(String),
      url: expected.url,
      fields: expected.fields,
      maxBytes: MAX,
      expiresAt: '2026-03-04T05:21:07.000Z',
    });
  });

  it('signs another limit, key or type differently (the signature covers them)', () => {
    const base = {
      bucket,
      key,
      contentType: 'text/csv',
      maxBytes: MAX,
      expiresInSeconds: 900,
      region,
      credentials,
      now: NOW,
    };
    const signature = (change: Partial<typeof base>) =>
      postPolicyFields({ ...base, ...change })['X-Amz-Signature'];
    const original = signature({});
    expect(signature({ maxBytes: MAX + 1 })).not.toBe(original);
    expect(signature({ key: `${key}x` })).not.toBe(original);
    expect(signature({ contentType: 'text/html' })).not.toBe(original);
  });
});

describe('presigned PUT (SPEC 3.3)', () => {
  it('carries the signature the SDK presigner computes for the same PUT of the same key', async () => {
    const url = new URL((await store().presignUpload(key, 'text/csv', 900, MAX)).putUrl);
    expect(`${url.protocol}//${url.host}${url.pathname}`).toBe(
      `https://${bucket}.s3.${region}.amazonaws.com/${key}`,
    );
    const query = Object.fromEntries(url.searchParams);
    expect(query).toMatchObject({ 'X-Amz-Expires': '900', 'X-Amz-SignedHeaders': 'host' });
    const presigned = await new S3RequestPresigner({ ...sdk().config }).presign(
      {
        method: 'PUT',
        protocol: 'https:',
        hostname: `${bucket}.s3.${region}.amazonaws.com`,
        path: `/${key}`,
        query: {},
        headers: { host: `${bucket}.s3.${region}.amazonaws.com` },
      },
      { expiresIn: 900, signingDate: NOW },
    );
    expect(query).toEqual(presigned.query);
  });
});

describe('presigned download', () => {
  it('carries the signature the SDK presigner computes for the same GET', async () => {
    const url = new URL((await store().presignDownload(key, 3600)).url);
    expect(`${url.protocol}//${url.host}${url.pathname}`).toBe(
      `https://${bucket}.s3.${region}.amazonaws.com/${key}`,
    );
    const query = Object.fromEntries(url.searchParams);
    expect(query).toMatchObject({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD',
      'X-Amz-Credential': `${credentials.accessKeyId}/20260304/${region}/s3/aws4_request`,
      'X-Amz-Date': '20260304T050607Z',
      'X-Amz-Expires': '3600',
      'X-Amz-SignedHeaders': 'host',
      'X-Amz-Security-Token': credentials.sessionToken,
    });
    const client = sdk();
    const presigned = await new S3RequestPresigner({ ...client.config }).presign(
      {
        method: 'GET',
        protocol: 'https:',
        hostname: `${bucket}.s3.${region}.amazonaws.com`,
        path: `/${key}`,
        query: {},
        headers: { host: `${bucket}.s3.${region}.amazonaws.com` },
      },
      { expiresIn: 3600, signingDate: NOW },
    );
    expect(query).toEqual(presigned.query);
  });

  it('signs the response Content-Type and Content-Disposition as the SDK presigner does (any file name)', async () => {
    const url = new URL(
      (
        await store().presignDownload(key, 300, {
          contentType: 'application/pdf',
          fileName: "Joe's menu (été) *final*.pdf",
        })
      ).url,
    );
    const query = Object.fromEntries(url.searchParams);
    expect(query['response-content-disposition']).toBe(
      `inline; filename="Joe's menu (_t_) *final*.pdf"; filename*=UTF-8''${encodeURIComponent("Joe's menu (été) *final*.pdf")}`,
    );
    const client = sdk();
    const presigned = await new S3RequestPresigner({ ...client.config }).presign(
      {
        method: 'GET',
        protocol: 'https:',
        hostname: `${bucket}.s3.${region}.amazonaws.com`,
        path: `/${key}`,
        query: {
          'response-content-type': query['response-content-type']!,
          'response-content-disposition': query['response-content-disposition']!,
        },
        headers: { host: `${bucket}.s3.${region}.amazonaws.com` },
      },
      { expiresIn: 300, signingDate: NOW },
    );
    expect(query).toEqual(presigned.query);
  });
});
