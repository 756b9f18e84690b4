import { rebuildLines } from '../../../../lambdas/core/catalog/drafts/layout';
import { draftMenu } from '../../../../lambdas/core/catalog/drafts/menu-draft';
import { nameParts, scriptLettersOf } from '../../../../lambdas/core/catalog/drafts/name-scripts';
import { aRightAligned, aRun, LETTER } from '../../../fixtures/drafts/runs';

const latin = scriptLettersOf('en_us');

describe('nameParts: a dish name in two scripts keeps the job language’s', () => {
  it.each([
    ['鍋貼 12. Pan-fried Dumplings (6)', '12. Pan-fried Dumplings (6)', '鍋貼'],
    ['酸 辣 湯 K 3. Hot and Sour Soup', 'K 3. Hot and Sour Soup', '酸 辣 湯'],
    ['Σουβλάκι Pork Souvlaki', 'Pork Souvlaki', 'Σουβλάκι'],
    ['Pad See Ew ผัดซีอิ๊ว', 'Pad See Ew', 'ผัดซีอิ๊ว'],
  ])('%s', (input, name, other) => {
    expect(nameParts(input, latin)).toEqual({ name, otherScript: other });
  });

  it('keeps a dish number: customers order by it', () => {
    expect(nameParts('12. Green Curry', latin)).toEqual({ name: '12. Green Curry', otherScript: null });
  });

  it('keeps the job language’s script when that is the other one', () => {
    expect(nameParts('Σουβλάκι Pork Souvlaki', scriptLettersOf('el_gr'))).toEqual({
      name: 'Σουβλάκι',
      otherScript: 'Pork Souvlaki',
    });
  });

  it('leaves names alone that have too few letters of the language’s script, or none of another', () => {
    expect(nameParts('炒飯 XO', latin)).toEqual({ name: '炒飯 XO', otherScript: null });
    expect(nameParts('Crème brûlée', latin)).toEqual({ name: 'Crème brûlée', otherScript: null });
  });

  it('does not split Chinese, Japanese or Korean names (Latin letters belong to them)', () => {
    expect(scriptLettersOf('ja_jp')).toBeUndefined();
    expect(nameParts('Aランチ', scriptLettersOf('ja_jp'))).toEqual({ name: 'Aランチ', otherScript: null });
  });
});

describe('draftMenu with the job language', () => {
  const runs = [
    aRun('APPETIZERS', 40, 100, { size: 16, bold: true }),
    aRun('鍋貼 12. Pan-fried Dumplings', 40, 130),
    aRightAligned('7.25', 280, 130),
    aRun('春卷 13. Spring Roll', 40, 150),
    aRightAligned('2.50', 280, 150),
  ];
  const context = { source: 'menu.pdf', sourceIndex: 0, currency: 'USD', pages: [LETTER] };

  it('names the dish in the language’s script and keeps the other in the description', () => {
    const { items } = draftMenu(rebuildLines(runs), { ...context, language: 'en_us' });
    expect(items.map((i) => [i.name, i.description, i.variants[0]?.price?.amount])).toEqual([
      ['12. Pan-fried Dumplings', '鍋貼', 725],
      ['13. Spring Roll', '春卷', 250],
    ]);
  });

  it('without a language, keeps the name as read', () => {
    const { items } = draftMenu(rebuildLines(runs), context);
    expect(items.map((i) => i.name)).toEqual(['鍋貼 12. Pan-fried Dumplings', '春卷 13. Spring Roll']);
  });
});
