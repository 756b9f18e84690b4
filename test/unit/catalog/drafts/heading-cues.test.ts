import { rebuildLines } from '../../../../lambdas/core/catalog/drafts/layout';
import { draftMenu } from '../../../../lambdas/core/catalog/drafts/menu-draft';
import type { PageGeometry, TextRun } from '../../../../lambdas/core/catalog/drafts/text-runs';
import { aRightAligned, aRun } from '../../../fixtures/drafts/runs';

// Layout cues for headings (heading-cues.ts) on synthetic OCR'd pages: line heights vary as OCR's do, so
// size alone tells nothing, and each rule is shown by a page that a size-, weight- or case-based reading gets
// wrong.

const PHOTO: PageGeometry = { page: 1, width: 1000, height: 1400, method: 'ocr' };
const ocr = (size: number) => ({ size, confidence: 0.95 });

const summary = (runs: TextRun[], currency = 'INR') => {
  const result = draftMenu(rebuildLines(runs), {
    source: 'menu.jpg',
    sourceIndex: 0,
    currency,
    pages: [PHOTO],
  });
  return {
    dishes: result.items.map(
      (item) =>
        `${item.categoryPath.join(' > ')} / ${item.name} / ${item.variants
          .map((v) => [v.name, v.price?.amount].filter((x) => x !== null && x !== undefined).join(' '))
          .join(', ')}`,
    ),
    descriptions: result.items.map((item) => item.description),
    warnings: result.warnings.map((w) => w.message),
  };
};

