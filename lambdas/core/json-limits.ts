/** One place where a JSON document breaks a limit: the path to the value, a stable code, a message. */
export interface JsonProblem {
  readonly path: readonly (string | number)[];
  readonly code:
    | 'too_deep'
    | 'reserved_key'
    | 'number_out_of_range'
    | 'number_not_exact'
    | 'duplicate_key'
    | 'invalid_unicode';
  readonly message: string;
}

type Path = readonly (string | number)[];

/**
 * SPEC 9's limits on client JSON, which DynamoDB and the SDK's marshalling would otherwise enforce with a
 * 5xx (or, for a few key names, silently): nesting at most 32 levels, numbers finite and within
 * ±(2^53 − 1), and no `__proto__` key (JavaScript turns it into an object's prototype when the object is
 * copied, so the data would vanish).
 *
 * Levels are counted as DynamoDB counts them in an item: the item's own attributes are level 1, and a value
 * may stand at level 32 if it is a scalar, at level 31 if it is a map or list (which wraps what it holds).
 * A request body is counted the same way (its members are level 1), so a body within the limit fits an item.
 */
export const JSON_MAX_DEPTH = 32;

/** How many problems one request reports at most: enough to act on, never a body the size of the input. */
const MAX_REPORTED = 20;

const SAFE = Number.MAX_SAFE_INTEGER;

const tooDeep = (path: Path, maxDepth: number): JsonProblem => ({
  path,
  code: 'too_deep',
  message: `is nested too deeply: JSON may be nested at most ${maxDepth} levels here`,
});

const protoKey = (path: Path): JsonProblem => ({
  path,
  code: 'reserved_key',
  message: 'the key "__proto__" is not accepted',
});

/** String.prototype.isWellFormed (ES2024): in a `u` regex a surrogate matches \p{Cs} only when unpaired. */
const wellFormed = (text: string): boolean => !/\p{Cs}/u.test(text);

const duplicateKey = (path: Path): JsonProblem => ({
  path,
  code: 'duplicate_key',
  message: 'this key appears more than once in its object; JSON parsers disagree on which value counts',
});

const invalidUnicode = (path: Path): JsonProblem => ({
  path,
  code: 'invalid_unicode',
  message:
    'holds an unpaired surrogate (\\uD800-\\uDFFF alone), which is not Unicode text and cannot be stored as UTF-8',
});

const outOfRange = (path: Path): JsonProblem => ({
  path,
  code: 'number_out_of_range',
  message: 'numbers must be finite and within ±9007199254740991 (2^53 − 1); send larger values as strings',
});

const inexact = (path: Path): JsonProblem => ({
  path,
  code: 'number_not_exact',
  message: 'has more digits than can be kept exactly (15 significant digits always are); send it as a string',
});

/** A decimal's canonical spelling (`-125e-2` for `-1.250`), so that two spellings of one value compare equal. */
const normalDecimal = (text: string): string => {
  const m = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return text;
  const [, sign = '', int = '', frac = '', exp = '0'] = m;
  let digits = `${int}${frac}`.replace(/^0+/, '');
  let exponent = Number(exp) - frac.length;
  const trimmed = digits.replace(/0+$/, '');
  exponent += digits.length - trimmed.length;
  digits = trimmed;
  return digits === '' ? '0' : `${sign}${digits}e${exponent}`;
};

/**
 * The problem with one JSON number as written, or undefined: it must parse to a finite double within
 * ±(2^53 − 1) that denotes the same decimal value as the text (so `1e400`, `9007199254740993`,
 * `1e-400` and `0.10000000000000000001` are refused, `0.1`, `1.50` and `-0` are not).
 *
 * @example numberProblem('12345678901234567890') // { code: 'number_out_of_range', ... }
 */
export const numberProblem = (text: string, path: Path = []): JsonProblem | undefined => {
  const value = Number(text);
  if (!Number.isFinite(value) || Math.abs(value) > SAFE) return outOfRange(path);
  if (normalDecimal(text) !== normalDecimal(String(value))) return inexact(path);
  return undefined;
};

interface Frame {
  readonly object: boolean;
  /** The member being read: its key (objects) or index (arrays). */
  at: string | number;
  /** Objects: the next string is a key. */
  expectKey: boolean;
  /** Objects: the keys read so far. */
  readonly keys?: Set<string>;
}

const pathOf = (frames: readonly Frame[]): Path => frames.map((f) => f.at);

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The index just past the string literal that opens at `start`, or -1 when it never closes. */
const stringEnd = (text: string, start: number): number => {
  for (let from = start + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text[quote - 1 - backslashes] === '\\') backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
};

/**
 * Checks the text of a JSON document against the limits, reading it as written: numbers are judged by
 * their digits (JSON.parse would already have rounded `9007199254740993` and turned `1e400` into Infinity),
 * every occurrence of a duplicated key is checked (and a key given twice in one object is refused: which
 * value wins differs between parsers), a string that is not well-formed Unicode (an unpaired surrogate
 * escape) is refused, and nothing is ever recursed into, however deep.
 * Call it on text JSON.parse has accepted; on anything else it stops early and reports what it saw.
 *
 * @example checkJsonText('{"a":{"__proto__":1}}') // [{ path: ['a', '__proto__'], code: 'reserved_key', ... }]
 */
