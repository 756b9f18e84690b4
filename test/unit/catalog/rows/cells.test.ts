import { parseBarcode } from '../../../../lambdas/core/catalog/rows/barcodes';
import {
  categoryPath,
  cellCalories,
  cellDescription,
  cellImages,
  cellTags,
  htmlToText,
} from '../../../../lambdas/core/catalog/rows/cells';
import { parsePriceCell } from '../../../../lambdas/core/catalog/rows/prices';

describe('parsePriceCell', () => {
  test.each([
    ['$12.50', 'USD', { kind: 'price', price: { amount: 1250, currency: 'USD' } }],
    [12.5, 'EUR', { kind: 'price', price: { amount: 1250, currency: 'EUR' } }],
    ['12,50 €', 'USD', { kind: 'price', price: { amount: 1250, currency: 'EUR' } }],
    ['USD 4', 'EUR', { kind: 'price', price: { amount: 400, currency: 'USD' } }],
    ['¥1,200', 'JPY', { kind: 'price', price: { amount: 1200, currency: 'JPY' } }],
    ['1300円', 'USD', { kind: 'price', price: { amount: 1300, currency: 'JPY' } }],
    ['3,-', 'EUR', { kind: 'price', price: { amount: 300, currency: 'EUR' } }],
    ['19.–', 'EUR', { kind: 'price', price: { amount: 1900, currency: 'EUR' } }],
    ['Fr. 2.20', 'EUR', { kind: 'price', price: { amount: 220, currency: 'CHF' } }],
    ['Free', 'USD', { kind: 'price', price: { amount: 0, currency: 'USD' } }],
    [{ amount: 1250, currency: 'EUR' }, 'USD', { kind: 'price', price: { amount: 1250, currency: 'EUR' } }],
    [
      { amount: '12.50', currency: 'usd' },
      'EUR',
      { kind: 'price', price: { amount: 1250, currency: 'USD' } },
    ],
    [{ amount: 12.5 }, 'USD', { kind: 'price', price: { amount: 1250, currency: 'USD' } }],
    ['', 'USD', { kind: 'empty' }],
    [null, 'USD', { kind: 'empty' }],
    ['—', 'USD', { kind: 'empty' }],
  ] as const)('%j (%s) is a price', (value, currency, expected) => {
    expect(parsePriceCell(value, currency)).toEqual(expected);
  });

  test.each([
    'MP',
    'mp',
    'M.P.',
    'Market Price',
    'market',
    'variable',
    'Seasonal',
    'Ask your server',
    'Prix du marché',
    'Tagespreis',
    '時価',
  ])('%j is a market (variable) price', (value) => {
    expect(parsePriceCell(value, 'USD')).toEqual({ kind: 'variable' });
  });

  test.each([
    ['2 for $5', 'not_a_price', 'deal'],
    ['$0.69/lb', 'not_a_price', 'per lb'],
    ['$4 per 100 g', 'not_a_price', 'per 100 g'],
    ['10-12', 'not_a_price', 'range'],
    ['twelve', 'not_a_price', 'is not a price'],
    ['12.50 XYZ', 'unknown_currency', 'unknown currency code XYZ'],
    ['12.3456', 'invalid_price', 'more than 2 decimal places'],
    ['-5', 'invalid_price', 'negative'],
    [true, 'invalid_price', 'not a price'],
    [{ amount: 5, currency: 'EURO' }, 'unknown_currency', 'not an ISO 4217 code'],
  ] as const)('%j is refused as %s', (value, code, message) => {
    const cell = parsePriceCell(value, 'USD');
    expect(cell).toMatchObject({ kind: 'invalid', code });
    if (cell.kind === 'invalid') expect(cell.message).toContain(message);
  });

  test('several prices in one cell, only where asked for', () => {
    expect(parsePriceCell('11 / 42', 'USD', { several: true })).toEqual({
      kind: 'prices',
      prices: [
        { label: null, price: { amount: 1100, currency: 'USD' } },
        { label: null, price: { amount: 4200, currency: 'USD' } },
      ],
    });
    expect(parsePriceCell('Glass 9 | Bottle $36', 'USD', { several: true })).toEqual({
      kind: 'prices',
      prices: [
        { label: 'Glass', price: { amount: 900, currency: 'USD' } },
        { label: 'Bottle', price: { amount: 3600, currency: 'USD' } },
      ],
    });
    expect(parsePriceCell('— / 120', 'USD', { several: true })).toEqual({
      kind: 'prices',
      prices: [
        { label: null, price: null },
        { label: null, price: { amount: 12000, currency: 'USD' } },
      ],
    });
    expect(parsePriceCell('11 / 42', 'USD')).toMatchObject({ kind: 'invalid', code: 'not_a_price' });
  });
});

describe('parseBarcode', () => {
  test.each([
    ['036000291452', '036000291452', false],
    ['5 901234 123457', '5901234123457', false],
    ['0-36000-29145-2', '036000291452', false],
    ['36000291452', '036000291452', true],
    ['="036000291452"', '036000291452', false],
    ["'036000291452", '036000291452', false],
    ['96385074', '96385074', false],
    ['00036000291452', '00036000291452', false],
    [36000291452, '036000291452', true],
    [5901234123457, '5901234123457', false],
  ] as const)('%j → %s', (value, gtin, restored) => {
    expect(parseBarcode(value)).toEqual({ ok: true, gtin, gtin14: gtin.padStart(14, '0'), restored });
  });

  test('UPC-12 and GTIN-13/14 of one product compare equal as GTIN-14', () => {
    const upc = parseBarcode('036000291452');
    const gtin = parseBarcode('0036000291452');
    expect(upc.ok && gtin.ok && upc.gtin14 === gtin.gtin14).toBe(true);
  });

  test.each([
    ['7.61E+12', 'scientific_notation', 'scientific notation'],
    ['7,61E+12', 'scientific_notation', 'scientific notation'],
    [7.61e12 + 0.5, 'scientific_notation', 'rounded'],
    ['036000291453', 'bad_check_digit', 'expected 2'],
    ['12345678901', 'invalid_gtin', '11 digits'],
    ['12345', 'invalid_gtin', 'has 5'],
    ['ABC-123', 'invalid_gtin', 'digits only'],
  ] as const)('%j is refused: %s', (value, code, message) => {
    const result = parseBarcode(value);
    expect(result).toMatchObject({ ok: false, code });
    if (!result.ok) expect(result.message).toContain(message);
  });
});

