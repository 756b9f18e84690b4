import { fixOcrWords } from '../../../../lambdas/core/catalog/drafts/ocr-words';
import type { TextRun } from '../../../../lambdas/core/catalog/drafts/text-runs';
import { aRun } from '../../../fixtures/drafts/runs';

/** OCR words of one row, left to right with a word space between them. */
const row = (y: number, ...texts: string[]): TextRun[] => {
  let x = 40;
  return texts.map((text) => {
    const run = aRun(text, x, y, { size: 20, confidence: 0.97 });
    x += run.width + 8;
    return run;
  });
};

const texts = (runs: readonly TextRun[]) => runs.map((r) => r.text);

describe('fixOcrWords (issue 23: what OCR glued or misread, fixed by the page evidence)', () => {
  it('cuts a price glued to the dish, with or without its currency mark', () => {
    const fixed = fixOcrWords([...row(10, 'SOUP$4.50'), ...row(40, 'Pomodoro4,50')]);
    expect(texts(fixed)).toEqual(['SOUP', '$4.50', 'Pomodoro', '4,50']);
    // The pieces share the word's box, in order.
    expect(fixed[1]!.x).toBeGreaterThan(fixed[0]!.x);
    expect(fixed[1]!.x + fixed[1]!.width).toBeCloseTo(fixed[0]!.x + 9 * 20 * 0.5);
  });

  it('joins a price cut at its decimal comma (`3,` `50€`), and only side by side on one row', () => {
    const fixed = fixOcrWords([
      ...row(10, 'Infusion', '3,', '50€'),
      ...row(40, 'Grog', '5,'),
      ...row(70, '50€'),
    ]);
    expect(texts(fixed)).toEqual(['Infusion', '3,50€', 'Grog', '5,', '50€']);
    expect(fixed[1]!.confidence).toBeLessThanOrEqual(0.85);
    // Two amounts side by side are two prices, not one cut in two.
    expect(texts(fixOcrWords(row(10, 'Pizza', '7,40', '9,40')))).toEqual(['Pizza', '7,40', '9,40']);
    // Cut between its decimals, the currency after them.
    expect(texts(fixOcrWords(row(10, 'Thé', '3,5', '0€')))).toEqual(['Thé', '3,50€']);
    expect(texts(fixOcrWords(row(10, 'Wine', '0,2', '5')))).toEqual(['Wine', '0,2', '5']);
  });

  it('joins a price cut before its decimal point (`7` `.5`), and only side by side on one row', () => {
    const fixed = fixOcrWords([
      ...row(10, 'GELATO', '-', '7', '.5'),
      ...row(40, 'Pasta', '12', ',50€'),
      ...row(70, 'Soup', '4'),
      ...row(100, '.5'),
    ]);
    expect(texts(fixed)).toEqual(['GELATO', '-', '7.5', 'Pasta', '12,50€', 'Soup', '4', '.5']);
    expect(fixed[2]!.confidence).toBeLessThanOrEqual(0.85);
    // A number and a word, or two whole numbers, stay apart.
    expect(texts(fixOcrWords(row(10, 'Wings', '6', '12')))).toEqual(['Wings', '6', '12']);
    expect(texts(fixOcrWords(row(10, 'Beer', '0', '.5l')))).toEqual(['Beer', '0', '.5l']);
  });

  it('reads an S before an amount as a lost $ only on a page that writes $ elsewhere', () => {
    const withDollars = [
      ...row(10, 'SANDWICHS4'),
      ...row(40, 'Fries', 'S3.50'),
      ...row(70, 'add', 'bacon', '+$2'),
    ];
    expect(texts(fixOcrWords(withDollars))).toEqual([
      'SANDWICH',
      '$4',
      'Fries',
      '$3.50',
      'add',
      'bacon',
      '+$2',
    ]);
    const without = [...row(10, 'SANDWICHS4'), ...row(40, 'Fries', 'S3.50')];
    expect(texts(fixOcrWords(without))).toEqual(['SANDWICHS4', 'Fries', 'S3.50']);
  });

  it('lowers the confidence of what it changed, so the drafter does not confirm that price', () => {
    const fixed = fixOcrWords([...row(10, 'Fries', 'S3.50'), ...row(40, 'Tea', '$2.00')]);
    expect(fixed.find((r) => r.text === '$3.50')!.confidence).toBeLessThan(0.9);
    expect(fixed.find((r) => r.text === '$2.00')!.confidence).toBe(0.97);
  });

  it('splits title-case words read without their spaces, not a name with one small letter before a capital', () => {
    expect(
      texts(fixOcrWords(row(10, 'StuffedSeaBass', 'PepperPuree', 'McDonald', 'iPhone', 'Soup'))),
    ).toEqual(['Stuffed', 'Sea', 'Bass', 'Pepper', 'Puree', 'McDonald', 'iPhone', 'Soup']);
    const [stuffed, sea] = fixOcrWords(row(10, 'StuffedSeaBass'));
    expect(sea!.x).toBeCloseTo(stuffed!.x + stuffed!.width);
  });

  it('splits words glued at a change of case and reads a 0 among letters as O', () => {
    expect(texts(fixOcrWords(row(10, 'theEGG', 'ESPRESS0', 'theB.L.T.', 'McDONALD', '100g')))).toEqual([
      'the',
      'EGG',
      'ESPRESSO',
      'the',
      'B.L.T.',
      'McDONALD',
      '100g',
    ]);
  });

  it('puts back a lost decimal point when the page writes its prices with decimals', () => {
    const runs = [
      ...row(10, 'Soup', '$4.50'),
      ...row(40, 'Salad', '$5.75'),
      ...row(70, 'Fries', '$3.25'),
      ...row(100, 'Chili', '$450'),
      ...row(130, 'Wine', 'bottle', '$120'),
    ];
    const fixed = fixOcrWords(runs);
    expect(texts(fixed).slice(-4)).toEqual(['$4.50', 'Wine', 'bottle', '$120']);
    // $120 is not $12.0 on a page that writes two decimals: only flagged.
    expect(fixed.find((r) => r.text === '$120')!.confidence).toBeLessThanOrEqual(0.5);
    expect(fixed.find((r) => r.text === '$4.50' && r.y === 100)!.confidence).toBeLessThan(0.9);
  });

  it('puts back a lost decimal point in a row of size prices (`740  9,40`)', () => {
    const runs = [
      ...row(10, 'Pfannkuchen', 'mit', 'Speck', '6,90', '8,80'),
      ...row(40, 'Pfannkuchen', 'mit', 'Birne', '7,40', '9,40'),
      ...row(70, 'Pfannkuchen', 'mit', 'Gyros', '7,40', '9,40'),
      ...row(100, 'Pfannkuchen', 'mit', 'Mettwurst', '740', '9,40'),
    ];
    const fixed = fixOcrWords(runs).filter((r) => r.y === 100);
    expect(texts(fixed)).toEqual(['Pfannkuchen', 'mit', 'Mettwurst', '7.40', '9,40']);
    expect(fixed[3]!.confidence).toBeLessThan(0.9);
    // A number inside a line is still none of this: `Menü 740 g Fleisch` is left alone.
    expect(
      texts(fixOcrWords([...runs.slice(0, 15), ...row(100, 'Platte', '740', 'g', 'Fleisch')])).slice(-4),
    ).toEqual(['Platte', '740', 'g', 'Fleisch']);
  });

  it('reads a price 10 times its neighbours with one decimal where the page writes one', () => {
    const runs = [
      ...row(10, 'Egg', '$4'),
      ...row(40, 'Hash', '$6.5'),
      ...row(70, 'Toast', '$5.5'),
      ...row(100, 'Cuban', '$9.5'),
      ...row(130, 'Waker', '$45'),
    ];
    expect(texts(fixOcrWords(runs)).at(-1)).toBe('$4.5');
  });

  it('only flags a price out of line when the page gives no evidence of decimals', () => {
    const runs = [
      ...row(10, 'Soup', '4'),
      ...row(40, 'Salad', '6'),
      ...row(70, 'Fries', '3'),
      ...row(100, 'Chili', '450'),
      ...row(130, 'Year', 'since', '1985', 'family'),
    ];
    const fixed = fixOcrWords(runs);
    const chili = fixed.find((r) => r.y === 100 && /\d/.test(r.text))!;
    expect(chili.text).toBe('450');
    expect(chili.confidence).toBeLessThanOrEqual(0.5);
    // A number inside a line is no price.
    expect(fixed.find((r) => r.text === '1985')!.confidence).toBe(0.97);
  });

  it('leaves a text layer alone', () => {
    const layer = [aRun('SOUPS4.50', 10, 10), aRun('$4.50', 100, 10)];
    expect(fixOcrWords(layer)).toEqual(layer);
  });
});
