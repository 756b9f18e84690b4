import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { ExportResource } from '../../lambdas/core/model';
import {
  DEFAULT_RETRY_DELAYS,
  exportEvent,
  nextDelaySeconds,
  parseRetryAfter,
  parseRetryDelays,
  RETRY_AFTER_CAP_SECONDS,
  RetryScheduleError,
  SQS_MAX_DELAY_SECONDS,
  signWebhook,
  sqsDelayFor,
  WebhookSecretError,
} from '../../lambdas/core/webhooks';

const aSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

const aResource = (overrides: Partial<ExportResource> = {}): ExportResource => ({
  id: '7d3f3c9e-2a51-4c1e-9a57-0b1e5a1f2c11',
  state: 'completed',
  callback_url: 'https://receiver.example/hooks',
  delivery_url: 'https://bucket.example/exports/7d3f.json?X-Amz-Signature=abc',
  job_id: '1b6a7f0e-93f4-4c36-8a2e-3d5c2e9b8f10',
  job_type: 'new_menu',
  client_mappings: {},
  format: 'catalog_json',
  created_at: '2025-03-01T10:00:00.000Z',
  updated_at: '2025-03-01T10:05:00.000Z',
  completed_at: '2025-03-01T10:05:00.000Z',
  delivery_url_expires_at: '2025-03-01T11:05:00.000Z',
  file: {
    content_type: 'application/json',
    size_bytes: 120,
    checksum_sha256: 'ab'.repeat(32),
    item_count: 3,
  },
  files: null,
  warnings: [],
  callback: { state: 'pending', attempts: 0, last_status: null, last_attempt_at: null },
  error: null,
  ...overrides,
});

