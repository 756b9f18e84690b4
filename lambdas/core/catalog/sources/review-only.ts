import type { SourceFormat, SourceReader } from './types';

export interface ReviewOnlyOptions
  extends Pick<SourceReader, 'signature' | 'contentTypes' | 'extensions' | 'sniffText'> {
  /** Why a person must read it, e.g. `a PDF menu`. */
  readonly what: string;
  /** A text format (detected only when it decodes as text). */
  readonly textual?: boolean;
}

/**
 * A reader for a format the service recognises but does not read by machine (yet): the source yields no
 * drafts and the job goes to `in_review`, where the operations team reads it (SPEC 5.2). The body is not
 * read; the pipeline closes it.
 */
export const reviewOnlyReader = (format: SourceFormat, options: ReviewOnlyOptions): SourceReader => ({
  format,
  textual: options.textual ?? false,
  signature: options.signature,
  contentTypes: options.contentTypes,
  extensions: options.extensions,
  sniffText: options.sniffText,
  read: async (source, ctx) => {
    ctx.needsReview(`${source.source} is ${options.what}, which the operations team reads`);
    return { kind: 'drafts', drafts: [] };
  },
});
