import { buildFrom } from '../../../fixtures/catalog/build';
import { aCatalogJob } from '../../../fixtures/catalog/jobs';

const retail = aCatalogJob({ job_type: 'new_retail_catalog' });

describe('JSON Lines sources', () => {
  test('one row object per line, by name or content type, CRLF and blank lines allowed', async () => {
    const body =
      '{"title":"Tee","sku":"T-1","price":{"amount":2400,"currency":"USD"},"barcode":"036000291452"}\r\n\r\n' +
      '{"title":"Cap","sku":"C-1","price":"19.00"}\r\n';
    for (const source of [
      { source: 'products.jsonl', body },
      { source: 'export', body, contentType: 'application/x-ndjson' },
    ]) {
      const built = await buildFrom([source], retail);
      expect(
        built.document.items.map((i) => [i.name, i.variants[0]?.sku, i.variants[0]?.price?.amount]),
      ).toEqual([
        ['Tee', 'T-1', 2400],
        ['Cap', 'C-1', 1900],
      ]);
      expect(built.results.sources?.[0]).toMatchObject({ format: 'json', rows: 2, items: 2 });
    }
  });

  test('a line that is not JSON fails the source with its number; nothing is read in part', async () => {
    const body = '{"name":"Tee","price":24}\n{"name":"Cap","price":19}\n{"name":"Sock",\n';
    const built = await buildFrom([{ source: 'products.jsonl', body }], retail);
    expect(built.document.items).toEqual([]);
    expect(built.failures).toEqual([
      expect.objectContaining({
        code: 'source_unreadable',
        message: expect.stringMatching(/^line 3 of the JSON Lines source is not valid JSON/),
      }),
    ]);
  });

  test('text that is neither JSON nor JSON Lines is still "not valid JSON"', async () => {
    const built = await buildFrom(
      [{ source: 'a.json', body: '{"name": "Tee", oops}\n{"name":"Cap"}\n' }],
      retail,
    );
    expect(built.failures[0]?.message).toMatch(/^the source is not valid JSON/);
  });
});
