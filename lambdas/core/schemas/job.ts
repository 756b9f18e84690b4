import * as z from 'zod';
import { checkJsonValue, JSON_MAX_DEPTH } from '../json-limits';
import { isJobLanguage, JOB_LANGUAGE_PATTERN } from '../locale';

/** Seed 2.1: the three job types. */
export const JOB_TYPES = ['new_menu', 'new_retail_catalog', 'retail_image_mapping'] as const;
export type JobType = (typeof JOB_TYPES)[number];

export const PROCESSING_TYPES = ['standard', 'rush'] as const;
export type ProcessingType = (typeof PROCESSING_TYPES)[number];

/**
 * SPEC 3.1: examples of job languages (`ll_cc`). Any lower-case ISO 639-1 language + ISO 3166-1 region
 * whose currency CLDR knows is one (core/locale.ts): these are the ones the documentation names.
 */
export const LANGUAGES = [
  'en_us',
  'en_gb',
  'en_ca',
  'en_au',
  'en_nz',
  'fr_ca',
  'fr_fr',
  'es_us',
  'es_mx',
  'es_es',
  'es_co',
  'es_cl',
  'de_de',
  'it_it',
  'pt_br',
  'nl_nl',
  'sv_se',
  'tr_tr',
  'hi_in',
  'ja_jp',
  'ko_kr',
  'zh_cn',
  'zh_tw',
] as const;
/** A job language: `ll_cc`, checked by `languageSchema`. */
export type Language = string;
export const DEFAULT_LANGUAGE: Language = 'en_us';

/** A job language (SPEC 3.1): lower-case `ll_cc`, a known language and a region with a currency. */
export const languageSchema = z
  .string()
  .refine(isJobLanguage, {
    message:
      'must be a lower-case ll_cc locale: an ISO 639-1 language and an ISO 3166-1 region with a currency (e.g. en_us, es_cl, sv_se)',
  })
  .meta({
    pattern: JOB_LANGUAGE_PATTERN,
    description:
      'Lower-case ll_cc locale: an ISO 639-1 language and an ISO 3166-1 region whose currency CLDR knows (the default currency).',
    examples: [...LANGUAGES],
  });

export const LIMITS = {
  catalogSources: 50,
  imageSources: 10_000,
  urlLength: 2048,
  merchantName: 255,
  merchantAddress: 1000,
  merchantToken: 255,
  instructions: 10_000,
  metadataKeys: 50,
  metadataKeyLength: 40,
  metadataValueLength: 500,
  clientMappingsBytes: 100 * 1024,
  bodyBytes: 1024 * 1024,
  sourceFileBytes: 100 * 1024 * 1024,
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID.test(value);

/**
 * Ids are UUIDs the service writes in lower case, and compared case-insensitively: a UUID a client sends
 * (path, body) is lower-cased at the edge; anything else is left as it is.
 *
 * @example normaliseId('3F2504E0-4F89-41D3-9A0C-0305E82C3301') // '3f2504e0-4f89-41d3-9a0c-0305e82c3301'
 */
export const normaliseId = (value: string): string => (isUuid(value) ? value.toLowerCase() : value);

/** True for an absolute `http:` or `https:` URL with a host. */
export const isHttpUrl = (value: string): boolean => {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
};

/**
 * False for a URL with a user name or password (`https://user:secret@host/`): the guarded client never
 * sends them, so the fetch would fail as unauthorised, and the secret would sit in the job's data and
 * in every error that names the source.
 */
const hasNoCredentials = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.username === '' && url.password === '';
  } catch {
    return true;
  }
};

const NO_CREDENTIALS = {
  message: 'must not carry a user name or password (user:password@): the service does not send them',
};

const httpUrl = z
  .string()
  .max(LIMITS.urlLength, { message: `must be at most ${LIMITS.urlLength} characters` })
  .refine(isHttpUrl, { message: 'must be an absolute http(s) URL' })
  .refine(hasNoCredentials, NO_CREDENTIALS);

/** A catalog source: an http(s) URL, or the id of a file uploaded through POST /v1/files. */
export const catalogSourceSchema = z
  .string()
  .max(LIMITS.urlLength, { message: `must be at most ${LIMITS.urlLength} characters` })
  .refine((s) => isUuid(s) || isHttpUrl(s), {
    message: 'must be an http(s) URL or the id of an uploaded file',
  })
  .refine(hasNoCredentials, NO_CREDENTIALS)
  .overwrite(normaliseId);

const nonBlank = (max: number) =>
  z
    .string()
    .max(max, { message: `must be at most ${max} characters` })
    .refine((s) => s.trim().length > 0, { message: 'must not be blank' });

