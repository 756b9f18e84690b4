import { languageTag } from '../../../../lambdas/core/catalog/headers/columns';
import { buildCsv } from '../../../fixtures/catalog/build';
import { aCatalogJob } from '../../../fixtures/catalog/jobs';

/** One odd detail never rejects a whole file: control characters, name columns per language, headers in other alphabets. */

const retail = (language: string) => aCatalogJob({ job_type: 'new_retail_catalog', job_data: { language } });

describe('name columns per language', () => {
  test.each([
    ['name_en', 'en'],
    ['product_name_fr', 'fr'],
    ['Name (DE)', 'de'],
    ['name', null],
    ['product_id', null],
  ])('languageTag(%j) → %j', (header, tag) => {
    expect(languageTag(header)).toBe(tag);
  });

  test('the job language’s column is the name, the other read only where it is empty, with one warning', async () => {
    const csv = ['sku,name_en,name_fr,price', 'A1,Candle,Bougie,12.00', 'A2,,Savon,4.50'].join('\n');
    const { document, results } = await buildCsv(csv, retail('fr_fr'), 'shop.csv');
    expect(document.items.map((i) => i.name)).toEqual(['Bougie', 'Savon']);
    const { document: english, results: englishResults } = await buildCsv(csv, retail('en_gb'), 'shop.csv');
    expect(english.items.map((i) => i.name)).toEqual(['Candle', 'Savon']);
    for (const r of [results, englishResults]) {
      expect((r.warnings ?? []).filter((w) => w.code === 'other_languages')).toHaveLength(1);
    }
  });
});

describe('headers in the store’s alphabet', () => {
  test.each([
    ['Название,Цена,Категория\nЧай зелёный,250.00,Напитки\n', 'ru_ru', 'Чай зелёный', 25000],
    ['Όνομα,Τιμή\nΚαφές,3.50\n', 'el_gr', 'Καφές', 350],
    ['商品名,価格\n緑茶,480\n', 'ja_jp', '緑茶', 480],
  ])('%j is read', async (csv, language, name, amount) => {
    const { document } = await buildCsv(csv, retail(language), 'shop.csv');
    expect(document.items.map((i) => [i.name, i.variants[0]?.price?.amount])).toEqual([[name, amount]]);
  });
});

describe('a stray control character', () => {
  test('is dropped from the cell; the row and the file are read', async () => {
    const csv = 'name,price\nBlue\u0007 mug,12.00\nGreen bowl,9.00\n';
    const { document, failures } = await buildCsv(csv, retail('en_us'), 'shop.csv');
    expect(failures).toEqual([]);
    expect(document.items.map((i) => i.name)).toEqual(['Blue mug', 'Green bowl']);
  });
});
