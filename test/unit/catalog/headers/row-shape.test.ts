import { isHintRow, isLabelRow, isProse, isValue } from '../../../../lambdas/core/catalog/headers/row-shape';

describe('row shapes near the top of a table', () => {
  test.each([
    ['# Required | A unique id for the item', true],
    ['Obligatoire. Un titre pour l’article', true],
    ['The name customers see on the receipt and the menu', true],
    ['Price, e.g. 9.99', true],
    ['※必須。半角数字で入力', true],
    ['全角五十文字以内で商品の名前を入力してください', true],
    ['Product name', false],
    ['Preis (EUR)', false],
    ['商品名', false],
    ['display_price', false],
    ['Blue ceramic mug', false],
    ['', false],
  ])('isProse(%j) → %j', (cell, prose) => {
    expect(isProse(cell)).toBe(prose);
  });

  test.each([
    ['12.50', true],
    ['49,00 TND', true],
    ['$5', true],
    ['¥1,200', true],
    ['2024/01/05', true],
    ['https://shop.example.com/p/1', true],
    ['Price', false],
    ['K-100', false],
    ['name_kana', false],
  ])('isValue(%j) → %j', (cell, value) => {
    expect(isValue(cell)).toBe(value);
  });

  test('typed cells are values, never labels', () => {
    expect(isValue(12)).toBe(true);
    expect(isValue(null)).toBe(false);
  });

  test('a header shape: distinct labels over rows holding values', () => {
    const below = [['1', 'Cedar soap', '800']];
    expect(isLabelRow(['shop_no', 'name', 'disp_amt'], below)).toBe(true);
    // Repeated labels, a value among them, too few cells, or no values under it: not a header's shape.
    expect(isLabelRow(['name', 'name', 'amt'], below)).toBe(false);
    expect(isLabelRow(['Fresh', 'Name', '3.50'], below)).toBe(false);
    expect(isLabelRow(['name', 'amt'], below)).toBe(false);
    expect(isLabelRow(['shop_no', 'name', 'disp_amt'], [['a', 'b', 'c']])).toBe(false);
  });

  test('a hint row fills the columns with prose or one repeated marker, and holds no value', () => {
    const headers = ['Name', 'Price', 'Category', 'Barcode'];
    expect(
      isHintRow(
        ['Required. The name.', 'Required. A number, e.g. 9.99', 'Optional. Drinks > Tea', ''],
        headers,
      ),
    ).toBe(true);
    expect(isHintRow(['required', 'required', 'optional', 'optional'], headers)).toBe(true);
    expect(isHintRow(['Green tea', '3.50', 'Drinks', '4006381333931'], headers)).toBe(false);
    expect(isHintRow(['Tea', 'A fragrant green tea picked in spring on the hills', '', ''], headers)).toBe(
      false,
    );
  });
});
