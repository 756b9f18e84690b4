import type { CatalogDocument } from '../../../../lambdas/core/catalog/document';
import { buildCsv } from '../../../fixtures/catalog/build';
import { aCatalogJob } from '../../../fixtures/catalog/jobs';

/**
 * The header row among title, blank, hint and description rows (rows/read-table.ts, headers/row-shape.ts):
 * platform templates put a row of hints above or under the column names, spreadsheets a title above.
 * Every fixture here is written for the test from the shape the platforms document.
 */

const retail = aCatalogJob({ job_type: 'new_retail_catalog' });
const names = (document: CatalogDocument) => document.items.map((i) => i.name);
const prices = (document: CatalogDocument) => document.items.map((i) => i.variants[0]?.price?.amount ?? null);

describe('header rows among hints, titles and notes', () => {
  test('a Meta-style hints row above the header, its prose full of `|` and `;`, is neither header nor delimiter', async () => {
    const csv = [
      '# Required | A unique content id for the item. Use the SKU if you can.,# Required | A specific and relevant title for the item.,# Required | The price of the item; format: 9.99 USD.,# Optional | The category in the platform taxonomy.',
      'id,title,price,fb_product_category',
      'MUG-1,Blue ceramic mug,12.00 USD,Home > Kitchen',
      'BRD-2,Walnut cutting board,34.50 USD,Home > Kitchen',
    ].join('\n');
    const { document, results } = await buildCsv(csv, retail, 'catalog.csv');
    expect(names(document)).toEqual(['Blue ceramic mug', 'Walnut cutting board']);
    expect(prices(document)).toEqual([1200, 3450]);
    expect(results.sources?.[0]).toMatchObject({ delimiter: ',', header_row: 2, rows: 2 });
  });

  test('a French hints row under the header is skipped with a warning, the products under it are read', async () => {
    const csv = [
      'id,title,description,availability,condition,price,link,image_link,brand',
      "# Obligatoire | Un identifiant unique pour l'article. Utilisez le SKU si possible.,# Obligatoire | Un titre précis et pertinent pour l'article.,# Obligatoire | Une description courte et pertinente de l'article.,# Obligatoire | La disponibilité actuelle de l'article en magasin.,# Obligatoire | L'état actuel de l'article vendu.,# Obligatoire | Le prix de l'article. Par ex. 9.99 EUR.,# Obligatoire | L'URL de la page du produit sur votre site.,# Obligatoire | L'URL de l'image principale de l'article.,# Facultatif | Le nom de la marque de l'article.",
      'TS-1,T-shirt en coton,T-shirt doux en coton bio,in stock,new,19.99 EUR,https://shop.example.fr/p/ts-1,https://shop.example.fr/i/ts-1.jpg,Atelier Nord',
      'TS-2,Sweat à capuche,Sweat chaud et épais,in stock,new,45.00 EUR,https://shop.example.fr/p/ts-2,https://shop.example.fr/i/ts-2.jpg,Atelier Nord',
    ].join('\n');
    const { document, results } = await buildCsv(
      csv,
      aCatalogJob({ job_type: 'new_retail_catalog', job_data: { language: 'fr_fr' } }),
      'modele.csv',
    );
    expect(names(document)).toEqual(['T-shirt en coton', 'Sweat à capuche']);
    expect(prices(document)).toEqual([1999, 4500]);
    expect(results.sources?.[0]).toMatchObject({ header_row: 1, rows: 2 });
    expect(results.warnings).toContainEqual(expect.objectContaining({ row: 2, code: 'not_an_item' }));
  });

  test('an English hints row under a generic header, and a row of Required/Optional markers, are skipped', async () => {
    const csv = [
      'Product name,Price,Category,Barcode',
      'Required. The name shown to customers, up to 100 characters.,Required. A number without the currency sign, e.g. 9.99,Optional. Use > between levels: Drinks > Tea,Optional. The 8- or 13-digit code printed on the pack',
      'required,required,optional,optional',
      'Green tea,3.50,Drinks > Tea,4006381333931',
    ].join('\n');
    const { document, results } = await buildCsv(csv, retail, 'products.csv');
    expect(names(document)).toEqual(['Green tea']);
    expect(prices(document)).toEqual([350]);
    expect(results.sources?.[0]).toMatchObject({ header_row: 1, rows: 1 });
    expect((results.warnings ?? []).filter((w) => w.code === 'not_an_item').map((w) => w.row)).toEqual([
      2, 3,
    ]);
  });

  test('a title row and a blank row above the header are skipped', async () => {
    const csv =
      'Spring price list — Corner Shop,,\n,,\nProduct,Price,Category\nOat biscuits,2.40,Bakery\nRye loaf,3.10,Bakery\n';
    const { document, results } = await buildCsv(csv, retail, 'list.csv');
    expect(names(document)).toEqual(['Oat biscuits', 'Rye loaf']);
    expect(prices(document)).toEqual([240, 310]);
    expect(results.sources?.[0]).toMatchObject({ header_row: 3, rows: 2 });
  });

  test('a Japanese header with a note row under it (※ notes, unspaced sentences)', async () => {
    const csv = [
      '商品名,価格,カテゴリ',
      '※必須。全角五十文字以内で入力してください,※必須。税込価格を半角数字で入力,※任意。階層は「>」で区切ってください',
      '緑茶ティーバッグ,300,飲料',
      '抹茶クッキー,450,菓子',
    ].join('\n');
    const { document, results } = await buildCsv(
      csv,
      aCatalogJob({ job_type: 'new_retail_catalog', job_data: { language: 'ja_jp' } }),
      'shohin.csv',
    );
    expect(names(document)).toEqual(['緑茶ティーバッグ', '抹茶クッキー']);
    expect(prices(document)).toEqual([300, 450]);
    expect(results.warnings).toContainEqual(expect.objectContaining({ row: 2, code: 'not_an_item' }));
  });

  test("a merchant system's own column names: its name column is enough when the row has a header's shape", async () => {
    const csv =
      'shop_no,item_key,name,disp_amt,flg_a,created_on\n1,K-100,Cedar soap,800,1,2024/01/05\n1,K-101,Hinoki soap,900,0,2024/01/06\n';
    const { document, results } = await buildCsv(csv, retail, 'master.csv');
    expect(names(document)).toEqual(['Cedar soap', 'Hinoki soap']);
    expect(results.sources?.[0]).toMatchObject({ header_row: 1, rows: 2, columns: { name: 'name' } });
  });

  test('a description under the header that is a product, not a hint, is read as one', async () => {
    const csv =
      'name,description,price\nMountain tea,A fragrant green tea picked in spring on the hills above the lake,3.50\n';
    const { document, results } = await buildCsv(csv, retail, 'teas.csv');
    expect(names(document)).toEqual(['Mountain tea']);
    expect((results.warnings ?? []).filter((w) => w.code === 'not_an_item')).toEqual([]);
  });

  test('a data row holding a known word is still no header: one known column over values is not enough', async () => {
    // Both rows are data: with no header, the columns are told from the values and the job goes to review.
    const { document, results, review } = await buildCsv(
      'Fresh,Name,3.50,x\nOld,Thing,2.00,y\n',
      retail,
      'rows.csv',
    );
    expect(results.sources?.[0]?.header_row).toBeUndefined();
    expect(prices(document)).toEqual([350, 200]);
    expect(results.warnings).toContainEqual(expect.objectContaining({ code: 'columns_inferred' }));
    expect(review).toHaveLength(1);
  });
});
