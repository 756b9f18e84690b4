import { kindOf } from '../../../console/src/sources/source-kind';

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
