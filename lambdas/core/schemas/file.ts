import * as z from 'zod';

export const FILE_STATES = ['pending', 'uploaded'] as const;
export type FileState = (typeof FILE_STATES)[number];

/** `type/subtype` with optional parameters, as RFC 9110 allows. */
const MEDIA_TYPE =
  /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;\s*[a-z0-9!#$&^_.+-]+=("[^"]*"|[a-z0-9!#$&^_.+-]+))*$/i;

/** SPEC 3.3: the upload endpoint's request. */
export const createFileRequestSchema = z.strictObject({
  filename: z
    .string()
    .min(1)
    .max(255)
    .refine((s) => !/[/\\]/.test(s) && ![...s].some((c) => c.charCodeAt(0) < 0x20), {
      message: 'must be a plain file name (no path separators or control characters)',
    }),
  content_type: z.string().max(255).regex(MEDIA_TYPE, { message: 'must be a media type such as text/csv' }),
});

export type CreateFileRequest = z.infer<typeof createFileRequestSchema>;