export const metadataSchema = z
  .record(
    z
      .string()
      .min(1)
      .max(LIMITS.metadataKeyLength, {
        message: `keys must be at most ${LIMITS.metadataKeyLength} characters`,
      }),
    z.string().max(LIMITS.metadataValueLength, {
      message: `values must be strings of at most ${LIMITS.metadataValueLength} characters`,
    }),
  )
  .refine((m) => Object.keys(m).length <= LIMITS.metadataKeys, {
    message: `must have at most ${LIMITS.metadataKeys} keys`,
  });

/**
 * How deep the values inside client_mappings may nest (SPEC 9). A job is one DynamoDB item: `jobData` is an
 * attribute of it (level 1) and `client_mappings` sits inside that (level 2), so of DynamoDB's 32 levels
 * 30 are left below it. (A request body within its own 32 levels always fits: see json-limits.)
 */
export const CLIENT_MAPPINGS_MAX_DEPTH = JSON_MAX_DEPTH - 2;

export const clientMappingsSchema = z.record(z.string(), z.unknown()).superRefine((mappings, ctx) => {
  const problems = checkJsonValue(mappings, CLIENT_MAPPINGS_MAX_DEPTH);
  for (const problem of problems) {
    ctx.addIssue({
      code: 'custom',
      path: [...problem.path],
      message: problem.message,
      params: { code: problem.code },
    });
  }
  // Measured only once the value is known to be shallow (serialising is recursive).
  if (
    problems.length === 0 &&
    Buffer.byteLength(JSON.stringify(mappings), 'utf8') > LIMITS.clientMappingsBytes
  ) {
    ctx.addIssue({
      code: 'custom',
      message: `must be at most ${LIMITS.clientMappingsBytes} bytes when serialised`,
    });
  }
});

const commonJobData = {
  catalog_sources: z
    .array(catalogSourceSchema)
    .min(1, { message: 'must have at least 1 entry' })
    .max(LIMITS.catalogSources, { message: `must have at most ${LIMITS.catalogSources} entries` }),
  merchant_name: nonBlank(LIMITS.merchantName),
  merchant_address: z.string().max(LIMITS.merchantAddress).optional(),
  merchant_token: z.string().max(LIMITS.merchantToken).optional(),
  instructions: z.string().max(LIMITS.instructions).optional(),
  client_mappings: clientMappingsSchema.optional(),
};

const catalogJobData = z.strictObject({
  ...commonJobData,
  language: languageSchema.default(DEFAULT_LANGUAGE),
});

const imageMappingJobData = z.strictObject({
  ...commonJobData,
  image_sources: z
    .array(httpUrl)
    .min(1, { message: 'must have at least 1 entry' })
    .max(LIMITS.imageSources, { message: `must have at most ${LIMITS.imageSources} entries` }),
});

const jobFields = {
  processing_type: z.enum(PROCESSING_TYPES),
  metadata: metadataSchema.optional(),
};

/** Seed 2.1/2.2 with SPEC 3.1's rules: job_data's shape depends on job_type; unknown fields are rejected. */
export const jobSchema = z.discriminatedUnion('job_type', [
  z.strictObject({ job_type: z.literal('new_menu'), job_data: catalogJobData, ...jobFields }),
  z.strictObject({ job_type: z.literal('new_retail_catalog'), job_data: catalogJobData, ...jobFields }),
  z.strictObject({
    job_type: z.literal('retail_image_mapping'),
    job_data: imageMappingJobData,
    ...jobFields,
  }),
]);

export const createJobRequestSchema = z.strictObject({ job: jobSchema });

export type CreateJobRequest = z.infer<typeof createJobRequestSchema>;
export type JobSpec = CreateJobRequest['job'];
export type JobData = JobSpec['job_data'];

/** GET /v1/jobs query parameters. */
export const JOB_STATES = [
  'initiated',
  'processing',
  'in_review',
  'completed',
  'failed',
  'canceled',
] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * A page size in a query string: decimal digits only (`0x10`, `+5`, `1e1` or an empty value are refused,
 * where a plain number coercion would read them), 1–100, 20 when absent.
 */
export const pageLimitSchema = z
  .preprocess((value, ctx) => {
    if (typeof value === 'string' && !/^[0-9]{1,6}$/.test(value)) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be a whole number from 1 to 100, written in digits',
        input: value,
      });
    }
    return value;
  }, z.coerce.number().int().min(1).max(100))
  .default(20)
  .meta({ default: 20 });

export const listJobsQuerySchema = z.strictObject({
  state: z.enum(JOB_STATES).optional(),
  job_type: z.enum(JOB_TYPES).optional(),
  limit: pageLimitSchema,
  cursor: z.string().min(1).max(2048).optional(),
});
export type ListJobsQuery = z.infer<typeof listJobsQuerySchema>;
