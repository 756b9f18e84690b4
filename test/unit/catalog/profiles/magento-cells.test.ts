import {
  attributeLabel,
  attributePairs,
  categoryPaths,
  isDisabled,
  variations,
} from '../../../../lambdas/core/catalog/headers/profiles/magento-cells';

describe('Magento export cells', () => {
  test('categories: the root dropped, a path of only the root is none, slashes inside quotes or escaped kept', () => {
    expect(
      categoryPaths(
        'Default Category,Default Category/Men/Tops/Hoodies & Sweatshirts,Default Category/Collections/Eco Friendly',
      ),
    ).toEqual([
      ['Men', 'Tops', 'Hoodies & Sweatshirts'],
      ['Collections', 'Eco Friendly'],
    ]);
    expect(categoryPaths('Root/Roof/"Eaves/Vents"/Rolls,Root/In\\/Out')).toEqual([
      ['Roof', 'Eaves/Vents', 'Rolls'],
      ['In/Out'],
    ]);
  });

  test('configurable_variations: children by sku with their attribute values, in order', () => {
    const list = variations('sku=MH01-XS-Black,size=XS,color=Black|sku=MH01-XS-Gray,size=XS,color=Gray||');
    expect(list.map((v) => [v.sku, [...v.values]])).toEqual([
      [
        'MH01-XS-Black',
        [
          ['size', 'XS'],
          ['color', 'Black'],
        ],
      ],
      [
        'MH01-XS-Gray',
        [
          ['size', 'XS'],
          ['color', 'Gray'],
        ],
      ],
    ]);
  });

  test('additional_attributes keep a multi-select value whole; labels and product_online', () => {
    expect([...attributePairs('activity=Travel|Gym,manufacturer=Trailhead Supply,broken')]).toEqual([
      ['activity', 'Travel|Gym'],
      ['manufacturer', 'Trailhead Supply'],
    ]);
    expect(attributeLabel('shoe_size')).toBe('Shoe size');
    expect([isDisabled('1'), isDisabled('2'), isDisabled('0'), isDisabled(null)]).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });
});
