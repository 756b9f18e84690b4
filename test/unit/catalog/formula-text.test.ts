import * as fc from 'fast-check';
import {
  formulaLike,
  markAsText,
  markLikeWooCommerce,
  unmarkText,
} from '../../../lambdas/core/catalog/formula-text';

/** Spreadsheet formula injection (OWASP "CSV Injection"): marking text so it is never run, and unmarking it. */

describe('formula-like text', () => {
  it.each(['=1+1', '+44 20', '-x', '@SUM(A1)', '\tTab', '\rCR', '=HYPERLINK("https://evil.example","x")'])(
    '%j is marked as text',
    (text) => {
      expect(formulaLike(text)).toBe(true);
      expect(markAsText(text)).toBe(`'${text}`);
    },
  );

  it.each(['Tea', "O'Brien's", '-5', '+1.50', '.5', '', '1-2'])('%j is left as it is', (text) => {
    expect(formulaLike(text)).toBe(false);
    expect(markAsText(text)).toBe(text);
    expect(unmarkText(text)).toBe(text);
  });

  it('marks text that already begins with apostrophes before a trigger, so that unmarking gives it back', () => {
    expect(markAsText("'=x")).toBe("''=x");
    expect(unmarkText("''=x")).toBe("'=x");
    expect(unmarkText("'plain")).toBe("'plain");
  });

  it('gives back any text: unmarkText(markAsText(t)) = t, and marked text never reads as a formula', () => {
    const cell = fc.oneof(
      fc.string(),
      fc
        .tuple(fc.constantFrom("'", "''", '=', '+', '-', '@', '\t', '\r', ''), fc.string())
        .map(([a, b]) => a + b),
    );
    fc.assert(
      fc.property(cell, (text) => {
        expect(unmarkText(markAsText(text))).toBe(text);
        expect(formulaLike(markAsText(text))).toBe(false);
      }),
    );
  });

  it("marks as WooCommerce's exporter does: one apostrophe before =, +, - or @, which its importer takes off", () => {
    expect(markLikeWooCommerce('=1+1')).toBe("'=1+1");
    expect(markLikeWooCommerce('-5')).toBe('-5');
    expect(markLikeWooCommerce('Tea')).toBe('Tea');
    fc.assert(
      fc.property(
        fc.tuple(fc.constantFrom('=', '+', '-', '@', ''), fc.string()).map(([a, b]) => a + b),
        (text) => {
          fc.pre(!text.startsWith("'"));
          expect(unmarkText(markLikeWooCommerce(text))).toBe(text);
        },
      ),
    );
  });
});
