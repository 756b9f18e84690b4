import * as z from 'zod';
import { pageLimitSchema } from './job';

/** GET /v1/ops/jobs: only the review queue is listed (SPEC 5.4). */
export const opsListQuerySchema = z.strictObject({
  state: z.literal('in_review').default('in_review'),
  limit: pageLimitSchema,
  cursor: z.string().min(1).max(2048).optional(),
});

/** POST /v1/ops/jobs/{id}/fail. */
export const opsFailRequestSchema = z.strictObject({
  code: z.string().regex(/^[a-z][a-z0-9_]{0,62}$/, { message: 'must be a snake_case code' }),
  message: z
    .string()
    .max(2000)
    .refine((s) => s.trim().length > 0, { message: 'must not be blank' }),
});
export type OpsFailRequest = z.infer<typeof opsFailRequestSchema>;
