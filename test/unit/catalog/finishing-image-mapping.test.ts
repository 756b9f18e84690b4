import { parseCatalogDocument } from '../../../lambdas/core/catalog/document';
import {
  extractImageIdentifiers,
  fetchImage,
  inspectImage,
  mapImages,
} from '../../../lambdas/core/catalog/finishing/image-mapping';
import { OutboundBlockedError, OutboundNetworkError } from '../../../lambdas/core/outbound';
import { buildCsv } from '../../fixtures/catalog/build';
import { FakeHttp } from '../../fixtures/catalog/fake-http';
import { gifBytes, jpegBytes, pngBytes, webpBytes } from '../../fixtures/catalog/images';
import { aCatalogJob } from '../../fixtures/catalog/jobs';

describe('inspectImage', () => {
  test.each([
    ['jpeg', jpegBytes(640, 480), 640, 480],
    ['jpeg after a big APP1 segment', jpegBytes(3000, 2000, 40_000), 3000, 2000],
    ['png', pngBytes(1, 2), 1, 2],
    ['gif', gifBytes(320, 200), 320, 200],
    ['webp', webpBytes(1024, 768), 1024, 768],
  ])('%s', (_name, bytes, width, height) => {
    expect(inspectImage(bytes)).toMatchObject({ width, height });
  });

  test('formats by magic bytes', () => {
    expect(inspectImage(jpegBytes(1, 1))?.format).toBe('jpeg');
    expect(inspectImage(webpBytes(1, 1))?.format).toBe('webp');
  });

  test('a truncated image is still an image, without dimensions', () => {
    expect(inspectImage(jpegBytes(10, 10, 5000).subarray(0, 200))).toEqual({
      format: 'jpeg',
      width: null,
      height: null,
    });
  });

  test.each([['<html>'], ['<svg/>'], ['%PDF-1.4'], ['']])('%j is not an image', (text) => {
    expect(inspectImage(Buffer.from(text))).toBeNull();
  });
});

describe('extractImageIdentifiers', () => {
  test.each([
    ['https://cdn.example.com/img/036000291452.jpg', ['00036000291452']],
    ['https://cdn.example.com/img/036000291452_front.JPG?w=200', ['00036000291452']],
    ['https://cdn.example.com/4006381333931-2.png', ['04006381333931']],
    ['https://cdn.example.com/p/00036000291452/main.webp', []],
    ['https://cdn.example.com/IMG_96385074.gif', ['00000096385074']],
    ['https://cdn.example.com/36000291452.jpg', ['00036000291452']],
    ['https://cdn.example.com/036000291453.jpg', []],
    ['https://cdn.example.com/1234.jpg', []],
  ])('%s → gtins %j', (url, gtins) => {
    expect(extractImageIdentifiers(url).gtin14s).toEqual(gtins);
  });

  test('SKU candidates: whole name, then prefixes, then tokens; URL-decoded', () => {
    expect(extractImageIdentifiers('https://x.test/a/ABC-123_front.jpg').skus).toEqual([
      'abc-123_front',
      'abc-123',
      'abc',
      '123',
      'front',
    ]);
    expect(extractImageIdentifiers('https://x.test/SKU%20900.png').skus).toEqual(['sku 900', 'sku', '900']);
  });
});

const PRODUCTS = [
  'name,sku,upc,gtin',
  'Milk,MLK-1,036000291452,',
  'Oats,OAT-1,,4006381333931',
  'Chips,CH-9,,',
  'Bread,BR-1,,',
].join('\n');

const retailCatalog = async () =>
  (await buildCsv(PRODUCTS, aCatalogJob({ job_type: 'retail_image_mapping' }), 'products.csv')).document;

