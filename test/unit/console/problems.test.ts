import {
  describePointer,
  fieldOf,
  itemIndexOf,
  problemsByField,
} from '../../../console/src/catalog/problems';
import { aDraft } from './draft-fixture';

describe('problems at their fields', () => {
  it.each([
    ['/items/3/variants/0/price/amount', '/items/3/variants/0/price'],
    ['/items/3/variants/0/price/currency', '/items/3/variants/0/price'],
    ['/items/3/variants/1/gtin', '/items/3/variants/1/gtin'],
    ['/items/3/variants/1/id', '/items/3/variants/1/name'],
    ['/items/3/variants/0/options/Size', '/items/3/variants/0/options/Size'],
    ['/items/3/variants', '/items/3/name'],
    ['/items/3/option_names/1', '/items/3/option_names'],
    ['/items/3/modifier_group_ids/0', '/items/3/modifier_group_ids'],
    ['/items/3/category_id', '/items/3/category_id'],
    ['/items/3/tags/0', '/items/3/name'],
    ['/categories/1/parent_id', '/categories/1/parent_id'],
    ['/categories/1/id', '/categories/1/name'],
    ['/modifier_groups/0/min', '/modifier_groups/0/min'],
    ['/modifier_groups/0/modifiers/2/price/amount', '/modifier_groups/0/modifiers/2/price'],
    ['/merchant/name', '/merchant/name'],
    ['/currency', ''],
    ['', ''],
  ])('%s is shown at %s', (pointer, field) => {
    expect(fieldOf(pointer)).toBe(field);
  });

  it('groups messages by field without repeating one', () => {
    const byField = problemsByField([
      { pointer: '/items/0/variants/0/price/amount', message: 'too big' },
      { pointer: '/items/0/variants/0/price/currency', message: 'must be an ISO 4217 code' },
      { pointer: '/items/0/variants/0/price/amount', message: 'too big' },
      { pointer: '/format_version', message: 'invalid' },
    ]);
    expect(byField.get('/items/0/variants/0/price')).toEqual(['too big', 'must be an ISO 4217 code']);
    expect(byField.get('')).toEqual(['invalid']);
  });

  it('unescapes JSON Pointer segments (an option named "a/b")', () => {
    expect(fieldOf('/items/0/variants/0/options/a~1b')).toBe('/items/0/variants/0/options/a~1b');
    expect(itemIndexOf('/items/12/variants/0/price')).toBe(12);
    expect(itemIndexOf('/categories/1/name')).toBeNull();
  });

  it('says where a problem is, in words', () => {
    const doc = aDraft();
    expect(describePointer(doc, '/items/1/variants/1/price/amount')).toBe(
      'Item “Diavola” › variant “Large” › price',
    );
    expect(describePointer(doc, '/categories/0/name')).toBe('Category “Pizza” › name');
    expect(describePointer(doc, '/modifier_groups/0/modifiers/1/name')).toBe(
      'Modifier group “Extras” › modifier “Basil” › name',
    );
    expect(describePointer({ ...doc, items: [{ ...doc.items[0]!, name: ' ' }] }, '/items/0/name')).toBe(
      'Item #1 (no name) › name',
    );
  });
});
