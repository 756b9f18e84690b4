import fc from 'fast-check';
import { checkJsonText, checkJsonValue, JSON_MAX_DEPTH, numberProblem } from '../../lambdas/core/json-limits';

/** `{"a":{"a":...1...}}` with `levels` levels (the innermost value at level `levels`). */
const nested = (levels: number, leaf = '1') => `${'{"a":'.repeat(levels)}${leaf}${'}'.repeat(levels)}`;

describe('numberProblem (SPEC 9: finite, within ±(2^53 − 1), as written)', () => {
  it.each([
    ['0'],
    ['-0'],
    ['0.1'],
    ['1.50'],
    ['1E2'],
    ['-9007199254740991'],
    ['9007199254740991'],
    ['123.456e-7'],
    ['0.30000000000000004'],
  ])('accepts %s', (text) => {
    expect(numberProblem(text)).toBeUndefined();
  });

  it.each([
    ['1e400', 'number_out_of_range'],
    ['-1e400', 'number_out_of_range'],
    ['9007199254740992', 'number_out_of_range'],
    ['-9007199254740993', 'number_out_of_range'],
    ['12345678901234567890', 'number_out_of_range'],
    ['1e16', 'number_out_of_range'],
    // Round to a value within the range, but not the value written.
    ['9007199254740991.4', 'number_not_exact'],
    ['1e-400', 'number_not_exact'],
    ['0.10000000000000000001', 'number_not_exact'],
  ])('refuses %s (%s)', (text, code) => {
    expect(numberProblem(text, ['x'])).toMatchObject({ code, path: ['x'] });
  });

  it('accepts every number JavaScript itself writes within the range', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true, min: -(2 ** 53 - 1), max: 2 ** 53 - 1 }),
        (x) => expect(numberProblem(JSON.stringify(x))).toBeUndefined(),
      ),
    );
  });

  it('refuses every integer beyond the range, however it is written', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 2n ** 53n, max: 10n ** 30n }), fc.boolean(), (n, negative) => {
        const text = `${negative ? '-' : ''}${n}`;
        expect(numberProblem(text)?.code).toBe('number_out_of_range');
      }),
    );
  });
});

