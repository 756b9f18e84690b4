import { misreadFonts, misreadSigns, reread } from '../../../../lambdas/core/catalog/drafts/pdf-encoding';

/** Each font's text as the page would read after misreadFonts (fonts read right unchanged). */
const readAgain = (items: { str: string; fontName: string }[]): string[] => {
  const misread = misreadFonts(items);
  return items.map((item) => {
    const map = misread.get(item.fontName);
    return map ? reread(item.str, map) : item.str;
  });
};

describe('misreadSigns (characters no word holds)', () => {
  it.each([
    ['H¸hnerfleisch', 1], // ü read as a cedilla
    ['Kr‰uter und S¸fles', 2],
    ['CrËme br˚lÈe', 3], // è, û, é read as Ë, ˚, È
    ['MŸller', 1], // a capital before a lower-case letter
  ])('counts %s: %i', (text, count) => {
    expect(misreadSigns(text)).toBe(count);
  });

  it.each([
    'Hühnerfleisch mit süß-saurer Soße',
    'Crème brûlée, café au lait',
    'l’eau, Joe’s, rock‑n‑roll, col·legi',
    '¡Hola! “Tapas” «maison» 5 €',
    'ÉCOLE Élysée Øresund',
    'H¸', // not between two letters
  ])('finds none in %s', (text) => {
    expect(misreadSigns(text)).toBe(0);
  });
});

describe('misreadFonts (fonts pdf.js decoded with the wrong encoding)', () => {
  it('reads WinAnsi bytes decoded as Mac Roman again, the whole font, and leaves the other fonts', () => {
    const items = [
      { str: 'H¸hnerfleischspieﬂe', fontName: 'f1' },
      { str: '÷ffnungszeiten', fontName: 'f1' }, // no sign of its own: read again with its font
      { str: 'Grofl', fontName: 'f1' }, // plain letters stay
      { str: 'Geflügel', fontName: 'f2' },
    ];
    expect(readAgain(items)).toEqual(['Hühnerfleischspieße', 'Öffnungszeiten', 'Grofl', 'Geflügel']);
  });

  it('reads Mac Roman bytes decoded as WinAnsi again', () => {
    expect(readAgain([{ str: 'HŸhner CafŽ', fontName: 'f' }])).toEqual(['Hühner Café']);
  });

  it('leaves a font whose text is no better read again', () => {
    // The ® between letters is a sign, but read as either encoding's other character it still is one.
    const items = [{ str: 'Nutella®Brot, Müller', fontName: 'f' }];
    expect(misreadSigns(items[0]!.str)).toBe(1);
    expect(misreadFonts(items).size).toBe(0);
  });

  it('leaves text that is right', () => {
    const items = [
      { str: 'Crème brûlée', fontName: 'a' },
      { str: 'Kräuter, süß, Öl', fontName: 'b' },
      { str: 'ñandú, ¿qué?', fontName: 'c' },
    ];
    expect(misreadFonts(items).size).toBe(0);
  });
});
