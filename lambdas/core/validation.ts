import type * as z from 'zod';
import { type FieldError, ValidationError } from './errors';

/** RFC 6901: `~` and `/` are escaped inside a JSON Pointer segment. */
const segment = (key: PropertyKey): string => String(key).replaceAll('~', '~0').replaceAll('/', '~1');

export const toPointer = (path: readonly PropertyKey[], prefix = ''): string =>
  prefix + path.map((key) => `/${segment(key)}`).join('');

const snake = (code: string): string => code.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();

/** What a JSON value is, in words a client reads (`a number`, `null`, `an array`). */
const kindOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isNaN(value) ? 'not a number' : 'a number';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
};

/** Zod's `expected` of an invalid_type issue, in the same words. */
const EXPECTED: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  record: 'an object',
  map: 'an object',
  array: 'an array',
  tuple: 'an array',
  null: 'null',
};

/**
 * Turns Zod issues into the `errors[]` of SPEC 7, one entry per offending field. The issues must come from a
 * parse with `reportInput` (as parseOrThrow does): a missing field is told from a mistyped one by its input.
 */
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
    if (issue.code === 'invalid_type') {
      // A value of the wrong type is there: saying it "is required" would send the client looking for a
      // missing field.
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      return [
        {
          pointer: toPointer(issue.path, prefix),
          code: 'invalid_type',
          message: `must be ${expected}, not ${kindOf(issue.input)}`,
        },
      ];
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
  // reportInput: an issue carries the value it is about, which tells a missing field from a mistyped one.
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw new ValidationError(
    options.message ?? 'The request is invalid.',
    fieldErrors(result.error, options.prefix),
  );
};