describe('checkJsonText', () => {
  it(`accepts nesting up to ${JSON_MAX_DEPTH} levels, counted as DynamoDB counts an item's attributes`, () => {
    expect(checkJsonText(nested(JSON_MAX_DEPTH))).toEqual([]);
    expect(checkJsonText(nested(JSON_MAX_DEPTH - 1, '{}'))).toEqual([]);
    expect(checkJsonText(nested(JSON_MAX_DEPTH - 1, '{"b":[]}'))[0]).toMatchObject({ code: 'too_deep' });
    expect(checkJsonText(nested(JSON_MAX_DEPTH - 1, '[]'))).toEqual([]);
  });

  it('refuses the first value nested deeper, with its path', () => {
    const [problem, ...rest] = checkJsonText(nested(JSON_MAX_DEPTH + 1));
    expect(rest).toEqual([]);
    // The map at level 32 is the first to go too deep: it would hold a value at level 33.
    expect(problem).toMatchObject({ code: 'too_deep', path: Array(JSON_MAX_DEPTH).fill('a') });
    expect(checkJsonText(nested(JSON_MAX_DEPTH, '[]'))[0]).toMatchObject({ code: 'too_deep' });
    expect(checkJsonText(nested(JSON_MAX_DEPTH, '"s"'))).toEqual([]);
    expect(checkJsonText(nested(JSON_MAX_DEPTH + 1, 'null'))[0]).toMatchObject({ code: 'too_deep' });
  });

  it('reads 100,000 levels of arrays without recursion and stops at the limit', () => {
    const text = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const problems = checkJsonText(text);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.path).toHaveLength(JSON_MAX_DEPTH);
  });

  it('judges numbers by their digits, with JSON Pointer paths through objects and arrays', () => {
    const text = '{"job":{"m":[1, 2.5, {"x": 9007199254740993}], "n": 1e400, "ok": -12}}';
    expect(checkJsonText(text)).toEqual([
      expect.objectContaining({ path: ['job', 'm', 2, 'x'], code: 'number_out_of_range' }),
      expect.objectContaining({ path: ['job', 'n'], code: 'number_out_of_range' }),
    ]);
  });

  it('refuses __proto__ keys however they are spelled, and checks every copy of a duplicated key', () => {
    expect(checkJsonText('{"a":{"\\u005f_proto__":{}}}')).toEqual([
      expect.objectContaining({ path: ['a', '__proto__'], code: 'reserved_key' }),
    ]);
    expect(checkJsonText('{"a":1e999,"a":1}')).toEqual([
      expect.objectContaining({ path: ['a'], code: 'number_out_of_range' }),
      expect.objectContaining({ path: ['a'], code: 'duplicate_key' }),
    ]);
    expect(checkJsonText('{"constructor":"c","prototype":{}}')).toEqual([]);
  });

  it('refuses a key given twice in one object, however it is spelled, and nowhere else', () => {
    expect(checkJsonText('{"job":{"job_type":"new_menu","job_type":"new_retail_catalog"}}')).toEqual([
      expect.objectContaining({ path: ['job', 'job_type'], code: 'duplicate_key' }),
    ]);
    expect(checkJsonText('{"a":{"k":1,"\\u006b":2}}')).toEqual([
      expect.objectContaining({ path: ['a', 'k'], code: 'duplicate_key' }),
    ]);
    expect(checkJsonText('{"a":{"k":1},"b":{"k":1},"c":[{"k":1},{"k":2}],"k":"k"}')).toEqual([]);
  });

  it('refuses unpaired surrogates in keys and values, escaped or raw, and keeps pairs, NUL and RTL marks', () => {
    expect(checkJsonText('{"name":"\\ud800 x","m":{"\\udfff":"v"},"l":["ok","\\uDBFF"]}')).toEqual([
      expect.objectContaining({ path: ['name'], code: 'invalid_unicode' }),
      expect.objectContaining({ path: ['m', '\udfff'], code: 'invalid_unicode' }),
      expect.objectContaining({ path: ['l', 1], code: 'invalid_unicode' }),
    ]);
    expect(checkJsonText(`{"raw":"${'\ud800'}"}`)).toEqual([
      expect.objectContaining({ path: ['raw'], code: 'invalid_unicode' }),
    ]);
    expect(checkJsonText('{"a":"\\ud83c\\udf55 \\u0000 \\u202e \\\\ud800","\\u202e":"x"}')).toEqual([]);
    expect(checkJsonValue({ a: 'ok', b: ['\udc00'], '\ud800': 1 }, 5).map((p) => p.code)).toEqual([
      'invalid_unicode',
      'invalid_unicode',
    ]);
  });

  it('is not confused by strings that look like JSON', () => {
    const text = JSON.stringify({ s: '{"a":[1e400, "\\"}]', t: '\\', deep: '['.repeat(100) });
    expect(checkJsonText(text)).toEqual([]);
  });

  it('reports in document order, as checkJsonValue does (a later __proto__ key after an earlier big number)', () => {
    const text = '[{"":{"":9007199254740992},"__proto__":{}}]';
    const expected = [
      ['number_out_of_range', [0, '', '']],
      ['reserved_key', [0, '__proto__']],
    ];
    expect(checkJsonText(text, 10).map((p) => [p.code, p.path])).toEqual(expected);
    expect(checkJsonValue(JSON.parse(text), 10).map((p) => [p.code, p.path])).toEqual(expected);
  });

  it('finds exactly what checkJsonValue finds in what JSON.stringify writes', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 40 }), (value) => {
        const text = JSON.stringify(value);
        const fromText = checkJsonText(text, 10).map((p) => [p.code, p.path]);
        const fromValue = checkJsonValue(JSON.parse(text), 10).map((p) => [p.code, p.path]);
        expect(fromText.slice(0, 1)).toEqual(fromValue.slice(0, 1));
      }),
    );
  });
});

describe('checkJsonValue', () => {
  it('refuses values deeper than the levels left (a map or list needs one more), non-finite and unsafe numbers, __proto__ keys', () => {
    const value = JSON.parse('{"a":{"__proto__":{}},"b":[1e400],"c":12345678901234567890,"d":{"e":{"f":1}}}');
    expect(checkJsonValue(value, 2)).toEqual([
      expect.objectContaining({ path: ['a', '__proto__'], code: 'reserved_key' }),
      expect.objectContaining({ path: ['b', 0], code: 'number_out_of_range' }),
      expect.objectContaining({ path: ['c'], code: 'number_out_of_range' }),
      expect.objectContaining({ path: ['d', 'e'], code: 'too_deep' }),
    ]);
    expect(checkJsonValue({ constructor: 'c', n: -(2 ** 53 - 1), d: { e: 1 } }, 2)).toEqual([]);
  });
});
