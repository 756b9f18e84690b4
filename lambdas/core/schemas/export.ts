import * as z from 'zod';
import { literalHostAllowed } from '../address-policy';
import { isUuid, LIMITS, normaliseId } from './job';

export const EXPORT_TYPES = ['catalog'] as const;
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
  z.strictObject({
    id: z.string().refine(isUuid, { message: 'must be a UUID (the id of a job)' }).overwrite(normaliseId),
    type: z.enum(EXPORT_TYPES),
    callback_url: callbackUrl(rules).nullish(),
  });

export type CreateExportRequest = z.infer<ReturnType<typeof makeCreateExportRequestSchema>>;