describe('headings told by place and repetition', () => {
  it('never takes contact details set large (a phone number, opening hours, a web address) for a heading', () => {
    // Under the restaurant's name (its title), over the first section.
    const contact = (line: string) => [
      aRun('Bella Napoli', 60, 20, ocr(64)),
      aRun(line, 60, 100, ocr(48)),
      aRun('Starters', 60, 170, ocr(38)),
      aRun('Garlic Bread', 60, 220, ocr(30)),
      aRightAligned('$5.50', 560, 220, ocr(30)),
      aRun('Tomato Soup', 60, 260, ocr(30)),
      aRightAligned('$6.00', 560, 260, ocr(30)),
    ];
    for (const line of ['Tel: (717) 555-0123', '11:30 - 22:00', 'www.example-bistro.com'])
      expect(summary(contact(line), 'USD').dishes).toEqual([
        'Starters / Garlic Bread / 550',
        'Starters / Tomato Soup / 600',
      ]);
  });

  it('takes a short lower-case line centred over a flush-left column of dishes as its heading', () => {
    const runs = [
      aRun('soups', 190, 100, ocr(26)),
      aRun('Tomato Soup', 60, 140, ocr(30)),
      aRightAligned('80', 440, 140, ocr(30)),
      aRun('Sweet Corn Soup', 60, 180, ocr(32)),
      aRightAligned('85', 440, 180, ocr(32)),
      aRun('salad', 192, 230, ocr(26)),
      aRun('Green Salad', 60, 270, ocr(24)),
      aRightAligned('80', 440, 270, ocr(24)),
      aRun('breads', 185, 320, ocr(27)),
      aRun('Butter Naan', 60, 360, ocr(30)),
      aRightAligned('70', 440, 360, ocr(30)),
      aRun('Garlic Naan', 60, 400, ocr(30)),
      aRightAligned('70', 440, 400, ocr(30)),
    ];
    expect(summary(runs).dishes).toEqual([
      'soups / Tomato Soup / 8000',
      'soups / Sweet Corn Soup / 8500',
      'salad / Green Salad / 8000',
      'breads / Butter Naan / 7000',
      'breads / Garlic Naan / 7000',
    ]);
  });

  it('does not take a centred line for a heading when the dishes under it are centred too', () => {
    // A centred card: each name centred over its centred, priced description.
    const runs = [
      aRun('Caesar Salad', 420, 100, ocr(30)),
      aRun('romaine, parmesan, croutons 12', 275, 140, ocr(22)),
      aRun('Onion Soup', 430, 200, ocr(30)),
      aRun('gruyere crust 9', 390, 240, ocr(22)),
    ];
    expect(summary(runs, 'USD').dishes.map((d) => d.split(' / ')[0])).toEqual(['', '']);
  });

  it('leaves out a short text repeated under dish after dish (icons read as letters), with a warning', () => {
    const runs = [
      aRun('Fish and Chips', 60, 100, ocr(40)),
      aRightAligned('$9.00', 900, 100, ocr(40)),
      aRun('CIG', 300, 150, ocr(44)),
      aRun('Patty Melt', 60, 210, ocr(40)),
      aRightAligned('$11.00', 900, 210, ocr(40)),
      aRun('8 CIG', 290, 260, ocr(44)),
      aRun('Onion Rings', 60, 320, ocr(40)),
      aRightAligned('$5.00', 900, 320, ocr(40)),
      aRun('BCIG', 300, 370, ocr(44)),
    ];
    const read = summary(runs, 'USD');
    expect(read.dishes).toEqual([' / Fish and Chips / 900', ' / Patty Melt / 1100', ' / Onion Rings / 500']);
    expect(read.warnings.join('\n')).toMatch(/3 short line\(s\) repeated under the dishes .*marks/);
  });

  it('reads a short line over the price column as the names of the prices, not as a heading', () => {
    const runs = [
      aRun('Pfannkuchen', 60, 40, ocr(34)),
      aRun('klein groß', 590, 100, ocr(30)),
      aRun('mit Speck', 60, 140, ocr(26)),
      aRun('6,90 8,80', 590, 140, ocr(28)),
      aRun('mit Spinat', 60, 180, ocr(26)),
      aRun('7,40 9,40', 590, 180, ocr(28)),
    ];
    expect(summary(runs, 'EUR').dishes).toEqual([
      'Pfannkuchen / mit Speck / klein 690, groß 880',
      'Pfannkuchen / mit Spinat / klein 740, groß 940',
    ]);
  });

  it('keeps an indented description with its dish, however tall OCR reads its lines', () => {
    const runs = [
      aRun('Subs', 240, 20, ocr(40)),
      aRun('Roast Beef Sub', 30, 80, ocr(22)),
      aRightAligned('$10.50', 700, 80, ocr(22)),
      aRun('Choice Top Round, Cheese, Lettuce, Tomato', 90, 110, ocr(28)),
      aRun('and Horseradish', 90, 142, ocr(28)),
      aRun('Meatball Sub', 30, 190, ocr(22)),
      aRightAligned('$9.50', 700, 190, ocr(22)),
      aRun('Four Meatballs smothered in Pizza Sauce', 90, 220, ocr(28)),
      aRun('Steak Sub', 30, 270, ocr(22)),
      aRightAligned('$9.50', 700, 270, ocr(22)),
    ];
    const read = summary(runs, 'USD');
    expect(read.dishes).toEqual([
      'Subs / Roast Beef Sub / 1050',
      'Subs / Meatball Sub / 950',
      'Subs / Steak Sub / 950',
    ]);
    expect(read.descriptions).toEqual([
      'Choice Top Round, Cheese, Lettuce, Tomato and Horseradish',
      'Four Meatballs smothered in Pizza Sauce',
      null,
    ]);
  });

  it('names the dish after the line on the row of its price when OCR gives the price first', () => {
    const runs = [
      aRun('Chicken Tenders', 60, 100, ocr(40)),
      aRightAligned('$6.75', 900, 100, ocr(40)),
      aRightAligned('$3.50', 900, 146, ocr(40)),
      aRun('Curly Fries', 60, 170, ocr(44)),
      aRightAligned('$3.50', 900, 226, ocr(40)),
      aRun('French Fries', 60, 250, ocr(44)),
    ];
    expect(summary(runs, 'USD').dishes).toEqual([
      ' / Chicken Tenders / 675',
      ' / Curly Fries / 350',
      ' / French Fries / 350',
    ]);
  });

  it('never takes a note in parentheses or a list of ingredients for a heading', () => {
    const runs = [
      aRun('Thali', 60, 100, ocr(30)),
      aRightAligned('210', 440, 100, ocr(30)),
      aRun('(Paneer, Dal, Rice, Naan)', 60, 135, ocr(40)),
      aRun('Mini Meal', 60, 190, ocr(30)),
      aRightAligned('200', 440, 190, ocr(30)),
      aRun('(12:00 noon to 4:00 PM)', 60, 225, ocr(40)),
      aRun('Raita', 60, 280, ocr(30)),
      aRightAligned('130', 440, 280, ocr(30)),
    ];
    expect(summary(runs).dishes.map((d) => d.split(' / ')[0])).toEqual(['', '', '']);
  });

  it('reads a heading set on two lines as one, and two headings with dishes between as two', () => {
    const runs = [
      aRun('SECONDI', 190, 40, ocr(44)),
      aRun('MAIN COURSE', 150, 92, ocr(44)),
      aRun('Pollo alla romana', 60, 160, ocr(26)),
      aRightAligned('€ 18.00', 440, 160, ocr(26)),
      aRun('Saltimbocca alla romana', 60, 200, ocr(26)),
      aRightAligned('€ 18.00', 440, 200, ocr(26)),
      aRun('DOLCI', 200, 270, ocr(44)),
      aRun('Tiramisu', 60, 340, ocr(26)),
      aRightAligned('€ 8.00', 440, 340, ocr(26)),
    ];
    expect(summary(runs, 'EUR').dishes).toEqual([
      'SECONDI MAIN COURSE / Pollo alla romana / 1800',
      'SECONDI MAIN COURSE / Saltimbocca alla romana / 1800',
      'DOLCI / Tiramisu / 800',
    ]);
  });

  it('takes a heading over the names beside the size labels of the prices, each word over its own price', () => {
    const runs = [
      aRun('Egg Drop Soup', 60, 40, ocr(26)),
      aRightAligned('2.99', 380, 40, ocr(26)),
      aRightAligned('3.99', 460, 40, ocr(26)),
      // `Pt.` and `Qt.` close together: one cell of two words.
      aRun('FRIED RICE', 120, 100, ocr(26)),
      aRun('Pt.', 340, 100, ocr(24)),
      aRun('Qt.', 375, 100, ocr(24)),
      aRun('Vegetable Fried Rice', 60, 140, ocr(26)),
      aRightAligned('6.50', 380, 140, ocr(26)),
      aRightAligned('8.99', 460, 140, ocr(26)),
    ];
    expect(summary(runs, 'USD').dishes.at(-1)).toBe('FRIED RICE / Vegetable Fried Rice / Pt. 650, Qt. 899');
  });

  it('takes a short line centred over a note and the size labels for the heading of the dishes under them', () => {
    const runs = [
      aRun('APPETIZERS', 150, 0, ocr(26)),
      aRun('Spring Roll', 60, 40, ocr(26)),
      aRightAligned('2.99', 460, 40, ocr(26)),
      aRun('soup', 235, 90, ocr(26)),
      aRun('(w. Fried Noodles)', 100, 125, ocr(22)),
      aRun('Pt.', 340, 125, ocr(22)),
      aRun('Qt.', 430, 125, ocr(22)),
      aRun('Wonton Soup', 60, 160, ocr(26)),
      aRightAligned('3.50', 380, 160, ocr(26)),
      aRightAligned('4.75', 460, 160, ocr(26)),
      aRun('Wonton & Egg Drop', 60, 195, ocr(26)),
      aRun('Mixed Soup', 120, 230, ocr(26)),
      aRightAligned('3.50', 380, 230, ocr(26)),
      aRightAligned('4.75', 460, 230, ocr(26)),
      aRun('Egg Drop Soup', 60, 265, ocr(26)),
      aRightAligned('2.99', 380, 265, ocr(26)),
      aRightAligned('3.99', 460, 265, ocr(26)),
    ];
    const dishes = summary(runs, 'USD').dishes;
    expect(dishes[0]).toBe('APPETIZERS / Spring Roll / 299');
    expect(dishes.at(-1)).toBe('soup / Egg Drop Soup / Pt. 299, Qt. 399');
    expect(dishes.filter((d) => d.startsWith('soup /'))).toHaveLength(dishes.length - 1);
  });

  it('reads a name over its portions, each on a line of its own with its price, as one dish with a variant each', () => {
    const runs = [
      aRun('ENTRÉES', 60, 0, ocr(40)),
      aRun('Escargots de Bourgogne', 60, 60, ocr(26)),
      aRun('- 6 pièces', 66, 95, ocr(26)),
      aRightAligned('12,00', 460, 95, ocr(26)),
      aRun('- 12 pièces', 66, 130, ocr(26)),
      aRightAligned('18,50', 460, 130, ocr(26)),
      aRun('Aubergines à la Parmigiana', 60, 165, ocr(26)),
      aRightAligned('10,50', 460, 165, ocr(26)),
      aRun('Tomate burrata', 60, 200, ocr(26)),
      aRightAligned('13,00', 460, 200, ocr(26)),
    ];
    expect(summary(runs, 'EUR').dishes).toEqual([
      'ENTRÉES / Escargots de Bourgogne / 6 pièces 1200, 12 pièces 1850',
      'ENTRÉES / Aubergines à la Parmigiana / 1050',
      'ENTRÉES / Tomate burrata / 1300',
    ]);
  });

  it('names a category without the ornaments around its heading', () => {
    const runs = [
      aRun('= SOFT', 60, 40, ocr(44)),
      aRun('Orangina', 60, 110, ocr(26)),
      aRightAligned('4,00€', 440, 110, ocr(26)),
      aRun('Perrier', 60, 150, ocr(26)),
      aRightAligned('4,00€', 440, 150, ocr(26)),
      aRun('▪CHAUD ~', 60, 220, ocr(44)),
      aRun('Café crème', 60, 290, ocr(26)),
      aRightAligned('2,20€', 440, 290, ocr(26)),
    ];
    expect(summary(runs, 'EUR').dishes).toEqual([
      'SOFT / Orangina / 400',
      'SOFT / Perrier / 400',
      'CHAUD / Café crème / 220',
    ]);
  });

  it('takes a lower-case name in capitals under a description for the next dish, not for its description', () => {
    const runs = [
      aRun('BREAKFAST', 50, 40, ocr(44)),
      aRun('the EGG SANDWICH $4', 50, 100, ocr(27)),
      aRun('over medium egg, sharp cheddar', 52, 132, ocr(25)),
      aRun('the WAKER UPPER $4.5', 50, 180, ocr(25)),
      aRun('everything bagel, cream cheese', 52, 212, ocr(24)),
    ];
    expect(summary(runs, 'USD').dishes).toEqual([
      'BREAKFAST / the EGG SANDWICH / 400',
      'BREAKFAST / the WAKER UPPER / 450',
    ]);
  });
});

