import { Readable } from 'node:stream';
import iconv from 'iconv-lite';
import { bufferChunks } from '../../../../lambdas/core/catalog/bytes';
import { type CsvRowsOptions, csvRows, detectDelimiter } from '../../../../lambdas/core/catalog/sources/csv';
import { MAX_SHEET_COLUMNS as MAX_CSV_COLUMNS } from '../../../../lambdas/core/catalog/sources/sheet-bounds';
import type { TableRow } from '../../../../lambdas/core/catalog/sources/types';
import { buildCsv } from '../../../fixtures/catalog/build';

const collect = async (batches: AsyncIterable<readonly TableRow[]>) => {
  const out: { row: number; cells: readonly unknown[] }[] = [];
  for await (const batch of batches) for (const r of batch) out.push({ row: r.row, cells: r.cells });
  return out;
};

/** Splits text into chunks of `size` bytes, so that fields and multi-byte characters straddle chunks. */
const chunked = (text: string | Buffer, size: number): Buffer[] => {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
};

const rows = (parts: (string | Buffer)[] | AsyncIterable<Buffer>, options: Partial<CsvRowsOptions> = {}) =>
  collect(
    csvRows(
      bufferChunks(
        Array.isArray(parts) ? parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)) : parts,
      ),
      {
        encoding: 'utf-8',
        ...options,
      },
    ),
  );

describe('detectDelimiter', () => {
  test.each([
    ['a,b,c\n1,2,3', ','],
    ['a;b;c\n1,5;2;3', ';'],
    ['a\tb\tc\n', '\t'],
    ['a|b|c\n', '|'],
    ['"x;y;z",b\n', ','],
    ['single\n', ','],
    ['\ufeffa;b\r\n', ';'],
    // A hints row above the header whose prose holds `|` and `;`: the records below decide.
    [
      '# Required | A unique id; at most 100 characters.,# Required | The name shown to buyers; plain text.,# Optional | Price and currency | e.g. 9.99 USD\nid,title,price\nA1,Blue mug,9.99 USD\nA2,Red mug,8.50 USD\n',
      ',',
    ],
    // Decimal commas in every line of a tab-separated file: the header's tabs decide the tie.
    ['name\tprice\nTea, green\t2,50\nCake, lemon\t3,10\n', '\t'],
    // A multi-line quoted cell counts as one record.
    ['name;note;price\nTea;"one\ntwo, three";2\nCake;x;3\n', ';'],
  ])('%j → %j', (text, delimiter) => {
    expect(detectDelimiter(text)).toBe(delimiter);
  });
});

