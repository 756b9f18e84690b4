import { loadDraft, serverPointer, toUpload } from '../../../console/src/catalog/wire';
import { parseCatalogUpload } from '../../../lambdas/core/catalog/document';
import { parseCatalogDocumentV1 } from '../../../lambdas/core/catalog/document-v1';
import { aDraft, newId } from './draft-fixture';

const job = {
  id: '11111111-1111-4111-8111-111111111111',
  job_type: 'new_menu' as const,
  merchant_name: "Joe's Diner",
};

const v1Draft = () => {
  const doc = aDraft();
  return {
    ...doc,
    format_version: 1,
    items: doc.items
      .filter((i) => i.variants.length === 1)
      .map(({ option_names: _o, variants, ...item }) => ({
        ...item,
        sku: 'S1',
        gtin: null,
        size: null,
        unit: null,
        price: variants[0]!.price,
      })),
  };
};

describe('the draft between the API and the editor', () => {
  it('a format 2 draft is edited as it is and saved as format 2', () => {
    const loaded = loadDraft(aDraft(), job, newId);
    expect(loaded).toMatchObject({ format: 2, problems: [] });
    const body = toUpload(loaded.doc, loaded.format);
    expect(body.format_version).toBe(2);
    expect(parseCatalogUpload(body).ok).toBe(true);
  });

  it('a format 1 draft is edited as format 2 and saved back as format 1 while it fits', () => {
    const loaded = loadDraft(v1Draft(), job, newId);
    expect(loaded.format).toBe(1);
    expect(loaded.doc.items[0]!.variants[0]).toMatchObject({
      sku: 'S1',
      price: { amount: 1250, currency: 'USD' },
    });
    const body = toUpload(loaded.doc, loaded.format);
    const parsed = parseCatalogDocumentV1(body);
    expect(parsed.ok).toBe(true);
    expect(body).toMatchObject({
      format_version: 1,
      items: [{ name: 'Margherita', price: { amount: 1250 }, sku: 'S1' }, { name: 'Cola' }],
    });
  });

  it('a format 1 draft that gained a second variant is saved as format 2', () => {
    const loaded = loadDraft(v1Draft(), job, newId);
    const item = loaded.doc.items[0]!;
    const doc = {
      ...loaded.doc,
      items: [
        { ...item, variants: [...item.variants, { ...item.variants[0]!, id: newId(), name: 'Large' }] },
      ],
    };
    expect(toUpload(doc, 1).format_version).toBe(2);
    expect(parseCatalogUpload(toUpload(doc, 1)).ok).toBe(true);
  });

  it('no draft yet: an empty catalog in the job language’s currency', () => {
    const loaded = loadDraft(null, { ...job, language: 'ja_jp' }, newId);
    expect(loaded.doc).toMatchObject({
      format_version: 2,
      currency: 'JPY',
      language: 'ja_jp',
      items: [],
      categories: [],
    });
    expect(loaded.doc.merchant.name).toBe("Joe's Diner");
  });

  it('a stored draft that does not validate is reported, not silently shown as empty', () => {
    const loaded = loadDraft({ format_version: 2, items: 'nope' }, job, newId);
    expect(loaded.problems.length).toBeGreaterThan(0);
    expect(loaded.problems[0]!.message).toMatch(/^The stored draft is invalid/);
  });

  it('maps the service’s pointers into a format 1 upload back to the variant fields', () => {
    expect(serverPointer('/items/3/price/amount', 1)).toBe('/items/3/variants/0/price/amount');
    expect(serverPointer('/items/3/name', 1)).toBe('/items/3/name');
    expect(serverPointer('/items/3/price/amount', 2)).toBe('/items/3/price/amount');
  });
});