describe('a dish name wrapped onto its price line', () => {
  const page = { page: 1, width: 612, height: 792, method: 'text' as const };
  const names = (runs: TextRun[]) =>
    draftMenu(rebuildLines(runs), {
      source: 'menu.pdf',
      sourceIndex: 0,
      currency: 'EUR',
      pages: [page],
    }).items.map((i) => `${i.name} / ${i.variants.map((v) => v.price?.amount).join(', ')}`);

  it('joins a full-width line that stops mid-phrase to the priced line under it', () => {
    const runs = [
      aRun('Tagessuppe', 71, 100, { size: 14 }),
      aRightAligned('3,80 €', 540, 100, { size: 14 }),
      aRun('kleiner Toast Hawaii mit gekochtem Schinken und frischer Ananas,', 71, 120, { size: 14 }),
      aRun('Käse überbacken', 71, 140, { size: 14 }),
      aRightAligned('4,50 €', 540, 140, { size: 14 }),
    ];
    expect(names(runs)).toEqual([
      'Tagessuppe / 380',
      'kleiner Toast Hawaii mit gekochtem Schinken und frischer Ananas, Käse überbacken / 450',
    ]);
  });

  it('joins a line that stops mid-phrase to a priced line whose price stands far right of its words', () => {
    const runs = [
      aRun('Hackbraten mit Zwiebeln oder Rahmsoße,', 71, 100, { size: 14 }),
      aRun('Bratkartoffeln und gemischtem Salatteller', 71, 120, { size: 14 }),
      aRightAligned('9,50 €', 700, 120, { size: 14 }),
    ];
    expect(names(runs)).toEqual([
      'Hackbraten mit Zwiebeln oder Rahmsoße, Bratkartoffeln und gemischtem Salatteller / 950',
    ]);
  });

  it('joins a dish name that runs over three lines', () => {
    const runs = [
      aRun('Tagessuppe', 71, 80, { size: 14 }),
      aRightAligned('3,80 €', 540, 80, { size: 14 }),
      aRun('Gebratener Tafelspitz mit Grüner Soße oder', 71, 100, { size: 14 }),
      aRun('Meerrettichrahm und Bratkartoffeln,', 71, 120, { size: 14 }),
      aRun('gemischter Salat', 71, 140, { size: 14 }),
      aRightAligned('13,60 €', 540, 140, { size: 14 }),
    ];
    expect(names(runs)).toEqual([
      'Tagessuppe / 380',
      'Gebratener Tafelspitz mit Grüner Soße oder Meerrettichrahm und Bratkartoffeln, gemischter Salat / 1360',
    ]);
  });

  it('joins a dish name that goes on, indented, in the priced line under it', () => {
    const runs = [
      aRun('Wonton Soup', 60, 100, { size: 14 }),
      aRightAligned('3,50 €', 540, 100, { size: 14 }),
      aRun('Wonton & Egg Drop', 60, 120, { size: 14 }),
      aRun('Mixed Soup', 90, 140, { size: 14 }),
      aRightAligned('3,50 €', 540, 140, { size: 14 }),
      aRun('Egg Drop Soup', 60, 160, { size: 14 }),
      aRightAligned('2,99 €', 540, 160, { size: 14 }),
      aRun('All soups come with crackers.', 60, 180, { size: 14 }),
      aRun('Extra crackers', 90, 200, { size: 14 }),
      aRightAligned('0,50 €', 540, 200, { size: 14 }),
    ];
    expect(names(runs)).toEqual([
      'Wonton Soup / 350',
      'Wonton & Egg Drop Mixed Soup / 350',
      'Egg Drop Soup / 299',
      'Extra crackers / 50',
    ]);
  });

  it('joins the lines of a name whose priced line goes on in lower case, OCR line heights apart', () => {
    // A photographed page: the boxes of one paragraph's lines up to 13 % apart in height (descenders or none).
    const runs = [
      aRun('Tagessuppe', 73, 100, ocr(18)),
      aRightAligned('€ 3,80', 500, 100, ocr(18)),
      aRun('Bauernsülze mit Frankfurter Grüner Soße', 73, 140, ocr(18.6)),
      aRun('und Bratkartoffeln', 77, 162, ocr(17)),
      aRightAligned('€ 7,00', 500, 162, ocr(17)),
      aRun('pochierter Tafelspitz mit Frankfurter Grüner Soße oder', 71, 200, ocr(19.6)),
      aRun('Meerrettichrahm, Bratkartoffeln', 75, 225, ocr(17.1)),
      aRun('und gemischtem Salatteller', 73, 247, ocr(17.4)),
      aRightAligned('€ 13,60', 500, 247, ocr(17.4)),
    ];
    expect(summary(runs, 'EUR').dishes).toEqual([
      ' / Tagessuppe / 380',
      ' / Bauernsülze mit Frankfurter Grüner Soße und Bratkartoffeln / 700',
      ' / pochierter Tafelspitz mit Frankfurter Grüner Soße oder Meerrettichrahm, Bratkartoffeln und gemischtem Salatteller / 1360',
    ]);
  });

  it('keeps a lower-case priced description under a shorter name as its description', () => {
    const runs = [
      aRun('Fish and Chips', 60, 100, { size: 14 }),
      aRun('served with fries and tartare sauce', 60, 120, { size: 14 }),
      aRightAligned('8,50 €', 540, 120, { size: 14 }),
    ];
    expect(names(runs)).toEqual(['Fish and Chips / 850']);
  });

  it('does not join a sentence that ends, nor a short line', () => {
    const runs = [
      aRun('Alle Toaste werden mit einem kleinen Salat serviert.', 71, 100, { size: 14 }),
      aRun('Schinken-Toast', 71, 120, { size: 14 }),
      aRightAligned('6,50 €', 540, 120, { size: 14 }),
      aRun('Margherita', 71, 140, { size: 14 }),
      aRun('Funghi', 71, 160, { size: 14 }),
      aRightAligned('8,50 €', 540, 160, { size: 14 }),
    ];
    expect(names(runs)).toEqual(['Schinken-Toast / 650', 'Funghi / 850']);
  });
});

