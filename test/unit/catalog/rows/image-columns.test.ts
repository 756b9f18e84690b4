import { genericLookup, mapColumns } from '../../../../lambdas/core/catalog/headers/columns';
import { genericPlan, imageGroups } from '../../../../lambdas/core/catalog/headers/generic-plan';
import { buildCsv } from '../../../fixtures/catalog/build';
import { aCatalogJob } from '../../../fixtures/catalog/jobs';
import { csvOf, itemNamed } from '../profiles/helpers';

const imageColumns = (headers: string[]) =>
  (mapColumns(headers, genericLookup).fields.get('image_url') ?? []).map((i) => headers[i]).sort();

const build = (rows: string[][], job_type: 'new_retail_catalog' | 'new_menu' = 'new_retail_catalog') =>
  buildCsv(csvOf(rows), aCatalogJob({ job_type, job_data: { language: 'en_us' } }));

const urls = (item: { images: readonly { url: string }[] } | undefined) => item?.images.map((i) => i.url);

describe('image columns of the generic reading', () => {
  test.each([
    [['Image 1', 'Image 2', 'Image 3']],
    [['Image URL 1', 'Image URL 2', 'image_url_3']],
    [['Photo 1', 'Photo 2', 'Photo3']],
    [['image_link', 'additional_image_link']],
    [['Main image', 'Additional images']],
    [['Picture 1 URL', 'Picture 2 URL', 'More photos']],
  ])('%j are all image columns', (headers) => {
    expect(imageColumns(['Name', 'Price', ...headers])).toEqual([...headers].sort());
  });

  test.each([['Image alt text'], ['Image position'], ['Photographer'], ['Picture frame size'], ['Option 1']])(
    '%j is no image column',
    (header) => {
      expect(imageColumns(['Name', 'Price', header])).toEqual([]);
    },
  );

  test('groups: every image column its own, in column order; a thumbnail only where the first is empty', () => {
    const headers = ['Name', 'Thumbnail', 'Image 2', 'Price', 'Image 1'];
    expect(imageGroups(headers, [4, 2, 1])).toEqual([[2, 1], [4]]);
    expect(imageGroups(headers, [1])).toEqual([[1]]);
    expect(genericPlan(['Name', 'Image 1', 'Image 2'], { sizeColumns: false }).imageGroups).toEqual([
      [1],
      [2],
    ]);
  });

  test('every image column is read, in column order, each URL once, cells of several URLs split', async () => {
    const { document, results } = await build([
      ['Name', 'Price', 'Image 1', 'Image 2', 'Image 3', 'Thumbnail'],
      ['Mug', '12', 'https://a.test/mug-1.jpg', 'https://a.test/mug-2.jpg', '', 'https://a.test/mug-t.jpg'],
      ['Cap', '20', '', 'https://a.test/cap-2.jpg|https://a.test/cap-3.jpg', 'https://a.test/cap-2.jpg', ''],
      ['Tote', '15', '', '', '', 'https://a.test/tote-t.jpg'],
      ['Pin', '3', 'not a url', 'https://a.test/pin.jpg', '', ''],
    ]);
    expect(urls(itemNamed(document, 'Mug'))).toEqual([
      'https://a.test/mug-1.jpg',
      'https://a.test/mug-2.jpg',
    ]);
    expect(urls(itemNamed(document, 'Cap'))).toEqual([
      'https://a.test/cap-2.jpg',
      'https://a.test/cap-3.jpg',
    ]);
    expect(urls(itemNamed(document, 'Tote'))).toEqual(['https://a.test/tote-t.jpg']);
    expect(urls(itemNamed(document, 'Pin'))).toEqual(['https://a.test/pin.jpg']);
    expect(results.warnings).toEqual([
      expect.objectContaining({ row: 5, column: 'Image 1', code: 'invalid_url' }),
    ]);
    expect(results.sources?.[0]?.ignored_columns).toEqual([]);
  });

  test("Google's image_link and additional_image_link (comma-separated), main and additional images", async () => {
    const { document, results } = await build([
      ['title', 'price', 'image_link', 'additional_image_link'],
      ['Lamp', '30', 'https://a.test/l.jpg', 'https://a.test/l2.jpg,https://a.test/l3.jpg'],
    ]);
    expect(results.sources?.[0]?.profile).toBe('generic');
    expect(urls(itemNamed(document, 'Lamp'))).toEqual([
      'https://a.test/l.jpg',
      'https://a.test/l2.jpg',
      'https://a.test/l3.jpg',
    ]);
    const menu = await build(
      [
        ['Dish', 'Price', 'Main image', 'Additional images'],
        ['Pho', '14', 'https://a.test/pho.jpg', 'https://a.test/pho-2.jpg\nhttps://a.test/pho-3.jpg'],
      ],
      'new_menu',
    );
    expect(urls(itemNamed(menu.document, 'Pho'))).toEqual([
      'https://a.test/pho.jpg',
      'https://a.test/pho-2.jpg',
      'https://a.test/pho-3.jpg',
    ]);
  });

  test('other fields keep the fallback: a second name column is read only where the first is empty', async () => {
    const { document } = await build([
      ['Name', 'Title', 'Price'],
      ['Mug', 'Big mug', '12'],
      ['', 'Cap', '20'],
    ]);
    expect(document.items.map((i) => i.name).sort()).toEqual(['Cap', 'Mug']);
  });
});
