import iconv from 'iconv-lite';
import {
  decodeAll,
  decodeUtf8WithFallback,
  detectEncoding,
  toUtf8,
} from '../../../../lambdas/core/catalog/sources/encoding';

const chunked = async function* (bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
};

const collect = async (stream: AsyncIterable<Buffer>): Promise<string> => {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part);
  return Buffer.concat(parts).toString('utf8');
};

describe('detectEncoding', () => {
  test('a BOM decides: UTF-8, UTF-16LE, UTF-16BE', () => {
    expect(detectEncoding(Buffer.from('\ufeffname,price', 'utf8'), true)).toEqual({
      encoding: 'utf-8',
      bomLength: 3,
    });
    expect(detectEncoding(iconv.encode('name\tprice', 'utf-16le', { addBOM: true }), true)).toEqual({
      encoding: 'utf-16le',
      bomLength: 2,
    });
    expect(detectEncoding(iconv.encode('name\tprice', 'utf-16be', { addBOM: true }), true)).toEqual({
      encoding: 'utf-16be',
      bomLength: 2,
    });
  });

  test('UTF-16 without a BOM is recognised by its zero bytes; other NULs are binary', () => {
    expect(detectEncoding(iconv.encode('name\tprice\r\nTea\t2', 'utf-16le'), true)?.encoding).toBe(
      'utf-16le',
    );
    expect(detectEncoding(iconv.encode('name\tprice\r\nTea\t2', 'utf-16be'), true)?.encoding).toBe(
      'utf-16be',
    );
    expect(detectEncoding(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0, 0x14, 0, 0, 0]), true)).toBeNull();
  });

  test('valid UTF-8 is UTF-8 wherever a multi-byte character is cut by the end of the head', () => {
    for (const char of ['é', '€', '円', '🍣']) {
      const text = Buffer.from(`name,price\n${'x'.repeat(40)}${char.repeat(4)},1\n`, 'utf8');
      const start = text.indexOf(Buffer.from(char, 'utf8'));
      for (let end = start - 2; end <= start + 4 * Buffer.byteLength(char) + 2; end += 1) {
        expect([char, end, detectEncoding(text.subarray(0, end), false)?.encoding]).toEqual([
          char,
          end,
          'utf-8',
        ]);
      }
    }
  });

  test('Shift_JIS is Shift_JIS wherever a double-byte character is cut by the end of the head', () => {
    const head = `カテゴリ,商品名,価格\n${'x'.repeat(40)}`;
    const text = iconv.encode(`${head}緑茶のセット,300\n`, 'shift_jis');
    const start = iconv.encode(head, 'shift_jis').length;
    for (let end = start; end <= start + 8; end += 1) {
      expect([end, detectEncoding(text.subarray(0, end), false)?.encoding]).toEqual([end, 'shift_jis']);
    }
  });

  test('a cut character at the end of a complete source is not UTF-8', () => {
    const cut = Buffer.from('price,€', 'utf8').subarray(0, -1);
    expect(detectEncoding(cut, true)?.encoding).toBe('windows-1252');
    expect(detectEncoding(cut, false)?.encoding).toBe('utf-8');
  });

  test('bytes that are not UTF-8 are Windows-1252; control bytes are binary', () => {
    expect(detectEncoding(iconv.encode('Crème brûlée,5 €', 'windows-1252'), true)?.encoding).toBe(
      'windows-1252',
    );
    expect(detectEncoding(Buffer.from([0x41, 0x02, 0x03, 0x41]), true)).toBeNull();
  });
});