describe('a bare number where the prices stand', () => {
  // OCR lost a price's dollar sign and decimals (`$5.00` read `5`), and the number is stuck to the name.
  const menu = (lost: string) => [
    aRun('Sides', 60, 100, ocr(34)),
    aRun('Curly Fries', 60, 150, ocr(28)),
    aRightAligned('$3.50', 560, 150, ocr(28)),
    aRun('Onion Rings', 60, 190, ocr(28)),
    aRightAligned('$5.00', 560, 190, ocr(28)),
    aRun('Roasted Brussels Sprouts and Bacon', 60, 230, ocr(28)),
    aRightAligned(lost, 560, 230, ocr(28)),
    aRun('French Fries', 60, 270, ocr(28)),
    aRightAligned('$3.50', 560, 270, ocr(28)),
    aRun('Chicken Tenders', 60, 310, ocr(28)),
    aRightAligned('$6.75', 560, 310, ocr(28)),
  ];

  it('is a price of the dish, in doubt, not a heading over the dishes under it', () => {
    const { dishes } = summary(menu('5'), 'USD');
    expect(dishes).toEqual([
      'Sides / Curly Fries / 350',
      'Sides / Onion Rings / 500',
      'Sides / Roasted Brussels Sprouts and Bacon / 500',
      'Sides / French Fries / 350',
      'Sides / Chicken Tenders / 675',
    ]);
  });

  it('is not a price when it stands right after the name, far from the prices', () => {
    const runs = [
      ...menu('$4.00').filter((r) => r.text !== 'Roasted Brussels Sprouts and Bacon' && r.text !== '$4.00'),
      aRun('Chicken 65', 60, 230, ocr(28)),
    ];
    expect(summary(runs, 'USD').dishes).not.toContain('Sides / Chicken / 6500');
  });
});

