import { decodeText, kindOf } from '../../../console/src/sources/source-kind';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('kindOf: how the console shows a source', () => {
  test.each([
    ['application/pdf', 'menu', '%PDF-1.7', null, 'pdf'],
    ['text/html', 'https://x.test/', '<html>', 'html', 'html'],
    ['text/csv', 'menu.csv', 'a,b', 'csv', 'table'],
    ['application/json', 'menu.json', '[]', 'json', 'text'],
    ['application/rss+xml', 'feed', '<rss>', null, 'text'],
    ['application/octet-stream', 'feed.xml', '<?xml', null, 'text'],
    ['application/vnd.ms-excel', 'items.xls', '<?xml', 'xml', 'text'],
    ['application/octet-stream', 'photo', '\xff\xd8\xff', null, 'image'],
    ['application/zip', 'x.zip', 'PK', null, 'other'],
  ])('%s %s (%s, read as %s) → %s', (type, name, head, format, kind) => {
    const body = head.startsWith('\xff') ? Uint8Array.of(0xff, 0xd8, 0xff) : bytes(head);
    expect(kindOf(type, name, body, format)).toBe(kind);
  });
});

describe('source text in the encoding the service read it', () => {
  // メニュー in Shift_JIS; "Crème brûlée" in Mac Roman (è 0x8F, û 0x9E, é 0x8E), as old Excel for Mac saves it.
  const shiftJis = Uint8Array.from([0x83, 0x81, 0x83, 0x6a, 0x83, 0x85, 0x81, 0x5b]);
  const macRoman = Uint8Array.from([
    ...Buffer.from('Cr'),
    0x8f,
    ...Buffer.from('me br'),
    0x9e,
    ...Buffer.from('l'),
    0x8e,
    0x65,
  ]);

  it.each([
    ['shift_jis', shiftJis, 'メニュー'],
    ['macintosh', macRoman, 'Crème brûlée'],
    ['utf-16le', Uint8Array.from([0xff, 0xfe, 0x41, 0x00, 0xe9, 0x00]), 'Aé'],
    ['windows-1252', Uint8Array.from([0x80, 0x20, 0x35]), '€ 5'],
  ])('decodes %s as results.sources[n].encoding names it', (encoding, bytes, text) => {
    expect(decodeText(bytes, encoding)).toBe(text);
  });

  it('falls back to a BOM, strict UTF-8, then Windows-1252 when the service named none', () => {
    expect(decodeText(Uint8Array.from([0xef, 0xbb, 0xbf, ...Buffer.from('caf\u00e9')]))).toBe('café');
    expect(decodeText(macRoman)).not.toBe('Crème brûlée');
    expect(decodeText(Uint8Array.from([0x63, 0x61, 0x66, 0xe9]))).toBe('café');
  });
});
