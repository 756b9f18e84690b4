import type { DraftItem } from '../../../../lambdas/core/catalog/draft';
import { parseHtml } from '../../../../lambdas/core/catalog/web/html';
import { draftFromPage } from '../../../../lambdas/core/catalog/web/html-draft';
import { findPrices } from '../../../../lambdas/core/catalog/web/price-text';
import { page } from '../../../fixtures/web/pages';

const draft = (html: string, currency = 'USD') =>
  draftFromPage(parseHtml(html), 'https://harbor.example/menu', {
    source: 'https://harbor.example/menu',
    kind: 'menu',
    currency,
  });

const summary = (items: readonly DraftItem[]) =>
  items.map((i) => [
    i.categoryPath.join(' > '),
    i.name,
    i.description,
    i.variants.map((v) => [v.name, v.price?.amount ?? v.pricing]),
  ]);

describe('prices in running text', () => {
  const found = (text: string, currency = 'USD') =>
    findPrices(text, currency).map((t) => [
      text.slice(t.start, t.end),
      t.price?.amount ?? null,
      t.price?.currency ?? null,
      t.kind,
    ]);

  it('finds marked, decimal, bare and market prices', () => {
    expect(found('Margherita $12.50')).toEqual([['$12.50', 1250, 'USD', 'marked']]);
    expect(found('Soupe 9,50 €')).toEqual([['9,50 €', 950, 'EUR', 'marked']]);
    expect(found('Latte 12 oz 4.50')).toEqual([['4.50', 450, 'USD', 'decimal']]);
    expect(found('Pizza ..... 14')).toEqual([['14', 1400, 'USD', 'bare']]);
    expect(found('Glass 9 | Bottle 34')).toEqual([
      ['9', 900, 'USD', 'bare'],
      ['34', 3400, 'USD', 'bare'],
    ]);
    expect(found('Oysters MP')).toEqual([['MP', null, null, 'variable']]);
    expect(found('Steak 1.234,50 €')).toEqual([['1.234,50 €', 123450, 'EUR', 'marked']]);
  });

  it('does not take hours, phone numbers, dates or quantities for prices', () => {
    expect(found('Open 11:30 am – 10 pm')).toEqual([]);
    expect(found('Mon–Fri 11.30–22.00')).toEqual([]);
    expect(found('Call (555) 123-4567')).toEqual([]);
    expect(found('Closed 24/12/2024')).toEqual([]);
    expect(found('350 g flour')).toEqual([]);
    expect(found('Fresh from the market')).toEqual([]);
  });
});

describe('HTML menu drafts', () => {
  it('drafts cards, lists, tables and dotted lines under their headings', () => {
    const items = draft(page('plain-menu.html'));
    expect(summary(items)).toEqual([
      ['Starters', 'Clam Chowder', 'New England style, oyster crackers', [[null, 950]]],
      ['Starters', 'Crispy Calamari', 'Lemon aioli, pickled peppers', [[null, 1300]]],
      [
        'Starters',
        'House Salad',
        null,
        [
          ['Option 1', 800],
          ['Option 2', 1200],
        ],
      ],
      ['Mains', 'Fish & Chips', 'Beer-battered cod, fries, slaw', [[null, 1900]]],
      ['Mains', 'Lobster Roll', 'Market price, served with fries', [[null, 'variable']]],
      ['Mains', 'Harbor Burger', 'Cheddar, bacon jam, brioche', [[null, 1750]]],
      [
        'Drinks',
        'Pinot Grigio',
        null,
        [
          ['Glass', 1100],
          ['Bottle', 4000],
        ],
      ],
      [
        'Drinks',
        'Malbec Argentina',
        null,
        [
          ['Glass', 1200],
          ['Bottle', 4400],
        ],
      ],
      ['Drinks', 'Lemonade', null, [[null, 450]]],
      ['Drinks', 'Iced Tea', null, [[null, 400]]],
    ]);
  });

  it('says where each item came from and how sure it is', () => {
    const items = draft(page('plain-menu.html'));
    expect(items[0]?.provenance).toEqual({
      source: 'https://harbor.example/menu',
      method: 'html',
      url: 'https://harbor.example/menu',
      locator: 'main > section:nth-of-type(1) > ul > li:nth-of-type(1)',
    });
    const confidence = Object.fromEntries(items.map((i) => [i.name, i.confidence]));
    expect(confidence['Clam Chowder']).toBe(0.9);
    // Two prices without labels, and a price without a currency or cents, are less certain.
    expect(confidence['House Salad']).toBeLessThan(0.9);
    expect(confidence['Iced Tea']).toBeLessThan(confidence.Lemonade as number);
    expect(items.find((i) => i.name === 'Iced Tea')?.doubts).toEqual(['price without a currency or cents']);
    expect(items[0]?.doubts).toEqual([]);
  });

  it('drafts a flat layout: bold capitals as sections, name, description and price on separate lines', () => {
    expect(summary(draft(page('flat-menu.html'), 'EUR'))).toEqual([
      ['ENTRÉES', "Soupe à l'oignon", 'gratinée au comté', [[null, 950]]],
      ['ENTRÉES', 'Terrine maison', 'cornichons, pain de campagne', [[null, 1100]]],
      ['PLATS', 'Steak frites', 'sauce au poivre', [[null, 2400]]],
      ['PLATS', 'Confit de canard', 'pommes sarladaises', [[null, 2250]]],
    ]);
  });

  it('labels several prices on one line', () => {
    const items = draft(`<main><h2>Pizza</h2><ul>
      <li>Margherita — small 10, large 15</li>
      <li>Marinara — small 9, large 13</li>
      <li>Diavola: $12.00</li></ul></main>`);
    expect(summary(items)).toEqual([
      [
        'Pizza',
        'Margherita',
        null,
        [
          ['small', 1000],
          ['large', 1500],
        ],
      ],
      [
        'Pizza',
        'Marinara',
        null,
        [
          ['small', 900],
          ['large', 1300],
        ],
      ],
      ['Pizza', 'Diavola', null, [[null, 1200]]],
    ]);
  });

  it('drafts nothing from a page that is not a menu', () => {
    const home = `<html><body><header><nav><a href="/menu">Menu</a></nav></header><main>
      <h1>Welcome to Harbor Street</h1><p>Happy hour: all drafts $5!</p>
      <p>Open 11:30 am – 10 pm. Call (555) 123-4567.</p></main>
      <footer>Gift cards from $25</footer></body></html>`;
    expect(draft(home)).toEqual([]);
  });

  it('ignores navigation, scripts and hidden elements', () => {
    const items = draft(`<body><nav><ul><li>Specials $1</li><li>Deals $2</li><li>More $3</li></ul></nav>
      <script>var price = "$9.99";</script><div hidden><p>A $1</p><p>B $2</p><p>C $3</p></div>
      <main><p>Tea 3.00</p><p>Coffee 3.50</p><p>Cocoa 4.00</p></main></body>`);
    expect(items.map((i) => i.name)).toEqual(['Tea', 'Coffee', 'Cocoa']);
  });
});

describe('HTML text', () => {
  it('turns markup into lines, entities decoded, and survives absurd nesting', async () => {
    const { htmlToText } = await import('../../../../lambdas/core/catalog/web/text');
    expect(htmlToText('<p>Loose leaf <b>tea</b>.</p><p>Steep 3&ndash;4 min.<br>Enjoy</p>')).toBe(
      'Loose leaf tea.\nSteep 3–4 min.\nEnjoy',
    );
    expect(htmlToText(`${'<span>'.repeat(3000)}deep text`)).toBe('deep text');
  });
});