describe('toUtf8 / decodeAll', () => {
  test('Windows-1252 € Œ ’ decode to the right characters', async () => {
    const bytes = iconv.encode('name,price\n’Œuf’,3 €\n', 'windows-1252');
    expect([...bytes.subarray(11, 16)]).toEqual([0x92, 0x8c, 0x75, 0x66, 0x92]);
    expect(await decodeAll(chunked(bytes, 3), 'windows-1252')).toBe('name,price\n’Œuf’,3 €\n');
  });

  test('UTF-16LE and BE with BOM, split at odd offsets, decode without the BOM', async () => {
    const text = 'name\tprice\r\nラーメン\t¥800\r\n';
    for (const encoding of ['utf-16le', 'utf-16be'] as const) {
      const bytes = iconv.encode(text, encoding, { addBOM: true });
      for (const size of [1, 3, 7]) {
        expect(await decodeAll(chunked(bytes, size), encoding)).toBe(text);
      }
    }
  });

  test('UTF-8 passes through whatever the chunking, BOM removed', async () => {
    const text = 'name,price\n寿司 🍣,1300円\nCafé,€3\n';
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    for (const size of [1, 2, 3, 5, 64]) {
      const fallbacks: number[] = [];
      const decoded = await collect(
        toUtf8(chunked(bytes, size), 'utf-8', { onFallback: (o) => fallbacks.push(o) }),
      );
      expect(decoded).toBe(text);
      expect(fallbacks).toEqual([]);
    }
  });

  test('UTF-8 with stray Windows-1252 bytes: read as Windows-1252 and reported once', async () => {
    const bytes = Buffer.concat([
      Buffer.from('name,price\nCafé,3\n', 'utf8'),
      iconv.encode('Crème,4 €\n', 'windows-1252'),
    ]);
    const fallbacks: number[] = [];
    const decoded = await decodeAll(chunked(bytes, 4), 'utf-8', { onFallback: (o) => fallbacks.push(o) });
    expect(decoded).toBe('name,price\nCafé,3\nCrème,4 €\n');
    expect(fallbacks).toHaveLength(1);
  });

  test('decodeUtf8WithFallback keeps valid sequences and maps every other byte', () => {
    expect(decodeUtf8WithFallback(Buffer.from([0x41, 0xe2, 0x82, 0xac, 0x80, 0xc3]))).toBe('A€€Ã');
  });
});

describe('Mac Roman (Excel 2011 for Mac)', () => {
  // iconv-lite's Mac Roman table predates the euro (0xDB): write it by hand.
  const mac = (text: string) =>
    new Uint8Array(
      text
        .split('€')
        .map((part) => iconv.encode(part, 'macintosh'))
        .flatMap((part, i) => (i === 0 ? [part] : [Buffer.from([0xdb]), part]))
        .reduce((all: Buffer, part) => Buffer.concat([all, part]), Buffer.alloc(0)),
    );
  const cp1252 = (text: string) => new Uint8Array(iconv.encode(text, 'windows-1252'));

  test.each([
    'Name,Price\rCafé crème,3.50\rCrêpe,6\r',
    'Item;Prix\rCroissant;1,20 €\r',
    'Item,Price\rJalapeño Bagel,4\rPiña Colada,5.75\r',
    'Name,Price\rNaïve Über Küche,12\r',
  ])('accented letters inside words or € beside a price read as Mac Roman: %j', (text) => {
    const bytes = mac(text);
    expect(detectEncoding(bytes, true)).toEqual({ encoding: 'macintosh', bomLength: 0 });
    expect(new TextDecoder('macintosh').decode(bytes)).toBe(text);
  });

  test.each([
    'Name,Price\nCafé crème,3.50\nCrêpe,6\n',
    'Désignation;Prix\nŒuf mayonnaise;6,50 €\n',
    'Name,Price\nJalapeño Bagel,4\nPiña Colada,5.75\n',
    'Name;Preis\nKäsespätzle;12,50 €\nGrüße aus München;3\n',
    'Name,Price\nšunka,3\nžemlička,1\n',
  ])('the same text in Windows-1252 stays Windows-1252: %j', (text) => {
    expect(detectEncoding(cp1252(text), true)).toEqual({ encoding: 'windows-1252', bomLength: 0 });
  });

  test('0xDB is the euro sign, as Mac OS has written it since 8.5', async () => {
    const text = await decodeAll(
      (async function* () {
        yield Buffer.from([0x34, 0x2c, 0x35, 0x30, 0x20, 0xdb, 0x0d, 0x43, 0x61, 0x66, 0x8e]);
      })(),
      'macintosh',
    );
    expect(text).toBe('4,50 €\rCafé');
  });

  test('bytes that say nothing either way stay Windows-1252 (SPEC 5.2)', () => {
    expect(detectEncoding(Uint8Array.from([0x41, 0x2c, 0xa9, 0x0a]), true)?.encoding).toBe('windows-1252');
  });
});
