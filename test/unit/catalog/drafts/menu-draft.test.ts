import { rebuildLines } from '../../../../lambdas/core/catalog/drafts/layout';
import { draftMenu } from '../../../../lambdas/core/catalog/drafts/menu-draft';
import type { PageGeometry, TextRun } from '../../../../lambdas/core/catalog/drafts/text-runs';
import { aRightAligned, aRun, LETTER } from '../../../fixtures/drafts/runs';

const draft = (runs: TextRun[], pages: PageGeometry[] = [LETTER], currency = 'USD') =>
  draftMenu(rebuildLines(runs), { source: 'menu.pdf', sourceIndex: 0, currency, pages });

const summary = (runs: TextRun[], pages?: PageGeometry[], currency?: string) =>
  draft(runs, pages, currency).items.map((item) => ({
    category: item.categoryPath.join(' > '),
    name: item.name,
    description: item.description,
    variants: item.variants.map((v) =>
      [v.name, v.pricing === 'variable' ? 'variable' : v.price?.amount].filter((x) => x !== null).join(' '),
    ),
  }));

describe('draftMenu', () => {
  it('drafts categories, dishes, descriptions and prices from two columns', () => {
    const runs = [
      aRun('LA TRATTORIA', 230, 40, { size: 24, bold: true }),
      aRun('STARTERS', 40, 100, { size: 16, bold: true }),
      aRun('PIZZA', 330, 100, { size: 16, bold: true }),
      aRun('Garlic Bread', 40, 130),
      aRightAligned('$5.50', 280, 130),
      aRun('Margherita', 330, 130),
      aRightAligned('14.00', 572, 130),
      aRun('toasted with herbs', 40, 145, { size: 9, italic: true }),
      aRun('tomato, mozzarella, basil', 330, 145, { size: 9, italic: true }),
      aRun('Soup of the day', 40, 165),
      aRightAligned('MP', 280, 165),
      aRun('Pepperoni', 330, 165),
      aRightAligned('16.50', 572, 165),
    ];
    expect(summary(runs)).toEqual([
      { category: 'STARTERS', name: 'Garlic Bread', description: 'toasted with herbs', variants: ['550'] },
      { category: 'STARTERS', name: 'Soup of the day', description: null, variants: ['variable'] },
      { category: 'PIZZA', name: 'Margherita', description: 'tomato, mozzarella, basil', variants: ['1400'] },
      { category: 'PIZZA', name: 'Pepperoni', description: null, variants: ['1650'] },
    ]);
  });

  it('turns several prices under size headings into variants named after them', () => {
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
    ];
    const { items } = draft(runs);
    expect(summary(runs)).toEqual([
      { category: 'PIZZA', name: 'Margherita', description: null, variants: ['Small 1000', 'Large 1500'] },
      { category: 'PIZZA', name: 'Funghi', description: null, variants: ['Small 1100', 'Large 1600'] },
    ]);
    expect(items[0]).toMatchObject({
      optionNames: ['Size'],
      variants: [{ options: { Size: 'Small' } }, { options: { Size: 'Large' } }],
    });
  });

  it('tells headings by capitals when sizes and weights are all the same, and reads dot leaders', () => {
    const runs = [
      aRun('DRINKS', 40, 80),
      aRun('Lemonade ............ 3.00', 40, 100),
      aRun('Iced tea .............. 3.50', 40, 115),
      aRun('DESSERTS', 40, 140),
      aRun('Tiramisu .............. 7.00', 40, 160),
    ];
    expect(summary(runs).map((i) => `${i.category}/${i.name}/${i.variants}`)).toEqual([
      'DRINKS/Lemonade/300',
      'DRINKS/Iced tea/350',
      'DESSERTS/Tiramisu/700',
    ]);
  });

  it('takes the name from the line above a price that stands alone, and nests sub-headings', () => {
    const runs = [
      aRun('MAINS', 40, 60, { size: 20, bold: true }),
      aRun('From the grill', 40, 90, { size: 14, bold: true }),
      aRun('Ribeye steak', 40, 115, { bold: true }),
      aRun('dry-aged, with fries', 40, 130),
      aRightAligned('32', 300, 130),
      aRun('DESSERTS', 40, 170, { size: 20, bold: true }),
      aRun('Crème brûlée', 40, 200, { bold: true }),
      aRightAligned('9 €', 300, 215),
    ];
    expect(summary(runs, [LETTER], 'EUR')).toEqual([
      {
        category: 'MAINS > From the grill',
        name: 'Ribeye steak',
        description: 'dry-aged, with fries',
        variants: ['3200'],
      },
      { category: 'DESSERTS', name: 'Crème brûlée', description: null, variants: ['900'] },
    ]);
  });

  it('accepts bare whole prices when the menu writes them that way, and not a lone number in a name', () => {
    const bare = [aRun('Margherita 9', 40, 100), aRun('Marinara 8', 40, 115), aRun('Calzone 11', 40, 130)];
    expect(summary(bare).map((i) => `${i.name}/${i.variants}`)).toEqual([
      'Margherita/900',
      'Marinara/800',
      'Calzone/1100',
    ]);
    const lone = [aRun('Chicken 65', 40, 100), aRun('Butter chicken  $14.00', 40, 115)];
    expect(summary(lone).map((i) => i.name)).toEqual(['Butter chicken']);
  });

  it('keeps provenance and confidence; OCR prices are not trusted unless clear', () => {
    const photo = { page: 1, width: 1000, height: 1000, method: 'ocr' as const };
    const runs = [
      aRun('Burger', 100, 100, { size: 30, confidence: 0.95 }),
      aRightAligned('12.00', 900, 100, { size: 30, confidence: 0.96 }),
      aRun('Fries', 100, 160, { size: 30, confidence: 0.93 }),
      aRightAligned('4.50', 900, 160, { size: 30, confidence: 0.62 }),
    ];
    const { items } = draft(runs, [photo]);
    expect(items[0]!.provenance).toEqual({
      source: 'menu.pdf',
      sourceIndex: 0,
      page: 1,
      method: 'ocr',
      box: { x: 0.1, y: 0.1, width: 0.8, height: 0.03 },
    });
    expect(items[0]!.confidence).toBeGreaterThan(0.5);
    expect(items[1]!.confidence).toBeLessThanOrEqual(0.5);
    expect(items[1]!.doubts).toContain('price read by OCR and not confirmed');
    const text = draft([aRun('Burger  12.00', 40, 100)]).items[0]!;
    expect(text.confidence).toBeGreaterThan(items[0]!.confidence!);
  });

  it('takes an OCR line for a heading by its size only when its letters are larger, not only its box', () => {
    const photo = { page: 1, width: 1000, height: 1000, method: 'ocr' as const };
    // A dish line whose price glare hid: its box is taller than the dish lines' (the glare), its letters are
    // set as theirs (the same width per letter).
    const glare = (size: number) => {
      const run = aRun('Bacon Brussels Sprouts', 100, 240, { size: 55, confidence: 0.8 });
      return { ...run, width: aRun(run.text, 0, 0, { size }).width };
    };
    const menu = (line: TextRun) => [
      aRun('Burgers', 100, 40, { size: 45, confidence: 0.95 }),
      aRun('Cheeseburger', 100, 120, { size: 30, confidence: 0.95 }),
      aRightAligned('12.00', 900, 120, { size: 30, confidence: 0.96 }),
      aRun('Veggie Burger', 100, 180, { size: 30, confidence: 0.95 }),
      aRightAligned('11.00', 900, 180, { size: 30, confidence: 0.96 }),
      line,
      aRun('Chicken Wings', 100, 330, { size: 30, confidence: 0.95 }),
      aRightAligned('9.00', 900, 330, { size: 30, confidence: 0.96 }),
      aRun('Onion Rings', 100, 390, { size: 30, confidence: 0.95 }),
      aRightAligned('5.00', 900, 390, { size: 30, confidence: 0.96 }),
    ];
    const categories = (line: TextRun) =>
      Object.fromEntries(summary(menu(line), [photo]).map((i) => [i.name, i.category]));
    // Letters as large as its box: a heading over the dishes under it.
    expect(categories(glare(55))).toMatchObject({
      Cheeseburger: 'Burgers',
      'Chicken Wings': 'Bacon Brussels Sprouts',
      'Onion Rings': 'Bacon Brussels Sprouts',
    });
    // Letters as the dishes': no heading; the dishes under it stay in their section.
    expect(categories(glare(30))).toMatchObject({
      Cheeseburger: 'Burgers',
      'Chicken Wings': 'Burgers',
      'Onion Rings': 'Burgers',
    });
  });

  it("takes a line set tight under the menu's title and centred on it for the title's, naming no category", () => {
    const photo = { page: 1, width: 1000, height: 1000, method: 'ocr' as const };
    // `gap`: from the title's foot to the line under it.
    const menu = (gap: number) => [
      aRun('FATTO A MANO', 200, 40, { size: 60, confidence: 0.95 }),
      aRun('GELATERIA', 275, 100 + gap, { size: 36, confidence: 0.95 }),
      aRun('Affogato', 100, 220, { size: 30, confidence: 0.95 }),
      aRightAligned('6.00', 900, 220, { size: 30, confidence: 0.96 }),
      aRun('Tiramisu', 100, 280, { size: 30, confidence: 0.95 }),
      aRightAligned('7.00', 900, 280, { size: 30, confidence: 0.96 }),
      aRun('COFFEE', 100, 360, { size: 36, confidence: 0.95 }),
      aRun('Espresso', 100, 420, { size: 30, confidence: 0.95 }),
      aRightAligned('2.50', 900, 420, { size: 30, confidence: 0.96 }),
    ];
    const categories = (gap: number) => summary(menu(gap), [photo]).map((i) => `${i.category} / ${i.name}`);
    expect(categories(4)).toEqual([' / Affogato', ' / Tiramisu', 'COFFEE / Espresso']);
    // Standing apart from the title, the same line is the first section's heading.
    expect(categories(50)).toEqual(['GELATERIA / Affogato', 'GELATERIA / Tiramisu', 'COFFEE / Espresso']);
  });

  it('keeps a dish whose price is not a price without one, and warns about text it could not place', () => {
    const { items, warnings } = draft([
      aRun('Call us: 555-0100', 40, 60),
      aRun('Wings 2 for $5', 40, 100),
      aRun('Nachos  $9.00', 40, 115),
    ]);
    expect(items.map((i) => [i.name, i.variants[0]!.price])).toEqual([
      ['Wings', null],
      ['Nachos', { amount: 900, currency: 'USD' }],
    ]);
    expect(items[0]!.doubts?.[0]).toMatch(/2 for \$5/);
    expect(warnings.map((w) => w.message).join()).toMatch(/1 line\(s\) of text .*Call us/);
  });

  it('drops what OCR made of dot leaders, and reads an OCR price whose point came out as a colon', () => {
    const photo = { page: 1, width: 1000, height: 1000, method: 'ocr' as const };
    const runs = [
      aRun('Fish', 100, 100, { size: 30, confidence: 0.1 }),
      aRun('and', 170, 100, { size: 30, confidence: 0.1 }),
      aRun('Chips', 230, 100, { size: 30, confidence: 0.3 }),
      aRun('ales', 600, 100, { size: 30, confidence: 0.12 }),
      aRun('nia', 680, 100, { size: 30, confidence: 0.3 }),
      aRightAligned('$21.00', 900, 100, { size: 30, confidence: 0.96 }),
      aRun('Two', 100, 160, { size: 30, confidence: 0.95 }),
      aRun('Eggs', 170, 160, { size: 30, confidence: 0.95 }),
      aRun('.......c..oiue', 250, 160, { size: 30, confidence: 0 }),
      aRightAligned('9.50', 900, 160, { size: 30, confidence: 0.96 }),
      aRun('Lasagna', 100, 220, { size: 30, confidence: 0.96 }),
      aRightAligned('17:75', 900, 220, { size: 30, confidence: 0.92 }),
      aRun('Shrimp', 100, 280, { size: 30, confidence: 0.98 }),
      aRun('Fried', 200, 280, { size: 30, confidence: 0.98 }),
      aRun('Rice..', 290, 280, { size: 30, confidence: 0.9 }),
      aRightAligned('7.95', 900, 280, { size: 30, confidence: 0.96 }),
    ];
    const { items } = draft(runs, [photo]);
    expect(items.map((i) => [i.name, i.variants[0]!.price?.amount])).toEqual([
      ['Fish and Chips', 2100],
      ['Two Eggs', 950],
      ['Lasagna', 1775],
      // Dots glued to a name's last word are leaders, the word is the name's.
      ['Shrimp Fried Rice', 795],
    ]);
    expect(items[2]!.doubts).toContain('price read by OCR and not confirmed');
    // In a text layer a time stays a time.
    expect(draft([aRun('Lunch', 40, 100), aRightAligned('11:30', 300, 100)]).items).toEqual([]);
  });

  it("reads a display font's dollar sign that OCR took for an S as dollars, on a dollar menu only, never a dish number", () => {
    const photo = { page: 1, width: 1000, height: 1000, method: 'ocr' as const };
    const ocr = { size: 30, confidence: 0.9 };
    const runs = [
      // Price after the name on the same run of words, and as a right-aligned cell of its own.
      aRun('the', 100, 100, ocr),
      aRun('Breakfast', 160, 100, ocr),
      aRun('Roll', 340, 100, ocr),
      aRun('S4', 420, 100, ocr),
      aRun('Club', 100, 160, ocr),
      aRun('Wrap', 190, 160, ocr),
      aRightAligned('S7.75', 900, 160, ocr),
      // A dish number at the start of a line stays part of the name.
      aRun('S12', 100, 220, ocr),
      aRun('Hot', 170, 220, ocr),
      aRun('Soup', 240, 220, ocr),
      aRightAligned('$5.25', 900, 220, ocr),
    ];
    const { items } = draft(runs, [photo]);
    expect(items.map((i) => [i.name, i.variants[0]!.price])).toEqual([
      ['the Breakfast Roll', { amount: 400, currency: 'USD' }],
      ['Club Wrap', { amount: 775, currency: 'USD' }],
      ['S12 Hot Soup', { amount: 525, currency: 'USD' }],
    ]);
    expect(items[0]!.doubts).toContain('OCR read "S4", taken as $4');
    expect(items[1]!.doubts).toContain('OCR read "S7.75", taken as $7.75');
    // Not on a menu priced in euros, and not in a text layer, where an S is an S.
    expect(draft(runs, [photo], 'EUR').items.map((i) => i.name)).toEqual(['S12 Hot Soup']);
    const text = runs.map(({ confidence: _, ...run }) => run);
    expect(draft(text, [{ ...photo, method: 'text' }]).items.map((i) => i.name)).toEqual(['S12 Hot Soup']);
  });

  it('reads a market-price phrase under a priced dish as its description', () => {
    const { items, warnings } = draft([
      aRun('Poisson du jour', 40, 100),
      aRightAligned('prix du marché', 300, 100),
      aRun('selon arrivage', 40, 113, { size: 9, italic: true }),
    ]);
    expect(items.map((i) => [i.name, i.description, i.variants[0]!.pricing])).toEqual([
      ['Poisson du jour', 'selon arrivage', 'variable'],
    ]);
    expect(warnings).toEqual([]);
  });

  it('reads a dish named on a line of its own style above its description, whose last line holds the price', () => {
    const runs = [
      aRun('SALAD BOXES', 40, 60, { size: 16 }),
      aRun('GREEK GODDESS', 40, 90, { size: 10 }),
      aRun('Feta, tomatoes, cucumber, peppers,', 40, 103, { size: 8 }),
      aRun('red onion and olives . . . . . . £3.75', 40, 113, { size: 8 }),
      aRun('HARVEST', 40, 133, { size: 10 }),
      aRun('Roast squash and leaves . . . . . £4.00', 40, 146, { size: 8 }),
      aRun('DRINKS', 40, 166, { size: 16 }),
      aRun('TEQUILA, LIME &', 40, 190, { size: 10 }),
      aRun('SUNSHINE', 40, 202, { size: 10 }),
      aRun('tequila + berries + lime $13', 40, 215, { size: 8 }),
    ];
    expect(summary(runs, undefined, 'GBP')).toEqual([
      {
        category: 'SALAD BOXES',
        name: 'GREEK GODDESS',
        description: 'Feta, tomatoes, cucumber, peppers, red onion and olives',
        variants: ['375'],
      },
      { category: 'SALAD BOXES', name: 'HARVEST', description: 'Roast squash and leaves', variants: ['400'] },
      {
        category: 'DRINKS',
        name: 'TEQUILA, LIME & SUNSHINE',
        description: 'tequila + berries + lime',
        variants: ['1300'],
      },
    ]);
  });

  it('keeps a line in the dish-name style over a list of priced dishes as their heading', () => {
    const runs = [
      aRun('Mushroom Toast', 40, 60, { size: 14 }),
      aRun('mushrooms + shallots + bread $11', 40, 76, { size: 11 }),
      aRun('Shrimp Cocktail', 40, 96, { size: 14 }),
      aRun('smoked shrimp + tomatillo sauce $14', 40, 112, { size: 11 }),
      aRun('Scallops', 40, 132, { size: 14 }),
      aRun('seared scallops + hummus $16', 40, 148, { size: 11 }),
      aRun('Sides', 40, 180, { size: 14 }),
      aRun('collard greens $6', 40, 196, { size: 11 }),
      aRun('fried rice $6', 40, 209, { size: 11 }),
    ];
    expect(summary(runs).map((i) => `${i.category}/${i.name}/${i.variants}`)).toEqual([
      '/Mushroom Toast/1100',
      '/Shrimp Cocktail/1400',
      '/Scallops/1600',
      'Sides/collard greens/600',
      'Sides/fried rice/600',
    ]);
  });

  it('takes a short line set like the dishes, over two or more of them, for their heading', () => {
    const runs = [
      aRun('Classic beers', 40, 60),
      aRun('Pilsner (5.2°) 2.50e', 40, 76),
      aRun('Blonde (6.6°) 3.00e', 40, 92),
      aRun('Soft drinks', 40, 118),
      aRun('Cola 2.50e', 40, 134),
      aRun('Water 1.00e', 40, 150),
      aRun('Lemonade 2.00e', 40, 166),
    ];
    expect(summary(runs, undefined, 'EUR').map((i) => `${i.category}/${i.name}/${i.variants}`)).toEqual([
      'Classic beers/Pilsner (5.2°)/250',
      'Classic beers/Blonde (6.6°)/300',
      'Soft drinks/Cola/250',
      'Soft drinks/Water/100',
      'Soft drinks/Lemonade/200',
    ]);
  });

  it('keeps a line under a dish that is styled as a description its description, not a heading', () => {
    const runs = [
      aRun('Patty Melt . . . . . . . $7.00', 40, 60),
      aRun('Burger with grilled onions on rye', 40, 74, { size: 9, italic: true }),
      aRun('Club Sandwich . . . . . $8.00', 40, 88),
      aRun('BLT . . . . . . . . . . $6.75', 40, 102),
    ];
    expect(summary(runs).map((i) => `${i.category}/${i.name}/${i.description}`)).toEqual([
      '/Patty Melt/Burger with grilled onions on rye',
      '/Club Sandwich/null',
      '/BLT/null',
    ]);
  });

  it('does not take a note in parentheses above a dish for its name', () => {
    const runs = [
      aRun('BURGERS', 40, 40, { size: 15 }),
      aRun('(1/3 lb. ground beef used)', 40, 60, { size: 9, bold: true, italic: true }),
      aRun('Hamburger . . . . . . . $5.50', 40, 74),
      aRun('Cheeseburger . . . . . $6.00', 40, 88),
    ];
    expect(summary(runs).map((i) => `${i.category}/${i.name}/${i.variants}`)).toEqual([
      'BURGERS/Hamburger/550',
      'BURGERS/Cheeseburger/600',
    ]);
  });
});
