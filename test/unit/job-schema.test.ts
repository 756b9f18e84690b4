import { ValidationError } from '../../lambdas/core/errors';
import { createJobRequestSchema, LANGUAGES, listJobsQuerySchema } from '../../lambdas/core/schemas/job';
import { parseOrThrow } from '../../lambdas/core/validation';
import { aJobRequest, withJobData } from '../helpers/factories';

const errorsOf = (body: unknown) => {
  try {
    parseOrThrow(createJobRequestSchema, body);
  } catch (error) {
    if (error instanceof ValidationError) return error.errors;
    throw error;
  }
  throw new Error('expected a validation error');
};
const pointers = (body: unknown) => errorsOf(body).map((e) => e.pointer);

describe('job request schema (seed 2.1/2.2, SPEC 3.1)', () => {
  it.each(['new_menu', 'new_retail_catalog', 'retail_image_mapping'] as const)(
    'accepts a minimal %s job',
    (type) => {
      const parsed = parseOrThrow(createJobRequestSchema, aJobRequest(type));
      expect(parsed.job.job_type).toBe(type);
    },
  );

  it.each(['standard', 'rush'])('accepts processing_type %s', (processing) => {
    const parsed = parseOrThrow(
      createJobRequestSchema,
      aJobRequest('new_menu', { processing_type: processing }),
    );
    expect(parsed.job.processing_type).toBe(processing);
  });

  it('defaults language to en_us for menu and retail jobs', () => {
    const parsed = parseOrThrow(createJobRequestSchema, aJobRequest('new_retail_catalog'));
    expect(parsed.job.job_data).toMatchObject({ language: 'en_us' });
  });

  it('does not invent a language for image mapping jobs', () => {
    const parsed = parseOrThrow(createJobRequestSchema, aJobRequest('retail_image_mapping'));
    expect(parsed.job.job_data).not.toHaveProperty('language');
  });

  it.each(LANGUAGES)('accepts the documented language %s', (language) => {
    expect(() => parseOrThrow(createJobRequestSchema, withJobData('new_menu', { language }))).not.toThrow();
  });

  it.each(['sv_se', 'pt_pt', 'fi_fi', 'es_cl'])(
    'accepts any ll_cc whose region has a currency: %s',
    (language) => {
      expect(() => parseOrThrow(createJobRequestSchema, withJobData('new_menu', { language }))).not.toThrow();
    },
  );

  it.each(['en_US', 'en-us', 'en', 'qq_us', 'en_aq', 'en_xx'])(
    'rejects %s, which is no job language',
    (language) => {
      expect(errorsOf(withJobData('new_menu', { language }))).toEqual([
        expect.objectContaining({ pointer: '/job/job_data/language', code: 'invalid_value' }),
      ]);
    },
  );

  it('requires job_type, job_data and processing_type', () => {
    expect(pointers({ job: {} })).toEqual(['/job/job_type']);
    expect(pointers({ job: { job_type: 'new_menu' } })).toEqual(
      expect.arrayContaining(['/job/job_data', '/job/processing_type']),
    );
  });

  it('rejects an unknown job_type and processing_type', () => {
    expect(pointers(aJobRequest('new_menu', { job_type: 'new_pizza' }))).toEqual(['/job/job_type']);
    expect(pointers(aJobRequest('new_menu', { processing_type: 'express' }))).toEqual([
      '/job/processing_type',
    ]);
  });

  it.each(['catalog_sources', 'merchant_name'])('requires %s for every type', (field) => {
    for (const type of ['new_menu', 'new_retail_catalog', 'retail_image_mapping'] as const) {
      expect(errorsOf(withJobData(type, { [field]: undefined }))).toEqual([
        { pointer: `/job/job_data/${field}`, code: 'required', message: 'is required' },
      ]);
    }
  });

  it('tells a field of the wrong type from a missing one', () => {
    expect(
      errorsOf(withJobData('new_menu', { merchant_name: 5, catalog_sources: 'https://a.test/x.csv' })),
    ).toEqual([
      {
        pointer: '/job/job_data/catalog_sources',
        code: 'invalid_type',
        message: 'must be an array, not a string',
      },
      {
        pointer: '/job/job_data/merchant_name',
        code: 'invalid_type',
        message: 'must be a string, not a number',
      },
    ]);
    expect(errorsOf({ job: { ...aJobRequest().job, metadata: { ticket: 7, flag: null } } })).toEqual([
      { pointer: '/job/metadata/ticket', code: 'invalid_type', message: 'must be a string, not a number' },
      { pointer: '/job/metadata/flag', code: 'invalid_type', message: 'must be a string, not null' },
    ]);
    expect(errorsOf([aJobRequest()])).toEqual([
      { pointer: '', code: 'invalid_type', message: 'must be an object, not an array' },
    ]);
  });

  it.each(['5.5', 'ten', '0x10', '+5', '1e1', ' 5', ''])(
    'says a limit of %j is not a whole number written in digits (no hex, sign or exponent read as one)',
    (limit) => {
      expect(() => parseOrThrow(listJobsQuerySchema, { limit })).toThrow(
        expect.objectContaining({
          errors: [
            expect.objectContaining({
              pointer: '/limit',
              message: 'must be a whole number from 1 to 100, written in digits',
            }),
          ],
        }),
      );
    },
  );

  it('requires image_sources for retail_image_mapping', () => {
    expect(pointers(withJobData('retail_image_mapping', { image_sources: undefined }))).toEqual([
      '/job/job_data/image_sources',
    ]);
  });

  it('rejects image_sources on menu and retail jobs, and language on image mapping', () => {
    expect(errorsOf(withJobData('new_menu', { image_sources: ['https://x.test/a.jpg'] }))).toEqual([
      expect.objectContaining({ pointer: '/job/job_data/image_sources', code: 'unknown_field' }),
    ]);
    expect(pointers(withJobData('new_retail_catalog', { image_sources: ['https://x.test/a.jpg'] }))).toEqual([
      '/job/job_data/image_sources',
    ]);
    expect(pointers(withJobData('retail_image_mapping', { language: 'en_us' }))).toEqual([
      '/job/job_data/language',
    ]);
  });

  it('rejects unknown fields at every level', () => {
    expect(pointers({ ...aJobRequest(), extra: 1 })).toEqual(['/extra']);
    expect(pointers(aJobRequest('new_menu', { priority: 'high' }))).toEqual(['/job/priority']);
    expect(pointers(withJobData('new_menu', { merchant_nmae: 'typo' }))).toEqual([
      '/job/job_data/merchant_nmae',
    ]);
  });

  it('accepts the optional fields of every type', () => {
    const body = withJobData('new_menu', {
      merchant_address: '1 Main St',
      merchant_token: 'tok_123',
      instructions: 'Prices include tax',
      client_mappings: { categories: { Mains: 'c-1' } },
    });
    const parsed = parseOrThrow(createJobRequestSchema, {
      job: { ...body.job, metadata: { ticket: 'OPS-1' } },
    });
    expect(parsed.job.metadata).toEqual({ ticket: 'OPS-1' });
    expect(parsed.job.job_data).toMatchObject({
      merchant_token: 'tok_123',
      client_mappings: { categories: { Mains: 'c-1' } },
    });
  });

  describe('catalog_sources', () => {
    it('accepts http(s) URLs and uploaded file ids', () => {
      const sources = [
        'http://a.test/x.csv',
        'https://b.test/y.json',
        'a3bb189e-8bf9-3888-9912-ace4e6543002',
      ];
      expect(() =>
        parseOrThrow(createJobRequestSchema, withJobData('new_menu', { catalog_sources: sources })),
      ).not.toThrow();
    });

    it.each(['ftp://a.test/x.csv', 'file:///etc/passwd', 'not a url', 'javascript:alert(1)', ''])(
      'rejects %j',
      (source) => {
        expect(pointers(withJobData('new_menu', { catalog_sources: [source] }))).toEqual([
          '/job/job_data/catalog_sources/0',
        ]);
      },
    );

    it.each([
      'https://user:secret@merchant.test/menu.csv',
      'https://token@merchant.test/menu.csv',
      'http://:pw@a.test/x',
    ])('refuses %j: credentials in a URL are never sent, only kept', (source) => {
      expect(errorsOf(withJobData('new_menu', { catalog_sources: [source] }))).toEqual([
        expect.objectContaining({
          pointer: '/job/job_data/catalog_sources/0',
          message: expect.stringContaining('password'),
        }),
      ]);
      expect(
        pointers(
          withJobData('retail_image_mapping', { image_sources: [source.replace('menu.csv', '1.png')] }),
        ),
      ).toEqual(['/job/job_data/image_sources/0']);
    });

    it('needs 1 to 50 entries', () => {
      expect(pointers(withJobData('new_menu', { catalog_sources: [] }))).toEqual([
        '/job/job_data/catalog_sources',
      ]);
      const fifty = Array.from({ length: 50 }, (_, i) => `https://a.test/${i}.csv`);
      expect(() =>
        parseOrThrow(createJobRequestSchema, withJobData('new_menu', { catalog_sources: fifty })),
      ).not.toThrow();
      expect(
        pointers(withJobData('new_menu', { catalog_sources: [...fifty, 'https://a.test/51.csv'] })),
      ).toEqual(['/job/job_data/catalog_sources']);
    });

    it('limits a URL to 2048 characters', () => {
      const at = (n: number) => `https://a.test/${'x'.repeat(n - 'https://a.test/'.length)}`;
      expect(() =>
        parseOrThrow(createJobRequestSchema, withJobData('new_menu', { catalog_sources: [at(2048)] })),
      ).not.toThrow();
      expect(pointers(withJobData('new_menu', { catalog_sources: [at(2049)] }))).toEqual([
        '/job/job_data/catalog_sources/0',
      ]);
    });
  });

  it('needs 1 to 10,000 http(s) image_sources', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `https://cdn.test/${i}.jpg`);
    expect(pointers(withJobData('retail_image_mapping', { image_sources: [] }))).toEqual([
      '/job/job_data/image_sources',
    ]);
    expect(() =>
      parseOrThrow(
        createJobRequestSchema,
        withJobData('retail_image_mapping', { image_sources: many(10_000) }),
      ),
    ).not.toThrow();
    expect(pointers(withJobData('retail_image_mapping', { image_sources: many(10_001) }))).toEqual([
      '/job/job_data/image_sources',
    ]);
    expect(pointers(withJobData('retail_image_mapping', { image_sources: ['s3://bucket/a.jpg'] }))).toEqual([
      '/job/job_data/image_sources/0',
    ]);
  });

  it.each([
    ['merchant_name', 255],
    ['merchant_address', 1000],
    ['merchant_token', 255],
    ['instructions', 10_000],
  ])('limits %s to %i characters', (field, max) => {
    expect(() =>
      parseOrThrow(createJobRequestSchema, withJobData('new_menu', { [field]: 'a'.repeat(max) })),
    ).not.toThrow();
    expect(pointers(withJobData('new_menu', { [field]: 'a'.repeat(max + 1) }))).toEqual([
      `/job/job_data/${field}`,
    ]);
  });

  it('rejects a blank merchant_name', () => {
    expect(pointers(withJobData('new_menu', { merchant_name: '   ' }))).toEqual([
      '/job/job_data/merchant_name',
    ]);
  });

  describe('metadata', () => {
    const withMetadata = (metadata: unknown) => aJobRequest('new_menu', { metadata });
    it('allows 50 keys of 40 characters with 500-character string values', () => {
      const ok = Object.fromEntries(
        Array.from({ length: 50 }, (_, i) => [`k${i}`.padEnd(40, 'x'), 'v'.repeat(500)]),
      );
      expect(() => parseOrThrow(createJobRequestSchema, withMetadata(ok))).not.toThrow();
    });
    it('rejects a 51st key, a long key, a long value and non-string values', () => {
      const fiftyOne = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
      expect(pointers(withMetadata(fiftyOne))).toEqual(['/job/metadata']);
      expect(pointers(withMetadata({ ['k'.repeat(41)]: 'v' }))).toEqual([`/job/metadata/${'k'.repeat(41)}`]);
      expect(pointers(withMetadata({ k: 'v'.repeat(501) }))).toEqual(['/job/metadata/k']);
      expect(pointers(withMetadata({ k: 1 }))).toEqual(['/job/metadata/k']);
    });
  });

  it('limits client_mappings to 100 KB serialised', () => {
    const big = { items: { x: 'y'.repeat(100 * 1024) } };
    expect(pointers(withJobData('new_menu', { client_mappings: big }))).toEqual([
      '/job/job_data/client_mappings',
    ]);
    expect(pointers(withJobData('new_menu', { client_mappings: ['not', 'an', 'object'] }))).toEqual([
      '/job/job_data/client_mappings',
    ]);
  });

  it('escapes JSON Pointer segments (RFC 6901)', () => {
    expect(pointers(aJobRequest('new_menu', { metadata: { 'a/b~c': 7 } }))).toEqual([
      '/job/metadata/a~1b~0c',
    ]);
  });
});

describe('list query schema', () => {
  it('defaults limit to 20 and coerces numbers', () => {
    expect(listJobsQuerySchema.parse({})).toEqual({ limit: 20 });
    expect(listJobsQuerySchema.parse({ limit: '100', state: 'completed' })).toEqual({
      limit: 100,
      state: 'completed',
    });
  });
  it.each([
    { limit: '0' },
    { limit: '101' },
    { limit: 'ten' },
    { state: 'done' },
    { job_type: 'x' },
    { sort: 'asc' },
  ])('rejects %j', (query) => {
    expect(listJobsQuerySchema.safeParse(query).success).toBe(false);
  });
});
