import fc from 'fast-check';
import { gs1CheckDigit, hasValidCheckDigit, parseGtin, toGtin14 } from '../../../lambdas/core/catalog/gtin';

describe('GS1 check digit', () => {
  test.each([
    ['03600029145', 2], // UPC-A 036000291452
    ['400638133393', 1], // EAN-13 4006381333931
    ['9638507', 4], // EAN-8 96385074
    ['1001234567890', 2], // GTIN-14 10012345678902
    ['0000000000000', 0],
  ])('%s → %i', (digits, check) => {
    expect(gs1CheckDigit(digits)).toBe(check);
  });

  test('property: exactly one final digit makes a valid code', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{7,13}$/), (body) => {
        const valid = [...'0123456789'].filter((d) => hasValidCheckDigit(`${body}${d}`));
        expect(valid).toEqual([String(gs1CheckDigit(body))]);
      }),
    );
  });

  test('property: changing any single digit breaks the check', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{11,13}$/),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (body, position, delta) => {
          const code = `${body}${gs1CheckDigit(body)}`;
          const i = position % code.length;
          const changed = `${code.slice(0, i)}${(Number(code[i]) + delta) % 10}${code.slice(i + 1)}`;
          expect(hasValidCheckDigit(changed)).toBe(false);
        },
      ),
    );
  });

  test('property: zero-padding keeps a code valid (UPC-12 ≡ GTIN-13 ≡ GTIN-14)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{11}$/), (body) => {
        const upc = `${body}${gs1CheckDigit(body)}`;
        const ean13 = `0${upc}`;
        const gtin14 = `00${upc}`;
        const parsed = [upc, ean13, gtin14].map(parseGtin);
        for (const p of parsed) expect(p.ok).toBe(true);
        expect(new Set(parsed.map((p) => (p.ok ? p.gtin14 : null)))).toEqual(new Set([gtin14]));
      }),
    );
  });
});

describe('parseGtin', () => {
  test.each([
    ['036000291452', '036000291452', '00036000291452'],
    ['4006381333931', '4006381333931', '04006381333931'],
    ['96385074', '96385074', '00000096385074'],
    ['10012345678902', '10012345678902', '10012345678902'],
    [' 036000291452 ', '036000291452', '00036000291452'],
  ])('%j is valid', (input, gtin, gtin14) => {
    expect(parseGtin(input)).toEqual({ ok: true, gtin, gtin14 });
  });

  test('a number that lost its leading zero (JSON, spreadsheets) is padded back', () => {
    expect(parseGtin(36000291452)).toEqual({ ok: true, gtin: '036000291452', gtin14: '00036000291452' });
  });

  test.each([
    ['036000291453', 'wrong check digit (expected 2)'],
    ['03600029145', 'must be 8, 12, 13 or 14 digits long (has 11)'],
    ['0360-0029-1452', 'digits only'],
    ['ABC123456789', 'digits only'],
    ['', 'digits only'],
    ['123456789012345', 'has 15'],
  ])('%j is refused: %s', (input, message) => {
    const result = parseGtin(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(message);
  });

  test('toGtin14 pads', () => {
    expect(toGtin14('96385074')).toBe('00000096385074');
  });
});