export const checkJsonText = (text: string, maxDepth = JSON_MAX_DEPTH): JsonProblem[] => {
  const problems: JsonProblem[] = [];
  const frames: Frame[] = [];
  const report = (problem: JsonProblem | undefined): boolean => {
    if (problem) problems.push(problem);
    return problems.length >= MAX_REPORTED;
  };
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    const top = frames.at(-1);
    if (char === ' ' || char === '\n' || char === '\r' || char === '\t' || char === ':') {
      i += 1;
    } else if (char === ',') {
      if (top?.object) top.expectKey = true;
      else if (top) top.at = (top.at as number) + 1;
      i += 1;
    } else if (char === '}' || char === ']') {
      frames.pop();
      i += 1;
    } else if (char === '"') {
      const end = stringEnd(text, i);
      if (end < 0) break;
      const literal = text.slice(i, end);
      i = end;
      // Only an escape (`\ud800`) or a raw surrogate can make a string ill-formed; most need no parse.
      const value =
        (top?.object && top.expectKey) || /\\u[dD][89a-fA-F]|[\uD800-\uDFFF]/.test(literal)
          ? (JSON.parse(literal) as string)
          : undefined;
      if (top?.object && top.expectKey) {
        top.at = value as string;
        top.expectKey = false;
        if (top.at === '__proto__' && report(protoKey(pathOf(frames)))) break;
        if (top.keys?.has(top.at) && report(duplicateKey(pathOf(frames)))) break;
        top.keys?.add(top.at);
      }
      if (value !== undefined && !wellFormed(value) && report(invalidUnicode(pathOf(frames)))) break;
    } else if (char === '{' || char === '[') {
      // A map or list takes a level more than it stands at, even empty: DynamoDB counts its wrapping.
      // (So no scalar can be too deep without a container above it being too deep first.)
      if (frames.length >= maxDepth) {
        report(tooDeep(pathOf(frames), maxDepth));
        break;
      }
      frames.push(
        char === '{'
          ? { object: true, at: 0, expectKey: true, keys: new Set() }
          : { object: false, at: 0, expectKey: false },
      );
      i += 1;
    } else {
      NUMBER.lastIndex = i;
      const number = NUMBER.exec(text);
      if (number) {
        if (report(numberProblem(number[0], pathOf(frames)))) break;
        i += number[0].length;
      } else {
        // true, false, null (or text JSON.parse refused, which is not ours to report).
        const literal = /^(?:true|false|null)/.exec(text.slice(i, i + 5));
        if (!literal) break;
        i += literal[0].length;
      }
    }
  }
  return problems;
};

/**
 * Checks a parsed JSON value against the limits (iteratively, so depth cannot exhaust the stack). Used by
 * schemas for values that reach storage nested inside a record, with the depth left to them there.
 * Numbers can only be judged as parsed here; checkJsonText sees the digits.
 *
 * @example checkJsonValue({ a: Infinity }, 30) // [{ path: ['a'], code: 'number_out_of_range', ... }]
 */
export const checkJsonValue = (value: unknown, maxDepth: number): JsonProblem[] => {
  const problems: JsonProblem[] = [];
  // A key's own problem waits on the stack beside the values, so that problems come in document order,
  // as checkJsonText reports them.
  const stack: { value: unknown; path: Path; problem?: JsonProblem }[] = [{ value, path: [] }];
  while (stack.length > 0 && problems.length < MAX_REPORTED) {
    const { value: current, path, problem } = stack.pop()!;
    if (problem !== undefined) {
      problems.push(problem);
    } else if (current !== null && typeof current === 'object' && path.length >= maxDepth) {
      problems.push(tooDeep(path, maxDepth));
    } else if (typeof current === 'number') {
      if (!Number.isFinite(current) || Math.abs(current) > SAFE) problems.push(outOfRange(path));
    } else if (typeof current === 'string') {
      if (!wellFormed(current)) problems.push(invalidUnicode(path));
    } else if (Array.isArray(current)) {
      for (let k = current.length - 1; k >= 0; k--) stack.push({ value: current[k], path: [...path, k] });
    } else if (current !== null && typeof current === 'object') {
      const keys = Object.keys(current);
      for (let k = keys.length - 1; k >= 0; k--) {
        const key = keys[k]!;
        const at = [...path, key];
        if (key === '__proto__') stack.push({ value: undefined, path: at, problem: protoKey(at) });
        else if (!wellFormed(key)) stack.push({ value: undefined, path: at, problem: invalidUnicode(at) });
        else stack.push({ value: (current as Record<string, unknown>)[key], path: at });
      }
    }
  }
  return problems;
};
