import { makeCreateExportRequestSchema } from '../../lambdas/core/schemas/export';
import { createFileRequestSchema } from '../../lambdas/core/schemas/file';

const id = 'a3bb189e-8bf9-4888-9912-ace4e6543002';

describe('data export request (seed 2.4, SPEC 3.2)', () => {
  const strict = makeCreateExportRequestSchema({ allowHttpCallbacks: false, allowLoopback: false });
  const local = makeCreateExportRequestSchema({ allowHttpCallbacks: true, allowLoopback: true });

  it('accepts the seed request with and without callback_url', () => {
    expect(strict.parse({ id, type: 'catalog' })).toEqual({ id, type: 'catalog', format: 'catalog_json' });
    expect(strict.parse({ id, type: 'catalog', callback_url: 'https://hooks.test/x' }).callback_url).toBe(
      'https://hooks.test/x',
    );
    expect(strict.parse({ id, type: 'catalog', callback_url: null }).callback_url).toBeNull();
  });

  it('rejects types other than catalog, ids that are not UUIDs, and unknown fields', () => {
    expect(strict.safeParse({ id, type: 'menu' }).success).toBe(false);
    expect(strict.safeParse({ id: '42', type: 'catalog' }).success).toBe(false);
    expect(strict.safeParse({ id, type: 'catalog', colour: 'csv' }).success).toBe(false);
  });

  it('takes a format (SPEC 3.2), and a link_template exactly for the feed formats', () => {
    expect(strict.parse({ id, type: 'catalog', format: 'shopify_csv' }).format).toBe('shopify_csv');
    expect(strict.safeParse({ id, type: 'catalog', format: 'pdf' }).success).toBe(false);
    const feed = strict.safeParse({ id, type: 'catalog', format: 'google_merchant_tsv' });
    expect(feed.success).toBe(false);
    expect(feed.error?.issues[0]?.path).toEqual(['link_template']);
    const link = 'https://shop.example/products/{handle}';
    expect(
      strict.parse({ id, type: 'catalog', format: 'meta_catalog_csv', link_template: link }).link_template,
    ).toBe(link);
    expect(strict.safeParse({ id, type: 'catalog', format: 'csv', link_template: link }).success).toBe(false);
    expect(
      strict.safeParse({
        id,
        type: 'catalog',
        format: 'google_merchant_tsv',
        link_template: 'https://shop.example/',
      }).success,
    ).toBe(false);
    expect(
      strict.safeParse({ id, type: 'catalog', format: 'google_merchant_tsv', link_template: 'ftp://x/{id}' })
        .success,
    ).toBe(false);
  });

  it('requires https callbacks except in the local runtime', () => {
    expect(strict.safeParse({ id, type: 'catalog', callback_url: 'http://hooks.test/x' }).success).toBe(
      false,
    );
    expect(local.safeParse({ id, type: 'catalog', callback_url: 'http://127.0.0.1:9000/x' }).success).toBe(
      true,
    );
    expect(local.safeParse({ id, type: 'catalog', callback_url: 'ftp://hooks.test/x' }).success).toBe(false);
  });

  it.each([
    'https://169.254.169.254/latest',
    'https://10.1.2.3/hook',
    'https://[::ffff:192.168.0.1]/hook',
    'https://2130706433/hook',
    'https://127.0.0.1/hook',
    'https://localhost/hook',
    'https://[fd00::1]/hook',
  ])('refuses the internal callback address %s', (callbackUrl) => {
    expect(strict.safeParse({ id, type: 'catalog', callback_url: callbackUrl }).success).toBe(false);
  });

  it('allows loopback callbacks only where loopback is allowed, and never other internal ranges', () => {
    expect(local.safeParse({ id, type: 'catalog', callback_url: 'http://127.0.0.1:9000/hook' }).success).toBe(
      true,
    );
    expect(local.safeParse({ id, type: 'catalog', callback_url: 'http://localhost:9000/hook' }).success).toBe(
      true,
    );
    expect(local.safeParse({ id, type: 'catalog', callback_url: 'http://10.0.0.1/hook' }).success).toBe(
      false,
    );
    expect(
      strict.safeParse({ id, type: 'catalog', callback_url: 'https://hooks.example.com/x' }).success,
    ).toBe(true);
  });

  it('refuses credentials embedded in the callback URL', () => {
    expect(
      strict.safeParse({ id, type: 'catalog', callback_url: 'https://user:pw@hooks.test/x' }).success,
    ).toBe(false);
  });
});

describe('file upload request (SPEC 3.3)', () => {
  it('accepts a file name and a media type', () => {
    expect(
      createFileRequestSchema.parse({ filename: 'menu.csv', content_type: 'text/csv; charset=utf-8' }),
    ).toEqual({
      filename: 'menu.csv',
      content_type: 'text/csv; charset=utf-8',
    });
  });
  it.each([
    { filename: '../etc/passwd', content_type: 'text/csv' },
    { filename: 'a\\b.csv', content_type: 'text/csv' },
    { filename: 'a\nb.csv', content_type: 'text/csv' },
    { filename: '', content_type: 'text/csv' },
    { filename: 'menu.csv', content_type: 'csv' },
    { filename: 'menu.csv' },
    { filename: 'menu.csv', content_type: 'text/csv', size: 3 },
  ])('rejects %j', (body) => {
    expect(createFileRequestSchema.safeParse(body).success).toBe(false);
  });
});
