import iconv from 'iconv-lite';
import { detectSource } from '../../../../lambdas/core/catalog/sources/detect';
import { SOURCE_READERS, unknownReader } from '../../../../lambdas/core/catalog/sources/registry';
import { sniffImageFormat } from '../../../../lambdas/core/catalog/sources/signatures';
import type { SourceProbe } from '../../../../lambdas/core/catalog/sources/types';
import { gifBytes, jpegBytes, pngBytes, webpBytes } from '../../../fixtures/catalog/images';

const text = (s: string) => Buffer.from(s, 'utf8');
const detect = (probe: Partial<SourceProbe> & { head: Uint8Array }, complete = true) => {
  const { reader, encoding } = detectSource(
    { contentType: null, name: null, ...probe },
    SOURCE_READERS,
    unknownReader,
    complete,
  );
  return [reader.format, encoding];
};

describe('detectSource', () => {
  test.each([
    [{ head: text('%PDF-1.7\n...'), contentType: 'text/csv', name: 'menu.csv' }, ['pdf', null]],
    [{ head: pngBytes(1, 1), contentType: 'application/octet-stream' }, ['image', null]],
    [{ head: jpegBytes(1, 1), name: 'menu.csv' }, ['image', null]],
    [{ head: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0]), name: 'menu.xlsx' }, ['xlsx', null]],
    [
      { head: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0]), contentType: 'application/octet-stream' },
      ['xlsx', null],
    ],
    [
      { head: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), name: 'menu.xls' },
      ['xls', null],
    ],
    // A `.xls` name on text is the text's format: only the OLE2 signature is a legacy workbook.
    [{ head: text('Item\tPrice\nSoup\t5\n'), name: 'export.xls' }, ['csv', 'utf-8']],
    [
      {
        head: Buffer.concat([
          Buffer.from([0x50, 0x4b, 0x03, 0x04]),
          Buffer.alloc(26),
          text('mimetypeapplication/vnd.oasis.opendocument.spreadsheet'),
        ]),
        name: 'menu.xlsx',
      },
      ['ods', null],
    ],
    [{ head: text('name,price\nA,1\n'), contentType: 'text/csv; charset=utf-8' }, ['csv', 'utf-8']],
    [{ head: text('[{"name":"A"}]'), contentType: 'application/json' }, ['json', 'utf-8']],
    [
      { head: text('name;price\n'), contentType: 'text/plain', name: 'https://x.test/menu.csv?token=1' },
      ['csv', 'utf-8'],
    ],
    [
      { head: text('{"format_version":1}'), contentType: 'application/octet-stream', name: 'a' },
      ['json', 'utf-8'],
    ],
    [{ head: text('\ufeff  [1]') }, ['json', 'utf-8']],
    [{ head: text('name\tprice\n'), name: 'export.tsv' }, ['csv', 'utf-8']],
    [
      { head: text('name,price\n'), contentType: 'application/vnd.ms-excel', name: 'menu.csv' },
      ['csv', 'utf-8'],
    ],
    [{ head: text('hello world') }, ['unknown', null]],
    [{ head: Buffer.from([0, 1, 2, 3, 0xff]), contentType: 'text/csv' }, ['unknown', null]],
    [{ head: text('<!doctype html><html>') }, ['html', 'utf-8']],
    [{ head: text('<html>'), contentType: 'text/html' }, ['html', 'utf-8']],
    [{ head: text(''), contentType: 'application/pdf' }, ['pdf', null]],
    [
      { head: iconv.encode('Name\tPrice\r\n', 'utf-16le', { addBOM: true }), name: 'menu.txt' },
      ['csv', 'utf-16le'],
    ],
    [{ head: iconv.encode('Name,Price\r\n', 'utf-16be', { addBOM: true }) }, ['csv', 'utf-16be']],
    [{ head: iconv.encode('Nom;Prix\r\nCrème;6,50 €\r\n', 'windows-1252') }, ['csv', 'windows-1252']],
    // XML: by its declaration or root, and over a label whose own look the text does not have.
    [{ head: text('<?xml version="1.0"?><rss version="2.0">') }, ['xml', 'utf-8']],
    [{ head: text('<feed xmlns="http://www.w3.org/2005/Atom">'), name: 'feed.txt' }, ['xml', 'utf-8']],
    [
      {
        head: text('<?xml version="1.0"?>\n<Workbook>'),
        contentType: 'application/vnd.ms-excel',
        name: 'a.xls',
      },
      ['xml', 'utf-8'],
    ],
    [{ head: text('<Export><Artikel>'), name: 'export.xml' }, ['xml', 'utf-8']],
    [{ head: text('<products>\n<product>a,b</product>'), contentType: 'text/xml' }, ['xml', 'utf-8']],
    [{ head: text('<?xml version="1.0"?>\n<!DOCTYPE html>\n<html>') }, ['html', 'utf-8']],
    [{ head: text('<!doctype html><p>Not found</p>'), contentType: 'application/json' }, ['html', 'utf-8']],
    // A loose look (a comma in the first line) never overrules a label.
    [{ head: text('[{"name":"A","price":1}]'), name: 'menu.csv' }, ['csv', 'utf-8']],
    [{ head: text('<div>menu, drinks</div>'), contentType: 'text/html' }, ['html', 'utf-8']],
  ])('%#: → %j', (input, expected) => {
    expect(detect(input)).toEqual(expected);
  });

  test('UTF-8 text whose head ends inside a character is still UTF-8 CSV (never binary)', () => {
    const body = text(`name,price\n${'寿司,1300円\n'.repeat(5000)}`);
    for (let end = 65_530; end <= 65_540; end += 1) {
      expect(detect({ head: body.subarray(0, end), name: 'menu' }, false)).toEqual(['csv', 'utf-8']);
    }
  });
});

describe('sniffImageFormat', () => {
  test('the four accepted formats by magic bytes', () => {
    expect(sniffImageFormat(jpegBytes(1, 1))).toBe('jpeg');
    expect(sniffImageFormat(pngBytes(1, 1))).toBe('png');
    expect(sniffImageFormat(gifBytes(1, 1))).toBe('gif');
    expect(sniffImageFormat(webpBytes(1, 1))).toBe('webp');
  });

  test.each([
    ['<svg xmlns="http://www.w3.org/2000/svg"/>'],
    ['<!doctype html>'],
    ['BM....'],
    ['RIFF....WAVE'],
    [''],
  ])('%j is not one', (s) => {
    expect(sniffImageFormat(Buffer.from(s))).toBeNull();
  });
});
