import { parseCatalogDocument } from '../../../lambdas/core/catalog/document';
import { upgradedVariantId } from '../../../lambdas/core/catalog/document-v1';

const CAT = '8d4b3f0e-58a6-5e5a-9a53-9f1c54c4f001';
const SUB = '8d4b3f0e-58a6-5e5a-9a53-9f1c54c4f002';
const ITEM = '8d4b3f0e-58a6-5e5a-9a53-9f1c54c4f003';
const GROUP = '8d4b3f0e-58a6-5e5a-9a53-9f1c54c4f004';
const MOD = '8d4b3f0e-58a6-5e5a-9a53-9f1c54c4f005';

/** A minimal valid upload: nullable fields and empty arrays omitted. */
const anUpload = (): Record<string, unknown> => ({
  format_version: 1,
  job_id: '0b7f6c1e-8a6a-4c3e-9f43-0c2f4f7f2a11',
  job_type: 'new_menu',
  generated_at: '2025-01-02T03:04:05Z',
  language: 'en_us',
  currency: 'USD',
  merchant: { name: 'Luigi' },
  categories: [
    { id: CAT, name: 'Pizza' },
    { id: SUB, name: 'Red', parent_id: CAT, sort: 0 },
  ],
  items: [
    {
      id: ITEM,
      name: 'Margherita',
      category_id: SUB,
      price: { amount: 1250, currency: 'USD' },
      modifier_group_ids: [GROUP],
    },
  ],
  modifier_groups: [{ id: GROUP, name: 'Size', min: 0, max: 1, modifiers: [{ id: MOD, name: 'Large' }] }],
  image_mappings: [
    { image_url: 'https://cdn.example.com/a.jpg', item_id: ITEM, matched_by: 'sku', width: 10, height: 20 },
  ],
});

describe('catalog document format 1 (still accepted, read as format 2)', () => {
  test('a minimal upload is accepted and filled in with nulls and empty arrays', () => {
    const parsed = parseCatalogDocument(anUpload());
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.document.merchant).toEqual({ name: 'Luigi', address: null, token: null });
    expect(parsed.document.items[0]).toEqual({
      id: ITEM,
      name: 'Margherita',
      description: null,
      category_id: SUB,
      brand: null,
      tags: [],
      calories: null,
      modifier_group_ids: [GROUP],
      images: [],
      external_id: null,
      option_names: [],
      variants: [
        {
          id: upgradedVariantId(ITEM),
          name: null,
          options: {},
          sku: null,
          gtin: null,
          size: null,
          unit: null,
          price: { amount: 1250, currency: 'USD' },
          pricing: 'fixed',
          images: [],
          external_id: null,
        },
      ],
    });
    expect(parsed.document.modifier_groups[0]?.modifiers[0]).toEqual({ id: MOD, name: 'Large', price: null });
  });

  const mutate = (change: (doc: Record<string, unknown> & { items: Record<string, unknown>[] }) => void) => {
    const doc = anUpload() as Record<string, unknown> & { items: Record<string, unknown>[] };
    change(doc);
    return parseCatalogDocument(doc);
  };

  test.each<[string, (doc: Record<string, unknown> & { items: Record<string, unknown>[] }) => void, string]>([
    ['unknown top-level key', (d) => Object.assign(d, { extra: 1 }), ''],
    ['unknown item key', (d) => Object.assign(d.items[0] as object, { colour: 'red' }), '/items/0'],
    ['format_version 3', (d) => Object.assign(d, { format_version: 3 }), '/format_version'],
    [
      'fractional amount',
      (d) => Object.assign(d.items[0] as object, { price: { amount: 12.5, currency: 'USD' } }),
      '/items/0/price/amount',
    ],
    ['lower-case currency', (d) => Object.assign(d, { currency: 'usd' }), '/currency'],
    ['bad gtin length', (d) => Object.assign(d.items[0] as object, { gtin: '12345' }), '/items/0/gtin'],
    [
      'unknown category',
      (d) => Object.assign(d.items[0] as object, { category_id: MOD }),
      '/items/0/category_id',
    ],
    [
      'unknown modifier group',
      (d) => Object.assign(d.items[0] as object, { modifier_group_ids: [MOD] }),
      '/items/0/modifier_group_ids/0',
    ],
    ['duplicate item id', (d) => d.items.push({ ...(d.items[0] as object) }), '/items/1/id'],
    [
      'category cycle',
      (d) => Object.assign((d.categories as object[])[0] as object, { parent_id: SUB }),
      '/categories/0/parent_id',
    ],
    [
      'image mapping to unknown item',
      (d) => Object.assign((d.image_mappings as object[])[0] as object, { item_id: CAT }),
      '/image_mappings/0/item_id',
    ],
    [
      'non-http image url',
      (d) => Object.assign(d.items[0] as object, { images: [{ url: 'file:///etc/passwd' }] }),
      '/items/0/images/0/url',
    ],
    ['blank name', (d) => Object.assign(d.items[0] as object, { name: '  ' }), '/items/0/name'],
    [
      'min above max',
      (d) => Object.assign((d.modifier_groups as object[])[0] as object, { min: 2, max: 1 }),
      '/modifier_groups/0/min',
    ],
  ])('refuses %s', (_name, change, pointer) => {
    const parsed = mutate(change);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors.map((e) => e.pointer)).toContain(pointer);
  });
});
