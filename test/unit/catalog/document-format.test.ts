import { parseCatalogDocument, parseCatalogUpload } from '../../../lambdas/core/catalog/document';
import { upgradedVariantId } from '../../../lambdas/core/catalog/document-v1';

const JOB = '0b7f6c1e-8a6a-4c3e-9f43-0c2f4f7f2a11';
const CAT = '11111111-1111-4111-8111-111111111111';
const ITEM = '22222222-2222-4222-8222-222222222222';
const VAR_S = '33333333-3333-4333-8333-333333333333';
const VAR_L = '44444444-4444-4444-8444-444444444444';

const head = (version: 1 | 2) => ({
  format_version: version,
  job_id: JOB,
  job_type: 'new_menu',
  generated_at: '2025-01-02T03:04:05.000Z',
  language: 'en_us',
  currency: 'USD',
  merchant: { name: 'Luigi' },
});

const v2 = (overrides: Record<string, unknown> = {}) => ({
  ...head(2),
  categories: [{ id: CAT, name: 'Pizza' }],
  items: [
    {
      id: ITEM,
      name: 'Margherita',
      category_id: CAT,
      option_names: ['Size'],
      variants: [
        { id: VAR_S, name: 'Small', options: { Size: 'Small' }, price: { amount: 1000, currency: 'USD' } },
        { id: VAR_L, name: 'Large', options: { Size: 'Large' }, price: null, pricing: 'variable' },
      ],
    },
  ],
  ...overrides,
});

describe('catalog document format 2', () => {
  test('fills in defaults; variants carry price and pricing', () => {
    const parsed = parseCatalogDocument(v2());
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.formatVersion).toBe(2);
    expect(parsed.document.items[0]?.variants[1]).toEqual({
      id: VAR_L,
      name: 'Large',
      options: { Size: 'Large' },
      sku: null,
      gtin: null,
      size: null,
      unit: null,
      price: null,
      pricing: 'variable',
      images: [],
      external_id: null,
    });
    expect(parsed.document.items[0]).toMatchObject({ tags: [], images: [], modifier_group_ids: [] });
  });

  test('an item needs a variant; options name only option_names; variant ids are unique', () => {
    const bad = v2({
      items: [
        { id: ITEM, name: 'A', variants: [] },
        {
          id: '55555555-5555-4555-8555-555555555555',
          name: 'B',
          option_names: ['Size'],
          variants: [
            { id: VAR_S, options: { Colour: 'red' } },
            { id: VAR_S, options: { Size: 'L' } },
          ],
        },
      ],
    });
    const parsed = parseCatalogDocument(bad);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.map((e) => e.pointer)).toEqual(
      expect.arrayContaining([
        '/items/0/variants',
        '/items/1/variants/0/options/Colour',
        '/items/1/variants/1/id',
      ]),
    );
  });

  test('image mappings point at a variant of the mapped item', () => {
    const mapping = {
      image_url: 'https://cdn.example.com/a.jpg',
      item_id: ITEM,
      variant_id: CAT,
      matched_by: 'sku',
    };
    const parsed = parseCatalogDocument(v2({ image_mappings: [mapping] }));
    expect(parsed.ok ? [] : parsed.errors).toEqual([
      { pointer: '/image_mappings/0/variant_id', message: 'not a variant of the mapped item' },
    ]);
    expect(parseCatalogDocument(v2({ image_mappings: [{ ...mapping, variant_id: VAR_S }] })).ok).toBe(true);
  });

  test('an upload may leave out job_id and generated_at; a complete document may not', () => {
    const { job_id: _j, generated_at: _g, ...upload } = v2();
    expect(parseCatalogUpload(upload).ok).toBe(true);
    const complete = parseCatalogDocument(upload);
    expect(complete.ok ? [] : complete.errors.map((e) => e.pointer)).toEqual(['/job_id', '/generated_at']);
  });
});

describe('catalog document format 1', () => {
  test('is upgraded: one variant with the item’s sku, gtin, size, unit and price', () => {
    const parsed = parseCatalogDocument({
      ...head(1),
      items: [
        {
          id: ITEM,
          name: 'Milk',
          sku: 'M-1',
          gtin: '036000291452',
          size: '1',
          unit: 'l',
          price: { amount: 199, currency: 'USD' },
        },
      ],
      image_mappings: [
        { image_url: 'https://cdn.example.com/036000291452.png', item_id: ITEM, matched_by: 'gtin' },
      ],
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.formatVersion).toBe(1);
    expect(parsed.document.format_version).toBe(2);
    const variantId = upgradedVariantId(ITEM);
    expect(parsed.document.items[0]).toMatchObject({
      option_names: [],
      variants: [
        {
          id: variantId,
          name: null,
          sku: 'M-1',
          gtin: '036000291452',
          size: '1',
          unit: 'l',
          price: { amount: 199, currency: 'USD' },
          pricing: 'fixed',
        },
      ],
    });
    expect(parsed.document.image_mappings[0]?.variant_id).toBe(variantId);
    expect(parseCatalogDocument(parsed.document).ok).toBe(true);
  });

  test('format 1 problems point into the document as it was sent', () => {
    const parsed = parseCatalogUpload({ ...head(1), items: [{ id: ITEM, name: 'x', variants: [] }] });
    expect(parsed.ok ? [] : parsed.errors.map((e) => e.pointer)).toEqual(['/items/0']);
  });
});
