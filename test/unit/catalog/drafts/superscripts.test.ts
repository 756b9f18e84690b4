import { rebuildLines } from '../../../../lambdas/core/catalog/drafts/layout';
import { draftMenu } from '../../../../lambdas/core/catalog/drafts/menu-draft';
import { withoutMarks, withoutOverstrikes } from '../../../../lambdas/core/catalog/drafts/read-draft';
import { aRightAligned, aRun, LETTER } from '../../../fixtures/drafts/runs';

// Allergen numbers set small after the dish names (`Escargots 1, 4, 7`) are marks, not prices, and not text
// the draft needs; strewn over a two-column page they also stand in its gutter.
describe('withoutMarks', () => {
  const page = [
    aRun('Entrées', 40, 40, { size: 18 }),
    aRun('Escargots', 40, 70, { size: 12 }),
    aRun('1, 4, 7', 100, 68, { size: 6 }),
    aRightAligned('12', 280, 70, { size: 12 }),
    aRun('Nem', 40, 90, { size: 12 }),
    aRun('7', 66, 88, { size: 6 }),
    aRightAligned('13,50', 280, 90, { size: 12 }),
    aRun('(sauce aigre douce)', 40, 104, { size: 8 }),
    aRun('Salade', 40, 120, { size: 12 }),
    aRightAligned('9', 280, 120, { size: 12 }),
  ];

  it('leaves out tiny runs of digits and commas on a text page, and nothing else', () => {
    expect(withoutMarks(page).map((r) => r.text)).toEqual([
      'Entrées',
      'Escargots',
      '12',
      'Nem',
      '13,50',
      '(sauce aigre douce)',
      'Salade',
      '9',
    ]);
  });

  it('keeps OCR words whatever their size (OCR gives no type size to tell a mark by)', () => {
    const ocr = page.map((r) => ({ ...r, confidence: 0.9 }));
    expect(withoutMarks(ocr)).toHaveLength(page.length);
  });

  it('drafts the dishes without the marks as prices', () => {
    const { items } = draftMenu(rebuildLines(withoutMarks(page)), {
      source: 'menu.pdf',
      sourceIndex: 0,
      currency: 'EUR',
      pages: [LETTER],
    });
    expect(items.map((i) => [i.name, i.variants.map((v) => v.price?.amount)])).toEqual([
      ['Escargots', [1200]],
      ['Nem', [1350]],
      ['Salade', [900]],
    ]);
  });
});

// A design tool's fake bold: the text drawn again over itself, a little offset, glyph by glyph.
describe('withoutOverstrikes', () => {
  const struck = (text: string, x: number, y: number, times: number) =>
    Array.from({ length: times }, (_, n) =>
      [...text].map((letter, i) => aRun(letter, x + i * 10 + n * 0.8, y + n * 0.6, { size: 20 })),
    ).flat();

  it('keeps one copy of a text struck over itself, in bold, and the rest of the page as it is', () => {
    const runs = [
      ...struck('Gaumais', 100, 40, 3),
      aRun('Escargots', 40, 80, { size: 12 }),
      aRun('Escargots', 40, 100, { size: 12 }),
    ];
    const kept = withoutOverstrikes(runs);
    expect(
      kept
        .filter((r) => r.y < 60)
        .map((r) => r.text)
        .join(''),
    ).toBe('Gaumais');
    expect(kept.filter((r) => r.y < 60).every((r) => r.bold)).toBe(true);
    // The same word on two lines is two words.
    expect(kept.filter((r) => r.text === 'Escargots')).toHaveLength(2);
    expect(kept.filter((r) => r.text === 'Escargots').some((r) => r.bold)).toBe(false);
    expect(rebuildLines(kept)[0]!.text).toBe('Gaumais');
  });

  it('leaves OCR words alone', () => {
    const ocr = struck('Soup', 10, 10, 2).map((r) => ({ ...r, confidence: 0.9 }));
    expect(withoutOverstrikes(ocr)).toEqual(ocr);
  });
});
