import { rebuildLines } from '../../../../lambdas/core/catalog/drafts/layout';
import { aRightAligned, aRun } from '../../../fixtures/drafts/runs';

const texts = (runs: Parameters<typeof rebuildLines>[0]) => rebuildLines(runs).map((l) => l.text);

describe('rebuildLines', () => {
  it('reads two columns one after the other, each dish with its right-aligned price', () => {
    const runs = [
      aRun('LA TRATTORIA', 230, 40, { size: 24, bold: true }),
      aRun('STARTERS', 40, 100, { size: 16, bold: true }),
      aRun('PIZZA', 330, 100, { size: 16, bold: true }),
      aRun('Garlic Bread', 40, 130),
      aRightAligned('$5.50', 280, 130),
      aRun('Margherita', 330, 130),
      aRightAligned('14.00', 572, 130),
      aRun('toasted with herbs', 40, 145, { size: 9, italic: true }),
      aRun('tomato, mozzarella', 330, 145, { size: 9, italic: true }),
      aRun('Calamari', 40, 165),
      aRightAligned('$11.00', 280, 165),
      aRun('Pepperoni', 330, 165),
      aRightAligned('16.50', 572, 165),
    ];
    expect(texts(runs)).toEqual([
      'LA TRATTORIA',
      'STARTERS',
      'Garlic Bread  $5.50',
      'toasted with herbs',
      'Calamari  $11.00',
      'PIZZA',
      'Margherita  14.00',
      'tomato, mozzarella',
      'Pepperoni  16.50',
    ]);
  });

  it("keeps a left dish whose dot leader reaches into the gutter in its column, beside the right column's heading", () => {
    const rows = (y: number, left: string, right: string) => [
      aRun(left, 40, y),
      aRightAligned('9.00', 280, y),
      aRun(right, 330, y),
      aRightAligned('4.00', 572, y),
    ];
    const runs = [
      aRun('STARTERS', 40, 60, { size: 16 }),
      aRun('PASTA', 330, 60, { size: 16 }),
      ...rows(85, 'Soup', 'Penne'),
      ...rows(100, 'Salad', 'Spaghetti'),
      // A long leader and price running 25 pt into the right column's space, on the row of its next heading.
      aRun('Sharing board ..................................... 19.50', 40, 125),
      aRun('PIZZA', 362, 125, { size: 16 }),
      ...rows(150, 'Toast', 'Margherita'),
      ...rows(165, 'Tart', 'Funghi'),
    ];
    expect(texts(runs)).toEqual([
      'STARTERS',
      'Soup  9.00',
      'Salad  9.00',
      'Sharing board ..................................... 19.50',
      'Toast  9.00',
      'Tart  9.00',
      'PASTA',
      'Penne  4.00',
      'Spaghetti  4.00',
      'PIZZA',
      'Margherita  4.00',
      'Funghi  4.00',
    ]);
  });

  it('keeps a heading centred over both columns between them, and columns below it apart', () => {
    const runs = [
      aRun('Soup', 40, 100),
      aRightAligned('6.00', 280, 100),
      aRun('Tea', 330, 100),
      aRightAligned('3.00', 572, 100),
      aRun('Salad', 40, 115),
      aRightAligned('7.00', 280, 115),
      aRun('Coffee', 330, 115),
      aRightAligned('3.50', 572, 115),
      aRun('DESSERTS SERVED ALL DAY LONG', 220, 150, { size: 14, bold: true }),
      aRun('Tart', 40, 180),
      aRightAligned('5.00', 280, 180),
      aRun('Sorbet', 330, 180),
      aRightAligned('4.00', 572, 180),
      aRun('Cake', 40, 195),
      aRightAligned('5.50', 280, 195),
      aRun('Mousse', 330, 195),
      aRightAligned('4.50', 572, 195),
    ];
    expect(texts(runs)).toEqual([
      'Soup  6.00',
      'Salad  7.00',
      'Tea  3.00',
      'Coffee  3.50',
      'DESSERTS SERVED ALL DAY LONG',
      'Tart  5.00',
      'Cake  5.50',
      'Sorbet  4.00',
      'Mousse  4.50',
    ]);
  });

  it('keeps size columns with their dish (prices under size headings)', () => {
    const runs = [
      aRun('PIZZA', 40, 80, { size: 16, bold: true }),
      aRun('Small', 380, 84),
      aRun('Large', 480, 84),
      aRun('Margherita', 40, 110),
      aRightAligned('10.00', 412, 110),
      aRightAligned('15.00', 512, 110),
      aRun('Funghi', 40, 125),
      aRightAligned('11.00', 412, 125),
      aRightAligned('16.00', 512, 125),
      aRun('Diavola', 40, 140),
      aRightAligned('12.00', 412, 140),
      aRightAligned('17.00', 512, 140),
    ];
    const lines = rebuildLines(runs);
    expect(lines.map((l) => l.cells.map((c) => c.text))).toEqual([
      ['PIZZA', 'Small', 'Large'],
      ['Margherita', '10.00', '15.00'],
      ['Funghi', '11.00', '16.00'],
      ['Diavola', '12.00', '17.00'],
    ]);
  });

  it('keeps a name | description | price table on one line', () => {
    const runs = [
      ['Burger', 'beef, cheddar, pickles', '12.00', 100],
      ['Club', 'chicken, bacon, egg', '11.00', 115],
      ['Veggie', 'halloumi, peppers', '10.00', 130],
    ].flatMap(([name, description, price, y]) => [
      aRun(name as string, 40, y as number),
      aRun(description as string, 200, y as number, { size: 10 }),
      aRightAligned(price as string, 560, y as number),
    ]);
    expect(texts(runs)).toEqual([
      'Burger  beef, cheddar, pickles  12.00',
      'Club  chicken, bacon, egg  11.00',
      'Veggie  halloumi, peppers  10.00',
    ]);
  });

  // A photographed menu whose dot leaders OCR did not read: the names and the right-aligned prices come in
  // separate blocks (their own OCR lines, at the same heights), with a wide empty gap in which only the
  // centred title (and whatever OCR made of a few leaders) stands.
  const photographed = (leaderNoise: boolean) => [
    aRun("Joe's Diner", 250, 40, { size: 18, confidence: 0.95 }),
    ...(leaderNoise ? [] : [aRun('open daily 7 am to 3 pm', 230, 62, { confidence: 0.95 })]),
    aRun('Breakfast', 40, 90, { size: 14, confidence: 0.95 }),
    ...[
      ['Two Eggs Any Style', '9.50', 120],
      ['Buttermilk Pancakes', '10.25', 145],
      ['Western Omelette', '12.00', 170],
      ['Corned Beef Hash', '13.50', 195],
    ].flatMap(([name, price, y]) => [
      aRun(name as string, 40, y as number, { confidence: 0.95 }),
      // The price's OCR line is a pixel off the name's.
      aRightAligned(price as string, 560, (y as number) + 1, { confidence: 0.95 }),
    ]),
    // Leaders read as words, under part of the title.
    ...(leaderNoise ? [aRun('RIC AGREE ERE', 200, 145, { confidence: 0.2 })] : []),
  ];

  it('joins names and the prices OCR read as a separate block, with a title in the gap between them', () => {
    expect(rebuildLines(photographed(false)).map((l) => l.cells.map((c) => c.text))).toEqual([
      ["Joe's Diner"],
      ['open daily 7 am to 3 pm'],
      ['Breakfast'],
      ['Two Eggs Any Style', '9.50'],
      ['Buttermilk Pancakes', '10.25'],
      ['Western Omelette', '12.00'],
      ['Corned Beef Hash', '13.50'],
    ]);
  });

  it('joins them the same way when OCR read some dot leaders as words in the gap', () => {
    expect(rebuildLines(photographed(true)).map((l) => l.cells.map((c) => c.text))).toEqual([
      ["Joe's Diner"],
      ['Breakfast'],
      ['Two Eggs Any Style', '9.50'],
      ['Buttermilk Pancakes', 'RIC AGREE ERE', '10.25'],
      ['Western Omelette', '12.00'],
      ['Corned Beef Hash', '13.50'],
    ]);
  });

  it('still keeps two columns apart when prices sit beside the names of both', () => {
    const runs = [
      ['Soup', '6.00', 'Tea', '3.00', 100],
      ['Salad', '7.00', 'Coffee', '3.50', 115],
      ['Tart', '5.00', 'Sorbet', '4.00', 130],
    ].flatMap(([a, pa, b, pb, y]) => [
      aRun(a as string, 40, y as number),
      aRightAligned(pa as string, 200, y as number),
      aRun(b as string, 330, y as number),
      aRightAligned(pb as string, 572, y as number),
    ]);
    expect(texts(runs)).toEqual([
      'Soup  6.00',
      'Salad  7.00',
      'Tart  5.00',
      'Tea  3.00',
      'Coffee  3.50',
      'Sorbet  4.00',
    ]);
  });

  it('splits a run that holds a whole line with wide spaces, and glues pieces of one word', () => {
    const wide = aRun('Garlic Bread            5.50', 40, 100);
    const word = [aRun('Marg', 40, 120), { ...aRun('herita', 0, 120), x: 40 + 4 * 5.5 }];
    const lines = rebuildLines([wide, ...word]);
    expect(lines[0]!.cells.map((c) => c.text)).toEqual(['Garlic Bread', '5.50']);
    expect(lines[1]!.text).toBe('Margherita');
  });

  it("keeps a space between an OCR engine's words however close their boxes are (they are words)", () => {
    const ocr = { confidence: 0.9 };
    const words = [aRun('Poisson', 40, 120, ocr), { ...aRun('du', 0, 120, ocr), x: 40 + 7 * 5.5 + 0.5 }];
    expect(rebuildLines(words)[0]!.text).toBe('Poisson du');
  });

  it('reads pages in order and marks style: size, bold, italic, capitals', () => {
    const lines = rebuildLines([
      aRun('Second page', 40, 40, { page: 2 }),
      aRun('FIRST PAGE', 40, 40, { size: 18, bold: true }),
      aRun('in italics', 40, 70, { italic: true }),
    ]);
    expect(lines.map((l) => [l.page, l.text, l.fontSize, l.bold, l.italic, l.caps])).toEqual([
      [1, 'FIRST PAGE', 18, true, false, 1],
      [1, 'in italics', 11, false, true, 0],
      [2, 'Second page', 11, false, false, 0.1],
    ]);
  });

  it('tells apart two columns set close together (a gutter narrower than a font size) when they are tall', () => {
    // Left: dishes with descriptions ending in their price; right, 9 pt away, cocktails at other heights.
    const left = [
      'Mushroom Toast',
      'mushrooms + shallots + bread $11',
      'Shrimp Cocktail',
      'smoked shrimp + sauce $14',
    ];
    const right = [
      'Gin Fizz',
      'gin + lemon + soda',
      'egg white $12',
      'Negroni',
      'gin + vermouth',
      'bitter $13',
    ];
    const runs = [
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => aRun(left[i % 4]!, 20, 100 + i * 15)),
      ...[0, 1, 2, 3, 4, 5].map((i) => aRun(right[i]!, 205, 106 + i * 19)),
    ];
    const lines = texts(runs);
    expect(lines.slice(0, 8)).toEqual([...left, ...left]);
    expect(lines.slice(8)).toEqual(right);
  });

  it('keeps dish numbers in a column of their own with the names on their right', () => {
    const runs = [
      ...['1.', '2.', '3.'].map((n, i) => aRun(n, 20, 100 + i * 30, { bold: true })),
      ...['Gulasch', 'Wantan', 'Tofu'].map((n, i) =>
        aRun(`${n} ........ 4,90`, 40, 100 + i * 30, { bold: true }),
      ),
      ...['with beef', 'with chicken', 'with greens'].map((d, i) => aRun(d, 40, 114 + i * 30, { size: 9 })),
      ...[3, 4, 5, 6, 7].map((i) => aRun(`note ${i}`, 40, 100 + i * 30, { size: 9 })),
    ];
    expect(texts(runs).slice(0, 6)).toEqual([
      '1. Gulasch ........ 4,90',
      'with beef',
      '2. Wantan ........ 4,90',
      'with chicken',
      '3. Tofu ........ 4,90',
      'with greens',
    ]);
  });

  it('joins letter-spaced words (a heading set with wide tracking), and leaves single letters in a name alone', () => {
    const runs = [
      aRun('S T A R T E R S', 40, 60, { size: 16 }),
      ...'DESSERTS'.split('').map((c, i) => aRun(c, 40 + i * 14, 90, { size: 16 })),
      aRun('Vitamin B 12  4.50', 40, 120),
      aRun('É P I C E S  &  H E R B E S', 40, 140),
    ];
    expect(texts(runs)).toEqual(['STARTERS', 'DESSERTS', 'Vitamin B 12  4.50', 'ÉPICES  &  HERBES']);
  });
});
