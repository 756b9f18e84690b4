import type * as z from 'zod';
import { type FieldError, ValidationError } from './errors';

/** RFC 6901: `~` and `/` are escaped inside a JSON Pointer segment. */
const segment = (key: PropertyKey): string => String(key).replaceAll('~', '~0').replaceAll('/', '~1');

export const toPointer = (path: readonly PropertyKey[], prefix = ''): string =>
  prefix + path.map((key) => `/${segment(key)}`).join('');

const snake = (code: string): string => code.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();

/** Turns Zod issues into the `errors[]` of SPEC 7, one entry per offending field. */
export const fieldErrors = (error: z.ZodError, prefix = ''): FieldError[] =>
  error.issues.flatMap((issue): FieldError[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        pointer: toPointer([...issue.path, key], prefix),
        code: 'unknown_field',
        message: `unknown field "${key}"`,
      }));
    }
    if (issue.code === 'invalid_type' && issue.input === undefined) {
      return [{ pointer: toPointer(issue.path, prefix), code: 'required', message: 'is required' }];
    }
    if (issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator) {
      return [
        {
          pointer: toPointer(issue.path, prefix),
          code: 'invalid_value',
          message: issue.message,
        },
      ];
    }
    // Refinements report `custom`; to a client they are an invalid value, unless they name their own code.
    const own = issue.code === 'custom' ? (issue.params as { code?: unknown } | undefined)?.code : undefined;
    const code =
      typeof own === 'string' ? own : issue.code === 'custom' ? 'invalid_value' : snake(issue.code);
    return [{ pointer: toPointer(issue.path, prefix), code, message: issue.message }];
  });

/**
 * Parses `input` with `schema`, or throws a ValidationError listing every problem.
 *
 * @example parseOrThrow(createJobRequestSchema, body) // typed request, or ValidationError
 */
export const parseOrThrow = <S extends z.ZodType>(
  schema: S,
  input: unknown,
  options: { prefix?: string; message?: string } = {},
): z.output<S> => {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(
    options.message ?? 'The request is invalid.',
    fieldErrors(result.error, options.prefix),
  );
};
