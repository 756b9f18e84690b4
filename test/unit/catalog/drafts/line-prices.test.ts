import {
  isPriceText,
  readLinePrices,
  readPriceToken,
} from '../../../../lambdas/core/catalog/drafts/line-prices';

const amounts = (text: string, currency = 'USD') =>
  readLinePrices(text, currency).prices.map((p) =>
    p.variable ? 'variable' : `${p.price?.amount} ${p.price?.currency}`,
  );

describe('readLinePrices', () => {
  it.each([
    ['Garlic Bread ........ $5.50', 'Garlic Bread', ['550 USD']],
    ['Garlic Bread …………… 5.50', 'Garlic Bread', ['550 USD']],
    ['Garlic Bread . . . . . .$5.50', 'Garlic Bread', ['550 USD']],
    ['Garlic Bread. . . . £5.50', 'Garlic Bread', ['550 GBP']],
    ['Extra cheese . . . . 75¢', 'Extra cheese', ['75 USD']],
    ['Margherita 12,50 €', 'Margherita', ['1250 EUR']],
    ['Soupe à l’oignon 8€50', 'Soupe à l’oignon', ['850 EUR']],
    ['Steak frites - 18 €', 'Steak frites', ['1800 EUR']],
    ['Burger | 14.00', 'Burger', ['1400 USD']],
    ['Fish tacos USD 4', 'Fish tacos', ['400 USD']],
    ['Bière 5.-', 'Bière', ['500 USD']],
    ['Pizza 10 / 14 / 18', 'Pizza', ['1000 USD', '1400 USD', '1800 USD']],
    ['House wine  9.00  34.00', 'House wine', ['900 USD', '3400 USD']],
    ['Oysters ........ MP', 'Oysters', ['variable']],
    // OCR keeps a leader's last dot glued to the price.
    ['Wonton Soup .3.50', 'Wonton Soup', ['350 USD']],
    ['Egg Roll…1.75', 'Egg Roll', ['175 USD']],
    ['.4.50', '', ['450 USD']],
    ['Lobster  Market Price', 'Lobster', ['variable']],
    ['Poisson du jour  prix du marché', 'Poisson du jour', ['variable']],
  ])('%s', (text, label, expected) => {
    expect(readLinePrices(text, 'USD').label).toBe(label);
    expect(amounts(text)).toEqual(expected);
  });

  it('uses the job currency for amounts without a symbol, and the symbol when there is one', () => {
    expect(amounts('Croque monsieur 9,50', 'EUR')).toEqual(['950 EUR']);
    expect(amounts('Fish and chips £12', 'EUR')).toEqual(['1200 GBP']);
    expect(amounts('Ramen ¥1,200', 'JPY')).toEqual(['1200 JPY']);
  });

  it('marks a bare number after one space as weak, and a separated one as strong', () => {
    expect(readLinePrices('Margherita 12', 'USD')).toMatchObject({ label: 'Margherita', weak: true });
    expect(readLinePrices('Margherita ... 12', 'USD')).toMatchObject({ label: 'Margherita', weak: false });
    expect(readLinePrices('Margherita  12', 'USD').weak).toBe(false);
  });

  it('does not take a number that is part of a name or a description', () => {
    expect(readLinePrices('Open daily 11 to 10', 'USD').weak).toBe(true);
    expect(amounts('Call 555 1234')).toEqual([]);
    expect(amounts('7 Up')).toEqual([]);
    expect(amounts('Coke 330ml')).toEqual([]);
    expect(amounts('Open 11:30 - 22:00')).toEqual([]);
    // One dot before a number is a leader only after a word and before decimals.
    expect(amounts('Menu of 12.03.24')).toEqual([]);
    expect(amounts('Add bacon .75')).toEqual([]);
  });

  it('reports multi-buy deals and unit prices as not a price (SPEC 5.2), keeping the name', () => {
    expect(readLinePrices('Wings 2 for $5', 'USD')).toMatchObject({
      label: 'Wings',
      prices: [],
      notAPrice: '2 for $5',
    });
    expect(readLinePrices('Shrimp ...... $0.69/lb', 'USD')).toMatchObject({
      label: 'Shrimp',
      prices: [],
      notAPrice: '$0.69/lb',
    });
  });

  it('leaves a line without prices as it is', () => {
    expect(readLinePrices('Tomato, mozzarella, basil', 'USD')).toMatchObject({
      label: 'Tomato, mozzarella, basil',
      prices: [],
    });
  });
});

describe('readPriceToken and isPriceText', () => {
  it('reads amounts and market prices and refuses words', () => {
    expect(readPriceToken('$12.50', 'USD')?.price).toEqual({ amount: 1250, currency: 'USD' });
    expect(readPriceToken('M.P.', 'USD')).toMatchObject({ variable: true, price: null });
    expect(readPriceToken('Large', 'USD')).toBeUndefined();
    expect(readPriceToken('12.5.5', 'USD')).toBeUndefined();
  });

  it('tells a price cell from a text cell', () => {
    expect(isPriceText('14.00')).toBe(true);
    expect(isPriceText('9  12  15')).toBe(true);
    expect(isPriceText('Calamari')).toBe(false);
    expect(isPriceText('Calamari 11')).toBe(false);
  });
});
