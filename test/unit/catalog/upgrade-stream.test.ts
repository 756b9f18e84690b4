import { type CatalogDocument, parseCatalogDocument } from '../../../lambdas/core/catalog/document';
import { upgradeCatalogStream } from '../../../lambdas/core/catalog/upgrade-stream';
import { catalogJsonChunks } from '../../../lambdas/core/catalog/writer';

const ITEM = '8d4b3f0e-58a6-5e5a-9a53-9f1c54c4f003';

/** A format 1 catalog as the service stored it before format 2 (the writer's layout). */
const v1 = {
  format_version: 1,
  job_id: '0b7f6c1e-8a6a-4c3e-9f43-0c2f4f7f2a11',
  job_type: 'retail_image_mapping',
  generated_at: '2025-01-02T03:04:05.000Z',
  language: 'en_us',
  currency: 'USD',
  merchant: { name: 'Shop', address: null, token: null },
  categories: [
    {
      id: '8d4b3f0e-58a6-5e5a-9a53-9f1c54c4f001',
      name: 'Dairy',
      parent_id: null,
      sort: 0,
      external_id: null,
    },
  ],
  items: Array.from({ length: 300 }, (_, i) => ({
    id: i === 0 ? ITEM : `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name: `Milk ${i} “fresh”`,
    description: null,
    category_id: '8d4b3f0e-58a6-5e5a-9a53-9f1c54c4f001',
    sku: `M-${i}`,
    gtin: null,
    brand: null,
    size: '1',
    unit: 'l',
    price: { amount: 199, currency: 'USD' },
    tags: [],
    calories: null,
    modifier_group_ids: [],
    images: [],
    external_id: null,
  })),
  modifier_groups: [],
  image_mappings: [
    { image_url: 'https://cdn.example.com/m.jpg', item_id: ITEM, matched_by: 'sku', width: 1, height: 1 },
  ],
};

const text = async (chunks: AsyncIterable<string | Buffer>) => {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
};

const split = (bytes: Buffer, size: number): Buffer[] => {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
};

describe('upgradeCatalogStream', () => {
  test('a stored format 1 catalog comes out as the format 2 document parseCatalogDocument makes of it', async () => {
    const stored = await text(catalogJsonChunks(v1 as unknown as CatalogDocument, { chunkSize: 512 }));
    const expected = parseCatalogDocument(v1);
    if (!expected.ok) throw new Error('fixture');
    for (const size of [7, 1000, stored.length]) {
      const upgraded = JSON.parse((await text(upgradeCatalogStream(split(stored, size)))).toString('utf8'));
      expect(upgraded).toEqual(expected.document);
    }
  });

  test('a format 2 catalog, or a file in another layout, is copied byte for byte', async () => {
    const expected = parseCatalogDocument(v1);
    if (!expected.ok) throw new Error('fixture');
    const v2 = await text(catalogJsonChunks(expected.document));
    expect((await text(upgradeCatalogStream(split(v2, 100)))).equals(v2)).toBe(true);
    const other = Buffer.from(JSON.stringify({ format_version: 1, items: [{ id: 'a' }] }));
    expect((await text(upgradeCatalogStream([other]))).equals(other)).toBe(true);
    expect((await text(upgradeCatalogStream([]))).length).toBe(0);
  });
});
