import { detectFormat, isMachineReadable, sniffImageFormat } from '../../../lambdas/core/catalog/detect';
import { gifBytes, jpegBytes, pngBytes, webpBytes } from '../../fixtures/catalog/images';

const text = (s: string) => Buffer.from(s, 'utf8');

describe('detectFormat', () => {
  test.each([
    [{ head: text('%PDF-1.7\n...'), contentType: 'text/csv', name: 'menu.csv' }, 'pdf'],
    [{ head: pngBytes(1, 1), contentType: 'application/octet-stream' }, 'image'],
    [{ head: jpegBytes(1, 1), name: 'menu.csv' }, 'image'],
    [{ head: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0]), name: 'menu.xlsx' }, 'xlsx'],
    [{ head: text('name,price\nA,1\n'), contentType: 'text/csv; charset=utf-8' }, 'csv'],
    [{ head: text('[{"name":"A"}]'), contentType: 'application/json' }, 'json'],
    [
      { head: text('name;price\n'), contentType: 'text/plain', name: 'https://x.test/menu.csv?token=1' },
      'csv',
    ],
    [{ head: text('{"format_version":1}'), contentType: 'application/octet-stream', name: 'a' }, 'json'],
    [{ head: text('\ufeff  [1]'), name: null }, 'json'],
    [{ head: text('name\tprice\n'), name: 'export.tsv' }, 'csv'],
    [{ head: text('hello world'), name: 'notes.txt' }, 'unknown'],
    [{ head: Buffer.from([0, 1, 2, 3, 0xff]), contentType: 'text/csv' }, 'unknown'],
    [{ head: text('<html>'), contentType: 'text/html' }, 'unknown'],
    [{ head: text(''), contentType: 'application/pdf' }, 'pdf'],
    [{ head: text('PK but not zip'), name: 'a.xlsx' }, 'unknown'],
  ])('%#: → %s', (input, format) => {
    expect(detectFormat(input)).toBe(format);
  });

  test('CSV and JSON are machine-readable; PDF, images, XLSX and unknown need a person', () => {
    expect(['csv', 'json'].every((f) => isMachineReadable(f as 'csv'))).toBe(true);
    expect(['pdf', 'image', 'xlsx', 'unknown'].some((f) => isMachineReadable(f as 'pdf'))).toBe(false);
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
