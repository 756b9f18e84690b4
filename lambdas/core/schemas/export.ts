import * as z from 'zod';
import { literalHostAllowed } from '../address-policy';
import { isUuid, LIMITS, normaliseId } from './job';

export const EXPORT_TYPES = ['catalog'] as const;

/**
 * SPEC 3.2: what an export writes. `catalog_json` is the catalog document of SPEC 5.5; the platform formats
 * are each platform's own import file; `csv` and `xlsx` one row per variant for people in spreadsheets;
 * `changes` what changed since the merchant's previous catalog. Which job types each fits is the table in
 * catalog/export/formats.ts.
 */
export const EXPORT_FORMATS = [
  'catalog_json',
  'shopify_csv',
  'woocommerce_csv',
  'square_csv',
  'google_merchant_tsv',
  'meta_catalog_csv',
  'square_catalog_json',
  'ubereats_menu_json',
  'csv',
  'xlsx',
  'changes',
] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const DEFAULT_EXPORT_FORMAT: ExportFormat = 'catalog_json';

/** What an export file is: `application/json`, `text/csv`, `text/tab-separated-values` or an XLSX workbook. */
export const EXPORT_CONTENT_TYPES = [
  'application/json',
  'text/csv',
  'text/tab-separated-values',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
] as const;
export type ExportContentType = (typeof EXPORT_CONTENT_TYPES)[number];

/** The formats whose offers need a product page URL (`link`): Google Merchant Center and Meta. */
export const LINKED_FORMATS: readonly ExportFormat[] = ['google_merchant_tsv', 'meta_catalog_csv'];

/** `{handle}` (the product's URL handle, as in a Shopify export) or `{id}` (the offer id) in a link template. */
const LINK_PLACEHOLDER = /\{(?:handle|id)\}/;
export const EXPORT_STATES = ['initiated', 'processing', 'completed', 'failed'] as const;
export type ExportState = (typeof EXPORT_STATES)[number];

export interface ExportRequestRules {
  /** Plain `http` callbacks are accepted only by the local runtime (SPEC 3.2). */
  readonly allowHttpCallbacks: boolean;
  /** Loopback callbacks are accepted only by the local runtime (SPEC 8, ALLOW_LOOPBACK_URLS). */
  readonly allowLoopback: boolean;
}

const callbackUrl = (rules: ExportRequestRules) =>
  z
    .string()
    .max(LIMITS.urlLength, { message: `must be at most ${LIMITS.urlLength} characters` })
    .refine(
      (value) => {
        try {
          const url = new URL(value);
          if (url.username || url.password) return false;
          return url.protocol === 'https:' || (rules.allowHttpCallbacks && url.protocol === 'http:');
        } catch {
          return false;
        }
      },
      { message: rules.allowHttpCallbacks ? 'must be an http(s) URL' : 'must be an https URL' },
    )
    .refine(
      (value) => {
        try {
          return literalHostAllowed(new URL(value), { allowLoopback: rules.allowLoopback });
        } catch {
          return true;
        }
      },
      { message: 'must not point at an internal address' },
    );

/** Seed 2.4 with SPEC 3.2: `id` is the id of one of the client's jobs. */
export const makeCreateExportRequestSchema = (rules: ExportRequestRules) =>
  z
    .strictObject({
      id: z.string().refine(isUuid, { message: 'must be a UUID (the id of a job)' }).overwrite(normaliseId),
      type: z.enum(EXPORT_TYPES),
      format: z.enum(EXPORT_FORMATS).default(DEFAULT_EXPORT_FORMAT),
      link_template: z
        .string()
        .max(LIMITS.urlLength, { message: `must be at most ${LIMITS.urlLength} characters` })
        .refine(
          (value) => /^https?:\/\//i.test(value) && URL.canParse(value.replace(LINK_PLACEHOLDER, 'x')),
          {
            message: 'must be an http(s) URL',
          },
        )
        .refine((value) => LINK_PLACEHOLDER.test(value), {
          message: 'must contain {handle} or {id}, so that each product has its own page',
        })
        .optional(),
      callback_url: callbackUrl(rules).nullish(),
    })
    .superRefine((request, ctx) => {
      const linked = LINKED_FORMATS.includes(request.format);
      if (linked && request.link_template === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['link_template'],
          params: { code: 'required' },
          message: `is required for ${request.format}: every offer needs the URL of its product page (link)`,
        });
      }
      if (!linked && request.link_template !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['link_template'],
          message: `is only taken by ${LINKED_FORMATS.join(' and ')}`,
        });
      }
    });

export type CreateExportRequest = z.input<ReturnType<typeof makeCreateExportRequestSchema>>;