describe("the menu's title, measured by OCR", () => {
  const section = (name: string, y: number, size: number, dishes: [string, string][]) => [
    aRun(name, 60, y, ocr(size)),
    ...dishes.flatMap(([dish, price], i) => [
      aRun(dish, 60, y + 45 + i * 40, ocr(23)),
      aRightAligned(price, 560, y + 45 + i * 40, ocr(23)),
    ]),
  ];

  it('names no category when it is less than a level taller than the largest section heading', () => {
    // Section headings 30-34 px and a 41 px title: one level at OCR's 20 % tolerance.
    const runs = [
      aRun('Trattoria Roma', 200, 40, ocr(41)),
      ...section('Antipasti', 120, 31, [
        ['Garlic Bread', '$5.50'],
        ['Bruschetta', '$8.25'],
      ]),
      ...section('Pasta', 280, 30, [['Penne Arrabbiata', '$14.00']]),
      ...section('Dolci', 400, 34, [['Tiramisu', '$8.00']]),
    ];
    expect(summary(runs, 'USD').dishes).toEqual([
      'Antipasti / Garlic Bread / 550',
      'Antipasti / Bruschetta / 825',
      'Pasta / Penne Arrabbiata / 1400',
      'Dolci / Tiramisu / 800',
    ]);
  });

  it('keeps a taller first section heading whose dishes follow it at once as their category', () => {
    // 36 px over 31: as much taller as the title above, but no section heading comes between it and a dish.
    const runs = [
      ...section('Antipasti', 40, 36, [['Garlic Bread', '$5.50']]),
      ...section('Pasta', 200, 31, [['Penne Arrabbiata', '$14.00']]),
    ];
    expect(summary(runs, 'USD').dishes).toEqual([
      'Antipasti / Garlic Bread / 550',
      'Pasta / Penne Arrabbiata / 1400',
    ]);
  });
});
