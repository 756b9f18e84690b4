import { rebuildLines } from '../../../../lambdas/core/catalog/drafts/layout';
import { columnBoundary, rebuildPageLines } from '../../../../lambdas/core/catalog/drafts/ocr-columns';
import type { TextRun } from '../../../../lambdas/core/catalog/drafts/text-runs';
import { aRun } from '../../../fixtures/drafts/runs';

const SIZE = 30;

/**
 * OCR words of one phrase, one run a word, on a photo whose columns lean `slant` pixels right per pixel down
 * (a menu board photographed from below and to the side).
 */
const words = (text: string, x: number, y: number, slant = 0): TextRun[] => {
  const runs: TextRun[] = [];
  let at = x + slant * y;
  for (const word of text.split(' ')) {
    const run = aRun(word, at, y, { size: SIZE, confidence: 0.95 });
    runs.push(run);
    at += run.width + SIZE * 0.4;
  }
  return runs;
};

const OCR_PAGE = { page: 1, width: 1400, height: 1400, method: 'ocr' as const };

/** Two columns of dishes, each `name  price`, the right column's names starting close after the left's prices. */
const twoColumns = (slant: number): TextRun[] => {
  const left = [
    ['Fish and Chips', '$9.00'],
    ['Grilled Fish Sandwich', '$11.00'],
    ['Patty Melt', '$10.00'],
    ['Chicken Tenders', '$6.75'],
    ['Curly Fries', '$3.50'],
    ['French Fries', '$3.50'],
  ];
  const right = [
    ['Triton Burger', '$8.00'],
    ['Double Burger', '$12.00'],
    ['Hot Dog', '$6.00'],
    ['Onion Rings', '$5.00'],
    ['Veggie Burger', '$9.00'],
    ['Side Salad', '$4.00'],
  ];
  const runs: TextRun[] = [...words('MAINS', 100, 60, slant), ...words('BURGERS', 685, 60, slant)];
  left.forEach(([name, price], i) => {
    const y = 110 + i * 42;
    runs.push(...words(name!, 100, y, slant), ...words(price!, 560, y, slant));
  });
  right.forEach(([name, price], i) => {
    const y = 110 + i * 42;
    runs.push(...words(name!, 685, y, slant), ...words(price!, 1150, y, slant));
  });
  return runs;
};

describe('ocr columns (issue 23: photographed columns read as one line)', () => {
  it('keeps slanted columns apart: each dish on its own line, the left column read first', () => {
    const runs = twoColumns(0.15);
    // The layout alone finds no straight gutter and joins the columns row by row.
    expect(
      rebuildLines(runs).some((l) => l.text.includes('Fish and Chips') && l.text.includes('Triton')),
    ).toBe(true);
    const lines = rebuildPageLines(runs, [OCR_PAGE], 'USD').map((l) => l.text);
    expect(lines).toEqual([
      'MAINS',
      'Fish and Chips  $9.00',
      'Grilled Fish Sandwich  $11.00',
      'Patty Melt  $10.00',
      'Chicken Tenders  $6.75',
      'Curly Fries  $3.50',
      'French Fries  $3.50',
      'BURGERS',
      'Triton Burger  $8.00',
      'Double Burger  $12.00',
      'Hot Dog  $6.00',
      'Onion Rings  $5.00',
      'Veggie Burger  $9.00',
      'Side Salad  $4.00',
    ]);
  });

  it('finds the boundary along the gaps after the left column prices, leaning as the photo does', () => {
    const boundary = columnBoundary(twoColumns(0.15), 'USD');
    expect(boundary).toBeDefined();
    expect(boundary!.slope).toBeCloseTo(0.15, 1);
  });

  it('interrupts the columns at a row that crosses the boundary (a heading over both)', () => {
    const runs = [
      ...twoColumns(0),
      ...words('DESSERTS AND ICE CREAM OF THE HOUSE', 300, 400),
      ...words('Tiramisu', 100, 450),
      ...words('$7.00', 560, 450),
    ];
    const lines = rebuildPageLines(runs, [OCR_PAGE], 'USD').map((l) => l.text);
    expect(lines.indexOf('DESSERTS AND ICE CREAM OF THE HOUSE')).toBeGreaterThan(
      lines.indexOf('Onion Rings  $5.00'),
    );
    expect(lines.at(-1)).toBe('Tiramisu  $7.00');
  });

  it('draws no boundary that would cut dishes from their prices (a numbered two-column legend under one column of dishes)', () => {
    const dishes = [
      'Baked potatoes',
      'Potato chips',
      'Grilled vegetables',
      'Roasted peppers',
      'Tiramisu',
      'Ice cream',
    ];
    const runs: TextRun[] = [...words('SIDE DISHES', 300, 40)];
    dishes.forEach((name, i) => {
      runs.push(...words(name, 60, 100 + i * 50), ...words('€ 6.00', 900, 100 + i * 50));
    });
    // The legend: `1 Cereals …   8 Nuts …`, its numbers after the left half's text read as prices before a word.
    ['Cereals', 'Crustaceans', 'Eggs', 'Fish'].forEach((name, i) => {
      const y = 450 + i * 40;
      runs.push(
        ...words(`${i + 1}`, 60, y),
        ...words(`${name} and products thereof`, 120, y),
        ...words(`${i + 8}`, 560, y),
        ...words('Nuts and products thereof', 640, y),
      );
    });
    // The legend's number gaps line up; the line through them runs on up between every dish and its price.
    expect(columnBoundary(runs, 'EUR')).toBeUndefined();
    expect(rebuildPageLines(runs, [OCR_PAGE], 'EUR')).toEqual(rebuildLines(runs));
    // Without the legend, dishes and prices are paired by the layout.
    const menu = runs.filter((r) => r.y < 400);
    const lines = rebuildPageLines(menu, [OCR_PAGE], 'EUR').map((l) => l.text);
    expect(lines).toEqual(['SIDE DISHES', ...dishes.map((name) => `${name}  € 6.00`)]);
  });

  it('leaves a one-column page, and pages read from a text layer, to the layout as they are', () => {
    const oneColumn = [
      ...words('Soup of the day', 100, 100),
      ...words('$4.50', 800, 100),
      ...words('Garden salad', 100, 190),
      ...words('$6.00', 800, 190),
      ...words('Add bread', 100, 280),
      ...words('$1.00', 800, 280),
    ];
    expect(columnBoundary(oneColumn, 'USD')).toBeUndefined();
    expect(rebuildPageLines(oneColumn, [OCR_PAGE], 'USD')).toEqual(rebuildLines(oneColumn));
    const text = twoColumns(0.15);
    expect(rebuildPageLines(text, [{ ...OCR_PAGE, method: 'text' }], 'USD')).toEqual(rebuildLines(text));
  });
});