describe('csvRows', () => {
  test('comma, quoted fields with delimiters, doubled quotes and newlines; header is row 1', async () => {
    let delimiter = '';
    expect(
      await rows(
        [
          'Category,Name,Price,Description\n',
          'Pizza,"Margherita, large","$12.50","Tomato, ""fior di latte""\nand basil"\n',
        ],
        { onDelimiter: (d) => (delimiter = d) },
      ),
    ).toEqual([
      { row: 1, cells: ['Category', 'Name', 'Price', 'Description'] },
      { row: 2, cells: ['Pizza', 'Margherita, large', '$12.50', 'Tomato, "fior di latte"\nand basil'] },
    ]);
    expect(delimiter).toBe(',');
  });

  test('semicolon, BOM, CRLF: blank lines are rows too (as a spreadsheet numbers them)', async () => {
    expect(await rows(['\ufeffcategory;name;price\r\nDrinks;Cola;2,50\r\n\r\nDrinks;Água;1,00\r\n'])).toEqual(
      [
        { row: 1, cells: ['category', 'name', 'price'] },
        { row: 2, cells: ['Drinks', 'Cola', '2,50'] },
        { row: 3, cells: [''] },
        { row: 4, cells: ['Drinks', 'Água', '1,00'] },
      ],
    );
  });

  test('any chunking (1-byte chunks, split UTF-8 and BOM) gives the same rows', async () => {
    const text = '\ufeffcategory,name,price\n"Café","Crème ""brûlée""\r\nduo",4.5\nBar,Ñandú,3\n';
    const whole = await rows([text]);
    for (const size of [1, 2, 3, 7]) expect(await rows(chunked(text, size))).toEqual(whole);
    expect(whole.map((r) => r.cells[1])).toEqual(['name', 'Crème "brûlée"\r\nduo', 'Ñandú']);
  });

  test('UTF-16LE (Excel "Unicode Text") and Windows-1252 decode before parsing', async () => {
    const utf16 = iconv.encode('Name\tPrice\r\n"Crème\r\nbrûlée"\t€4\r\n', 'utf-16le', { addBOM: true });
    expect(await rows(chunked(utf16, 3), { encoding: 'utf-16le' })).toEqual([
      { row: 1, cells: ['Name', 'Price'] },
      { row: 2, cells: ['Crème\r\nbrûlée', '€4'] },
    ]);
    const ansi = iconv.encode('Nom;Prix\r\nŒuf cocotte;6,50 €\r\n', 'windows-1252');
    expect((await rows([ansi], { encoding: 'windows-1252' }))[1]?.cells).toEqual(['Œuf cocotte', '6,50 €']);
  });

  test('a Node Readable works as a source', async () => {
    const out = await collect(
      csvRows(bufferChunks(Readable.from([Buffer.from('name,sku\nA,1\nB,2\n')])), { encoding: 'utf-8' }),
    );
    expect(out.map((r) => r.cells[0])).toEqual(['name', 'A', 'B']);
  });

  test('short and long rows are kept as they are; a stray quote in an unquoted field is text', async () => {
    expect(await rows(['a,b,c\n1\n1,2,3,4\nPizza,12" large\n'])).toEqual([
      { row: 1, cells: ['a', 'b', 'c'] },
      { row: 2, cells: ['1'] },
      { row: 3, cells: ['1', '2', '3', '4'] },
      { row: 4, cells: ['Pizza', '12" large'] },
    ]);
  });

  test('an unclosed quote at the end is reported as a problem, earlier rows kept', async () => {
    const problems: [number, string][] = [];
    const out = await rows(['name,price\nA,1\nB,"2\nC,3\n'], {
      onProblem: (row, message) => problems.push([row, message]),
    });
    expect(out.map((r) => r.cells[0])).toEqual(['name', 'A']);
    expect(problems).toEqual([[3, expect.stringContaining('never closed')]]);
  });

  test('an error of the source stream surfaces while reading rows', async () => {
    async function* failing() {
      yield Buffer.from(`name,price\n${'A,1\n'.repeat(20_000)}`); // past the 64 KiB the delimiter sniff reads
      throw new Error('connection reset');
    }
    await expect(rows(failing())).rejects.toThrow('connection reset');
    async function* failingEarly() {
      yield Buffer.from('name,price\nA,1\n');
      throw new Error('reset early');
    }
    await expect(rows(failingEarly())).rejects.toThrow('reset early');
  });

  test('stopping early stops reading the source', async () => {
    let pulled = 0;
    async function* endless() {
      yield Buffer.from('name,price\n');
      for (;;) {
        pulled += 1;
        yield Buffer.from('x,1\n'.repeat(1000));
      }
    }
    let seen = 0;
    for await (const batch of csvRows(endless(), { encoding: 'utf-8' })) {
      seen += batch.length;
      if (seen >= 10) break;
    }
    expect(seen).toBeGreaterThanOrEqual(10);
    expect(pulled).toBeLessThan(100);
  });
});

describe('a line wider than a sheet', () => {
  test('more than 16,384 columns fails the source before the parser holds the line; commas inside quotes do not count', async () => {
    const wide = await buildCsv(`name,price${','.repeat(MAX_CSV_COLUMNS)}\nSoup,5\n`);
    expect(wide.document.items).toEqual([]);
    expect(wide.failures).toEqual([
      expect.objectContaining({
        code: 'source_too_large',
        message: expect.stringMatching(/more than 16,384 columns/),
      }),
    ]);
    const quoted = await buildCsv(
      `name,price,description\nSoup,5,"${','.repeat(MAX_CSV_COLUMNS * 2)}"\nBread,2,"a\n${','.repeat(100)}"\n`,
    );
    expect(quoted.document.items.map((i) => i.name)).toEqual(['Soup', 'Bread']);
  });
});