describe('mapImages', () => {
  test('matches by GTIN (zero-padded) then SKU; reports unmatched and unreachable', async () => {
    const document = await retailCatalog();
    const http = new FakeHttp({
      'https://img.test/00036000291452.jpg': { status: 200, body: jpegBytes(800, 600) },
      'https://img.test/04006381333931_1.png': { status: 200, body: pngBytes(100, 50) },
      'https://img.test/ch-9-front.webp': { status: 200, body: webpBytes(64, 64) },
      'https://img.test/unknown-thing.gif': { status: 200, body: gifBytes(1, 1) },
      'https://img.test/page.jpg': { status: 200, body: Buffer.from('<html>oops</html>') },
      'https://img.test/MLK-1.jpg': new OutboundBlockedError('resolves to 10.0.0.1 (private)'),
      'https://img.test/timeout.jpg': new OutboundNetworkError('timed out after 15000 ms'),
    });
    const urls = [
      'https://img.test/00036000291452.jpg',
      'https://img.test/04006381333931_1.png',
      'https://img.test/ch-9-front.webp',
      'https://img.test/unknown-thing.gif',
      'https://img.test/page.jpg',
      'https://img.test/missing.jpg',
      'https://img.test/MLK-1.jpg',
      'https://img.test/timeout.jpg',
      'https://img.test/00036000291452.jpg',
    ];
    const { imageMappings, results } = await mapImages(http, document.items, urls);
    const [milk, oats, chips, bread] = document.items;
    const variant = (item: typeof milk) => item?.variants[0]?.id;
    expect(imageMappings).toEqual([
      {
        image_url: urls[0],
        item_id: milk?.id,
        variant_id: variant(milk),
        matched_by: 'gtin',
        width: 800,
        height: 600,
      },
      {
        image_url: urls[1],
        item_id: oats?.id,
        variant_id: variant(oats),
        matched_by: 'gtin',
        width: 100,
        height: 50,
      },
      {
        image_url: urls[2],
        item_id: chips?.id,
        variant_id: variant(chips),
        matched_by: 'sku',
        width: 64,
        height: 64,
      },
    ]);
    // The image goes on the variant it names.
    expect(milk?.variants[0]?.images).toEqual([{ url: urls[0], width: 800, height: 600 }]);
    expect(milk?.images).toEqual([]);
    expect(bread?.variants[0]?.images).toEqual([]);
    expect(results).toEqual({
      mapped_count: 3,
      unmatched_images: ['https://img.test/unknown-thing.gif'],
      unmatched_count: 1,
      unreachable_images: [
        { url: 'https://img.test/page.jpg', status: 200, reason: 'not a JPEG, PNG, GIF or WebP image' },
        { url: 'https://img.test/missing.jpg', status: 404, reason: 'HTTP 404' },
        { url: 'https://img.test/MLK-1.jpg', status: null, reason: 'resolves to 10.0.0.1 (private)' },
        { url: 'https://img.test/timeout.jpg', status: null, reason: 'timed out after 15000 ms' },
      ],
      unreachable_count: 4,
      products_without_image_count: 1,
    });
    expect(http.requests).toHaveLength(8); // the duplicate URL is fetched once
    expect(http.requests[0]).toMatchObject({ method: 'GET', followRedirects: true, timeoutMs: 15_000 });
    const mapped = { ...document, image_mappings: imageMappings };
    expect(parseCatalogDocument(JSON.parse(JSON.stringify(mapped))).ok).toBe(true);
  });

  test('concurrency is bounded', async () => {
    const document = await retailCatalog();
    const answers: Record<string, { status: number; body: Buffer }> = {};
    const urls = Array.from({ length: 40 }, (_, i) => `https://img.test/${i}.png`);
    for (const url of urls) answers[url] = { status: 200, body: pngBytes(1, 1) };
    const http = new FakeHttp(answers);
    const { results } = await mapImages(http, document.items, urls, { concurrency: 3 });
    expect(http.requests).toHaveLength(40);
    expect(http.maxInFlight).toBe(3);
    expect(results.unmatched_count).toBe(40);
  });

  test('lists are capped, counts are not', async () => {
    const document = await retailCatalog();
    const urls = Array.from({ length: 5 }, (_, i) => `https://img.test/missing-${i}.png`);
    const { results } = await mapImages(new FakeHttp({}), document.items, urls, { listLimit: 2 });
    expect(results.unreachable_images).toHaveLength(2);
    expect(results.unreachable_count).toBe(5);
  });

  test('fetchImage stops reading once the dimensions are known', async () => {
    const image = pngBytes(5, 5);
    const http = new FakeHttp({
      'https://img.test/a.png': { status: 200, body: [image, ...Array(50).fill(Buffer.alloc(1000))] },
    });
    const result = await fetchImage(http, 'https://img.test/a.png', {
      timeoutMs: 1000,
      maxBytes: 10_000_000,
    });
    expect(result).toEqual({ ok: true, info: { format: 'png', width: 5, height: 5 } });
    expect(http.chunksRead.get('https://img.test/a.png')).toBe(1);
  });

  test('fetchImage reads on when the size comes late (JPEG split across chunks)', async () => {
    const image = jpegBytes(40, 30, 3000);
    const parts = [image.subarray(0, 10), image.subarray(10, 1000), image.subarray(1000)];
    const http = new FakeHttp({ 'https://img.test/a.jpg': { status: 200, body: parts } });
    expect(
      await fetchImage(http, 'https://img.test/a.jpg', { timeoutMs: 1000, maxBytes: 1_000_000 }),
    ).toEqual({
      ok: true,
      info: { format: 'jpeg', width: 40, height: 30 },
    });
  });

  test('fetchImage rethrows errors that are not outbound failures', async () => {
    const http = new FakeHttp({ 'https://img.test/a.jpg': new TypeError('bug') });
    await expect(fetchImage(http, 'https://img.test/a.jpg', { timeoutMs: 1, maxBytes: 1 })).rejects.toThrow(
      TypeError,
    );
  });
});