describe('signWebhook', () => {
  it('sets exactly the Standard Webhooks headers and content-type', () => {
    const headers = signWebhook({ id: 'msg_1', timestamp: 1_700_000_000, body: '{}', secrets: [aSecret()] });
    expect(Object.keys(headers).sort()).toEqual([
      'content-type',
      'webhook-id',
      'webhook-signature',
      'webhook-timestamp',
    ]);
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toBe('1700000000');
    expect(headers['content-type']).toBe('application/json');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('produces a signature that the standardwebhooks library verifies', () => {
    const secret = aSecret();
    const body = JSON.stringify(exportEvent(aResource()));
    const headers = signWebhook({ id: 'msg_abc', timestamp: nowSeconds(), body, secrets: [secret] });

    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('matches the signature of the Standard Webhooks reference vector', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    const body = '{"test": 2432232314}';
    const headers = signWebhook({ id, timestamp: 1614265330, body, secrets: [secret] });

    expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign(id, new Date(1614265330_000), body));
  });

  it('signs with every rotation secret, and each one alone verifies', () => {
    const [current, previous] = [aSecret(), aSecret()];
    const body = JSON.stringify(exportEvent(aResource()));
    const headers = signWebhook({
      id: 'msg_rot',
      timestamp: nowSeconds(),
      body,
      secrets: [current, previous],
    });

    const signatures = headers['webhook-signature'].split(' ');
    expect(signatures).toHaveLength(2);
    expect(new Set(signatures).size).toBe(2);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(aSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it('fails verification when the body, id or timestamp is changed', () => {
    const secret = aSecret();
    const body = '{"type":"data_export.completed"}';
    const timestamp = nowSeconds();
    const headers = signWebhook({ id: 'msg_t', timestamp, body, secrets: [secret] });
    const verifier = new Webhook(secret);

    expect(() => verifier.verify(`${body} `, headers)).toThrow(WebhookVerificationError);
    expect(() => verifier.verify(body, { ...headers, 'webhook-id': 'msg_u' })).toThrow(
      WebhookVerificationError,
    );
    expect(() => verifier.verify(body, { ...headers, 'webhook-timestamp': String(timestamp - 1) })).toThrow(
      WebhookVerificationError,
    );
  });

  it('signs the body as UTF-8 bytes', () => {
    const secret = aSecret();
    const body = JSON.stringify({ name: 'Crème brûlée — 東京 🍣' });
    const headers = signWebhook({ id: 'msg_utf8', timestamp: nowSeconds(), body, secrets: [secret] });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it.each([
    ['no whsec_ prefix', randomBytes(32).toString('base64')],
    ['nothing after the prefix', 'whsec_'],
    ['not base64', 'whsec_not*base64!'],
  ])('refuses a secret with %s', (_label, secret) => {
    expect(() => signWebhook({ id: 'msg', timestamp: 1, body: '{}', secrets: [secret] })).toThrow(
      WebhookSecretError,
    );
  });

  it('refuses to sign without any secret', () => {
    expect(() => signWebhook({ id: 'msg', timestamp: 1, body: '{}', secrets: [] })).toThrow(
      WebhookSecretError,
    );
  });

  it('refuses a timestamp that is not whole unix seconds', () => {
    expect(() => signWebhook({ id: 'msg', timestamp: 1.5, body: '{}', secrets: [aSecret()] })).toThrow(
      RangeError,
    );
  });
});

describe('exportEvent', () => {
  it('is data_export.completed with the completion time for a completed export', () => {
    const data = aResource();
    expect(exportEvent(data)).toEqual({
      type: 'data_export.completed',
      timestamp: '2025-03-01T10:05:00.000Z',
      data,
    });
  });

  it('is data_export.failed for a failed export, dated by updated_at when it never completed', () => {
    const data = aResource({ state: 'failed', completed_at: null, updated_at: '2025-03-01T12:00:00.000Z' });
    const event = exportEvent(data);
    expect(event.type).toBe('data_export.failed');
    expect(event.timestamp).toBe('2025-03-01T12:00:00.000Z');
    expect(event.data).toBe(data);
  });

  it.each(['initiated', 'processing'] as const)('refuses an export still %s', (state) => {
    expect(() => exportEvent(aResource({ state }))).toThrow(RangeError);
  });
});

describe('retry schedule', () => {
  it('defaults to the Standard Webhooks schedule: 9 waits, about three days in all', () => {
    expect(DEFAULT_RETRY_DELAYS).toEqual([5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    expect(DEFAULT_RETRY_DELAYS).toHaveLength(9);
    expect(DEFAULT_RETRY_DELAYS.reduce((a, b) => a + b, 0) / 3600).toBeCloseTo(75.6, 1);
  });

  describe('parseRetryDelays', () => {
    it('parses comma-separated seconds, spaces allowed', () => {
      expect(parseRetryDelays('1,2,3')).toEqual([1, 2, 3]);
      expect(parseRetryDelays(' 5, 300 ,1800 ')).toEqual([5, 300, 1800]);
      expect(parseRetryDelays('7')).toEqual([7]);
    });

    it.each(['', '  ', '1,,2', '0', '1,-2', '1.5', 'abc', '1,2,x', '1e3', '2,'])('refuses %j', (value) => {
      expect(() => parseRetryDelays(value)).toThrow(RetryScheduleError);
    });

    it('names the bad entry in its message', () => {
      expect(() => parseRetryDelays('5,300,soon')).toThrow(/entry 3 \("soon"\)/);
    });
  });

  describe('nextDelaySeconds', () => {
    const none = () => 0.5;

    it('returns the scheduled wait after each failed attempt, then null', () => {
      const waits = DEFAULT_RETRY_DELAYS.map((_, i) =>
        nextDelaySeconds(i + 1, DEFAULT_RETRY_DELAYS, undefined, { random: none }),
      );
      expect(waits).toEqual([...DEFAULT_RETRY_DELAYS]);
      expect(nextDelaySeconds(10, DEFAULT_RETRY_DELAYS, undefined, { random: none })).toBeNull();
      expect(nextDelaySeconds(4, [1, 2, 3], undefined, { random: none })).toBeNull();
    });

    it('moves each wait by at most 10% either way', () => {
      expect(nextDelaySeconds(2, DEFAULT_RETRY_DELAYS, undefined, { random: () => 0 })).toBe(270);
      expect(nextDelaySeconds(2, DEFAULT_RETRY_DELAYS, undefined, { random: () => 0.999999 })).toBe(330);
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 9 }),
          fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
          (attempt, r) => {
            const base = DEFAULT_RETRY_DELAYS[attempt - 1]!;
            const wait = nextDelaySeconds(attempt, DEFAULT_RETRY_DELAYS, undefined, { random: () => r })!;
            expect(Number.isInteger(wait)).toBe(true);
            expect(wait).toBeGreaterThanOrEqual(Math.floor(base * 0.9));
            expect(wait).toBeLessThanOrEqual(Math.ceil(base * 1.1));
          },
        ),
      );
    });

    it('never waits less than a second', () => {
      expect(nextDelaySeconds(1, [1], undefined, { random: () => 0 })).toBe(1);
    });

    it('honours a longer Retry-After in seconds, ignores a shorter one', () => {
      expect(nextDelaySeconds(1, DEFAULT_RETRY_DELAYS, '120', { random: none })).toBe(120);
      expect(nextDelaySeconds(2, DEFAULT_RETRY_DELAYS, '10', { random: none })).toBe(300);
    });

    it('honours a Retry-After given as an HTTP date', () => {
      const now = new Date('2025-03-01T10:00:00.000Z');
      expect(
        nextDelaySeconds(1, DEFAULT_RETRY_DELAYS, 'Sat, 01 Mar 2025 10:10:00 GMT', { random: none, now }),
      ).toBe(600);
    });

    it('caps a Retry-After at a day', () => {
      expect(nextDelaySeconds(1, DEFAULT_RETRY_DELAYS, String(30 * 86_400), { random: none })).toBe(
        RETRY_AFTER_CAP_SECONDS,
      );
    });

    it('ignores a malformed Retry-After', () => {
      expect(nextDelaySeconds(1, DEFAULT_RETRY_DELAYS, 'soon', { random: none })).toBe(5);
      expect(nextDelaySeconds(1, DEFAULT_RETRY_DELAYS, '1.5e3', { random: none })).toBe(5);
    });

    it('does not honour Retry-After once the schedule is exhausted', () => {
      expect(nextDelaySeconds(4, [1, 2, 3], '60', { random: none })).toBeNull();
    });

    it('counts attempts from 1', () => {
      expect(() => nextDelaySeconds(0, DEFAULT_RETRY_DELAYS)).toThrow(RangeError);
    });
  });

  describe('parseRetryAfter', () => {
    const now = new Date('2025-03-01T10:00:00.000Z');
    it('reads delta-seconds and future dates, not past dates or nonsense', () => {
      expect(parseRetryAfter('30', now)).toBe(30);
      expect(parseRetryAfter('Sat, 01 Mar 2025 10:00:30 GMT', now)).toBe(30);
      expect(parseRetryAfter('Sat, 01 Mar 2025 09:00:00 GMT', now)).toBeUndefined();
      expect(parseRetryAfter('0', now)).toBeUndefined();
      expect(parseRetryAfter('-5', now)).toBeUndefined();
      expect(parseRetryAfter(undefined, now)).toBeUndefined();
    });
  });
});

describe('sqsDelayFor', () => {
  const now = new Date('2025-03-01T10:00:00.000Z');
  const plus = (seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

  it('is due with no notBefore, or once notBefore has come', () => {
    expect(sqsDelayFor(undefined, now)).toEqual({ delaySeconds: 0, due: true });
    expect(sqsDelayFor(plus(0), now)).toEqual({ delaySeconds: 0, due: true });
    expect(sqsDelayFor(plus(-60), now)).toEqual({ delaySeconds: 0, due: true });
  });

  it('waits the remainder, rounded up, while it fits in one SQS delay', () => {
    expect(sqsDelayFor(plus(0.001), now)).toEqual({ delaySeconds: 1, due: false });
    expect(sqsDelayFor(plus(299.5), now)).toEqual({ delaySeconds: 300, due: false });
    expect(sqsDelayFor(plus(899), now)).toEqual({ delaySeconds: 899, due: false });
    expect(sqsDelayFor(plus(900), now)).toEqual({ delaySeconds: 900, due: false });
  });

  it('waits at most 900 s past the SQS limit', () => {
    expect(sqsDelayFor(plus(901), now)).toEqual({ delaySeconds: SQS_MAX_DELAY_SECONDS, due: false });
    expect(sqsDelayFor(plus(86_400), now)).toEqual({ delaySeconds: 900, due: false });
  });

  it('reaches a long wait exactly through re-enqueued hops', () => {
    const notBefore = plus(2 * 3600 + 30);
    let clock = now;
    let hops = 0;
    for (let step = sqsDelayFor(notBefore, clock); !step.due; step = sqsDelayFor(notBefore, clock)) {
      clock = new Date(clock.getTime() + step.delaySeconds * 1000);
      hops += 1;
      expect(hops).toBeLessThan(20);
    }
    expect(hops).toBe(9); // 8 x 900 s, then 30 s
    expect(clock.toISOString()).toBe(notBefore);
  });

  it('refuses a notBefore that is not a timestamp', () => {
    expect(() => sqsDelayFor('tomorrow-ish', now)).toThrow(RangeError);
  });
});