describe('cell readers', () => {
  test('tags: lists, |, comma or semicolon separated; duplicates dropped', () => {
    expect(cellTags('vegan|spicy|Vegan')).toEqual(['vegan', 'spicy']);
    expect(cellTags('hiking, merino , wool')).toEqual(['hiking', 'merino', 'wool']);
    expect(cellTags('a;b')).toEqual(['a', 'b']);
    expect(cellTags(['x', 'y', 'x'])).toEqual(['x', 'y']);
    expect(cellTags('  ')).toEqual([]);
  });

  test('calories: plain, with a unit; ranges and words refused', () => {
    expect(cellCalories('140 kcal')).toEqual({ ok: true, value: 140 });
    expect(cellCalories('250cal')).toEqual({ ok: true, value: 250 });
    expect(cellCalories(850)).toEqual({ ok: true, value: 850 });
    expect(cellCalories('')).toEqual({ ok: true, value: null });
    expect(cellCalories('250-400').ok).toBe(false);
    expect(cellCalories(12.5).ok).toBe(false);
  });

  test('descriptions: HTML is turned into text, block boundaries become line breaks', () => {
    expect(htmlToText('<p>Tomato &amp; basil</p><ul><li>vegan</li><li>spicy&nbsp;!</li></ul>')).toBe(
      'Tomato & basil\nvegan\nspicy !',
    );
    expect(cellDescription('<p>Crème <b>brûlée</b></p><script>x()</script>')).toEqual({
      ok: true,
      value: 'Crème brûlée',
    });
    expect(cellDescription('Plain text, 5 < 6')).toEqual({ ok: true, value: 'Plain text, 5 < 6' });
  });

  test('images: one or several absolute http(s) URLs; others refused', () => {
    expect(cellImages('https://a.test/1.jpg, https://a.test/2.jpg')).toEqual({
      images: [
        { url: 'https://a.test/1.jpg', width: null, height: null },
        { url: 'https://a.test/2.jpg', width: null, height: null },
      ],
      refused: [],
    });
    expect(cellImages('https://a.test/1.jpg,https://a.test/2.jpg?w=1,2').images.map((i) => i.url)).toEqual([
      'https://a.test/1.jpg',
      'https://a.test/2.jpg?w=1,2',
    ]);
    expect(cellImages('https://a.test/x.jpg?crop=1,2').images.map((i) => i.url)).toEqual([
      'https://a.test/x.jpg?crop=1,2',
    ]);
    expect(cellImages('file:///etc/passwd').refused).toEqual(['file:///etc/passwd']);
    expect(cellImages('photo.jpg').refused).toEqual(['photo.jpg']);
  });

  test('images: a cell of one URL and nothing else is the URL, checked like any other', () => {
    expect(cellImages('  https://a.test/1.jpg?w=200#top ')).toEqual({
      images: [{ url: 'https://a.test/1.jpg?w=200#top', width: null, height: null }],
      refused: [],
    });
    // Looks like a URL, but is not one (an unclosed IPv6 host; a port out of range).
    expect(cellImages('http://[::1/a.jpg')).toEqual({ images: [], refused: ['http://[::1/a.jpg'] });
    expect(cellImages('https://a.test:99999/a.jpg').refused).toEqual(['https://a.test:99999/a.jpg']);
    // A non-breaking space separates, as any whitespace does.
    expect(cellImages('https://a.test/1.jpg\u00a0https://a.test/2.jpg').images).toHaveLength(2);
  });

  test('category paths', () => {
    expect(categoryPath('Grocery > Dairy >Milk')).toEqual(['Grocery', 'Dairy', 'Milk']);
    expect(categoryPath('Pizza')).toEqual(['Pizza']);
    expect(categoryPath('<i>Mains</i>')).toEqual(['<i>Mains</i>']);
    // A cell of several lines walks down the tree, one line a level; `>` wins when both are there.
    expect(categoryPath('Gear\nBags')).toEqual(['Gear', 'Bags']);
    expect(categoryPath('Home\r\n  Kitchen \r\n\r\nKnives')).toEqual(['Home', 'Kitchen', 'Knives']);
    expect(categoryPath('Drinks > Hot\nteas')).toEqual(['Drinks', 'Hot\nteas']);
  });
});

describe('cellImages from JSON objects', () => {
  test('[{ src }], [{ url }] and { url } are images', () => {
    expect(
      cellImages([{ src: 'https://a.test/1.jpg' }, { url: 'https://a.test/2.jpg' }] as never).images.map(
        (i) => i.url,
      ),
    ).toEqual(['https://a.test/1.jpg', 'https://a.test/2.jpg']);
    expect(cellImages({ url: 'https://a.test/3.jpg' } as never).images.map((i) => i.url)).toEqual([
      'https://a.test/3.jpg',
    ]);
    expect(cellImages([{ src: 'not a url' }] as never)).toEqual({ images: [], refused: ['not a url'] });
  });
});
