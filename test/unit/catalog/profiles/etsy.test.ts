import { buildRetail, csvOf, itemNamed, profileOf, variantsOf } from './helpers';

const HEADER = [
  'TITLE',
  'DESCRIPTION',
  'PRICE',
  'CURRENCY_CODE',
  'QUANTITY',
  'TAGS',
  'MATERIALS',
  'IMAGE1',
  'IMAGE2',
  'IMAGE10',
  'VARIATION 1 TYPE',
  'VARIATION 1 NAME',
  'VARIATION 1 VALUES',
  'VARIATION 2 TYPE',
  'VARIATION 2 NAME',
  'VARIATION 2 VALUES',
  'SKU',
];
const row = (cells: Partial<Record<(typeof HEADER)[number], string>>) => HEADER.map((h) => cells[h] ?? '');

describe('Etsy listings download', () => {
  test.each([
    [HEADER, 'etsy'],
    [['SKU', 'PRICE', 'TITLE', 'IMAGE1', 'QUANTITY'], 'etsy'],
    [['Title', 'Price', 'Quantity', 'Image'], 'generic'],
    [['Title', 'Price', 'Image1'], 'generic'],
  ])('%j is recognised as %s', (headers, profile) => {
    expect(profileOf(headers)).toBe(profile);
  });

  test('one listing per row, images in IMAGE order, variations as variants at the listing price', async () => {
    const csv = csvOf([
      HEADER,
      row({
        TITLE: 'Knit Beanie',
        DESCRIPTION: 'Warm.\n\nHand wash.',
        PRICE: '24.00',
        CURRENCY_CODE: 'EUR',
        TAGS: 'beanie,wool hat',
        IMAGE10: 'https://i.etsystatic.test/10.jpg',
        IMAGE1: 'https://i.etsystatic.test/1.jpg',
        'VARIATION 1 TYPE': 'Primary color',
        'VARIATION 1 VALUES': 'Red,Blue',
        'VARIATION 2 NAME': 'Size',
        'VARIATION 2 VALUES': 'S,L',
        SKU: 'B-R-S,B-R-L,B-B-S,B-B-L',
      }),
      row({
        TITLE: 'Scarf',
        PRICE: '40',
        'VARIATION 1 NAME': 'Length',
        'VARIATION 1 VALUES': 'Short,Long',
        SKU: 'SCARF',
      }),
      row({ TITLE: '', PRICE: '5' }),
    ]);
    const { document, results } = await buildRetail(csv, 'en_ca');
    const beanie = itemNamed(document, 'Knit Beanie');
    expect(variantsOf(beanie)).toEqual([
      ['Red / S', { 'Primary color': 'Red', Size: 'S' }, 'B-R-S', 2400, 'EUR'],
      ['Red / L', { 'Primary color': 'Red', Size: 'L' }, 'B-R-L', 2400, 'EUR'],
      ['Blue / S', { 'Primary color': 'Blue', Size: 'S' }, 'B-B-S', 2400, 'EUR'],
      ['Blue / L', { 'Primary color': 'Blue', Size: 'L' }, 'B-B-L', 2400, 'EUR'],
    ]);
    expect(beanie?.images.map((i) => i.url)).toEqual([
      'https://i.etsystatic.test/1.jpg',
      'https://i.etsystatic.test/10.jpg',
    ]);
    expect(beanie).toMatchObject({
      category_id: null,
      tags: ['beanie', 'wool hat'],
      description: 'Warm.\n\nHand wash.',
    });
    // One SKU for two variations belongs to neither.
    expect(variantsOf(itemNamed(document, 'Scarf'))).toEqual([
      ['Short', { Length: 'Short' }, null, 4000, 'CAD'],
      ['Long', { Length: 'Long' }, null, 4000, 'CAD'],
    ]);
    expect(results.warnings).toEqual([
      expect.objectContaining({ row: 4, column: 'TITLE', code: 'missing_name' }),
    ]);
    expect(results.sources?.[0]?.ignored_columns).toEqual(['QUANTITY', 'MATERIALS']);
  });
});

describe('Etsy listings download in the seller’s language', () => {
  // The same download with the shop in Italian, Spanish and German: Etsy translates the column names and
  // writes the variation's number after the words; CURRENCY_CODE and SKU stay English.
  const LANGUAGES = {
    it: [
      'TITOLO',
      'DESCRIZIONE',
      'PREZZO',
      'CURRENCY_CODE',
      'QUANTITÀ',
      'TAG',
      'MATERIALI',
      'IMMAGINE1',
      'IMMAGINE2',
      'TIPO VARIANTE 1',
      'NOME VARIANTE 1',
      'VALORI VARIANTE 1',
      'SKU',
    ],
    es: [
      'TÍTULO',
      'DESCRIPCIÓN',
      'PRECIO',
      'CURRENCY_CODE',
      'CANTIDAD',
      'ETIQUETAS',
      'MATERIALES',
      'IMAGEN1',
      'IMAGEN2',
      'TIPO DE VARIACIÓN 1',
      'NOMBRE DE VARIACIÓN 1',
      'VALORES DE VARIACIÓN 1',
      'SKU',
    ],
    de: [
      'TITEL',
      'BESCHREIBUNG',
      'PREIS',
      'CURRENCY_CODE',
      'MENGE',
      'TAGS',
      'MATERIALIEN',
      'BILD1',
      'BILD2',
      'VARIANTE 1 TYP',
      'VARIANTE 1 NAME',
      'VARIANTE 1 WERTE',
      'SKU',
    ],
  } as const;

  test.each(Object.entries(LANGUAGES))(
    '%s: recognised; title, price, images and variations read',
    async (_language, header) => {
      expect(profileOf(header)).toBe('etsy');
      const csv = csvOf([
        header,
        [
          'Vaso',
          'Fatto a mano.',
          '45.00',
          'EUR',
          '1',
          'vaso,ceramica',
          'argilla',
          'https://i.etsystatic.test/a.jpg',
          'https://i.etsystatic.test/b.jpg',
          'Colore',
          '',
          'Rosa,Grigio',
          '',
        ],
      ]);
      const { document, results } = await buildRetail(csv, 'de_de');
      const vase = itemNamed(document, 'Vaso');
      expect(variantsOf(vase)).toEqual([
        ['Rosa', { Colore: 'Rosa' }, null, 4500, 'EUR'],
        ['Grigio', { Colore: 'Grigio' }, null, 4500, 'EUR'],
      ]);
      expect(vase?.images.map((i) => i.url)).toEqual([
        'https://i.etsystatic.test/a.jpg',
        'https://i.etsystatic.test/b.jpg',
      ]);
      expect(vase).toMatchObject({ description: 'Fatto a mano.', tags: ['vaso', 'ceramica'] });
      expect(results.sources?.[0]?.ignored_columns).toEqual([header[4], header[6]]);
    },
  );
});
