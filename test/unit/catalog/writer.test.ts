import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import {
  type CatalogDocument,
  type Item,
  parseCatalogDocument,
} from '../../../lambdas/core/catalog/document';
import { catalogJsonChunks, writeCatalogJson } from '../../../lambdas/core/catalog/writer';
import { buildCsv } from '../../fixtures/catalog/build';

const menuDocument = async (): Promise<CatalogDocument> =>
  (await buildCsv(readFileSync(join(__dirname, '../../fixtures/catalog/menu.csv')))).document;

const join_ = async (chunks: AsyncIterable<string>) => {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
};

describe('catalogJsonChunks', () => {
  test('parses back to an equal document that validates, keys in SPEC order', async () => {
    const document = await menuDocument();
    const text = await join_(catalogJsonChunks(document));
    const parsed = JSON.parse(text);
    expect(parsed).toEqual(document);
    expect(parseCatalogDocument(parsed)).toEqual({ ok: true, document, formatVersion: 2 });
    expect(Object.keys(parsed)).toEqual([
      'format_version',
      'job_id',
      'job_type',
      'generated_at',
      'language',
      'currency',
      'merchant',
      'categories',
      'items',
      'modifier_groups',
      'image_mappings',
    ]);
  });

  test('empty lists and one entity per line', async () => {
    const document = { ...(await menuDocument()), categories: [], items: [], modifier_groups: [] };
    const text = await join_(catalogJsonChunks(document));
    expect(JSON.parse(text)).toEqual(document);
    expect(text).toContain('"items":[]');
    const withItems = await join_(catalogJsonChunks(await menuDocument()));
    expect(withItems.split('\n').filter((line) => line.startsWith('{"id"'))).toHaveLength(3 + 5 + 4);
  });

  test('chunks stay near the chunk size however many items there are; lists may be lazy', async () => {
    const base = await menuDocument();
    const template = base.items[0] as Item;
    let produced = 0;
    function* items(): Generator<Item> {
      for (let i = 0; i < 20_000; i += 1) {
        produced += 1;
        yield {
          ...template,
          id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          name: `item ${i}`,
        };
      }
    }
    let largest = 0;
    let count = 0;
    let text = '';
    for await (const chunk of catalogJsonChunks(
      { ...base, items: items(), modifier_groups: [] },
      { chunkSize: 16_384 },
    )) {
      largest = Math.max(largest, chunk.length);
      count += 1;
      text += chunk;
    }
    expect(produced).toBe(20_000);
    expect(count).toBeGreaterThan(100);
    expect(largest).toBeLessThan(16_384 + 2_000);
    const parsed = JSON.parse(text) as CatalogDocument;
    expect(parsed.items).toHaveLength(20_000);
    expect(parsed.items[19_999]?.name).toBe('item 19999');
  });
});

describe('writeCatalogJson', () => {
  test('writes with back-pressure and returns size, checksum and item count', async () => {
    const document = await menuDocument();
    const received: Buffer[] = [];
    // A slow, tiny-buffer destination forces waits for 'drain'.
    const destination = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _encoding, callback) {
        received.push(chunk);
        setImmediate(callback);
      },
    });
    const stats = await writeCatalogJson(document, destination, { chunkSize: 64 });
    const bytes = Buffer.concat(received);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(document);
    expect(stats).toEqual({
      sizeBytes: bytes.length,
      checksumSha256: createHash('sha256').update(bytes).digest('hex'),
      itemCount: 5,
    });
  });

  test('a destination that fails makes the write fail', async () => {
    const document = await menuDocument();
    const destination = new PassThrough({ highWaterMark: 8 });
    destination.on('data', () => destination.destroy(new Error('upload failed')));
    await expect(writeCatalogJson(document, destination, { chunkSize: 32 })).rejects.toThrow();
  });
});
