import { Readable } from 'node:stream';
import { type CsvRowProblem, detectDelimiter, readCsv } from '../../../lambdas/core/catalog/csv';
import { CatalogSourceError } from '../../../lambdas/core/catalog/errors';
import type { SourceRow } from '../../../lambdas/core/catalog/rows';

const collect = async (rows: AsyncIterable<SourceRow>) => {
  const out: { row: number; values: Record<string, unknown> }[] = [];
  for await (const r of rows) out.push({ row: r.row, values: Object.fromEntries(r.values) });
  return out;
};

/** Splits text into chunks of `size` bytes, so that fields and multi-byte characters straddle chunks. */
const chunked = (text: string | Buffer, size: number): Buffer[] => {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
};

describe('detectDelimiter', () => {
  test.each([
    ['a,b,c\n1,2,3', ','],
    ['a;b;c\n1,5;2;3', ';'],
    ['a\tb\tc\n', '\t'],
    ['"x;y;z",b\n', ','],
    ['single\n', ','],
    ['\ufeffa;b\r\n', ';'],
  ])('%j → %j', (text, delimiter) => {
    expect(detectDelimiter(text)).toBe(delimiter);
  });
});

describe('readCsv', () => {
  test('comma, quoted fields with delimiters, doubled quotes and newlines', async () => {
    const table = await readCsv([
      Buffer.from('Category,Name,Price,Description\n'),
      Buffer.from('Pizza,"Margherita, large","$12.50","Tomato, ""fior di latte""\nand basil"\n'),
    ]);
    expect(table.delimiter).toBe(',');
    expect(table.columns).toEqual(['category', 'name', 'price', 'description']);
    expect(await collect(table.rows)).toEqual([
      {
        row: 2,
        values: {
          category: 'Pizza',
          name: 'Margherita, large',
          price: '$12.50',
          description: 'Tomato, "fior di latte"\nand basil',
        },
      },
    ]);
  });

  test('semicolon, BOM, CRLF, blank lines and a decimal comma', async () => {
    const table = await readCsv([
      Buffer.from('\ufeffcategory;name;price\r\nDrinks;Cola;2,50\r\n\r\nDrinks;Água;1,00\r\n'),
    ]);
    expect(table.delimiter).toBe(';');
    expect(table.columns).toEqual(['category', 'name', 'price']);
    expect(await collect(table.rows)).toEqual([
      { row: 2, values: { category: 'Drinks', name: 'Cola', price: '2,50' } },
      { row: 3, values: { category: 'Drinks', name: 'Água', price: '1,00' } },
    ]);
  });

  test('tab-separated, header case and spacing normalised', async () => {
    const table = await readCsv(['NAME\tSKU\tModifier Group\n', 'Tea\tT-1\tSize\n']);
    expect(table.delimiter).toBe('\t');
    expect(table.columns).toEqual(['name', 'sku', 'modifier_group']);
    expect(await collect(table.rows)).toEqual([
      { row: 2, values: { name: 'Tea', sku: 'T-1', modifier_group: 'Size' } },
    ]);
  });

  test('any chunking (1-byte chunks, split UTF-8 and BOM) gives the same rows', async () => {
    const text = '\ufeffcategory,name,price\n"Café","Crème ""brûlée""\r\nduo",4.5\nBar,Ñandú,3\n';
    const whole = await collect((await readCsv([Buffer.from(text)])).rows);
    for (const size of [1, 2, 3, 7]) {
      expect(await collect((await readCsv(chunked(text, size))).rows)).toEqual(whole);
    }
    expect(whole.map((r) => r.values.name)).toEqual(['Crème "brûlée"\r\nduo', 'Ñandú']);
  });

  test('a Node Readable works as a source', async () => {
    const table = await readCsv(Readable.from([Buffer.from('name,sku\nA,1\nB,2\n')]));
    expect((await collect(table.rows)).map((r) => r.values.name)).toEqual(['A', 'B']);
  });

  test('short and long rows: missing cells are absent, extra cells ignored', async () => {
    const table = await readCsv(['a,b,c\n1\n1,2,3,4\n']);
    expect(await collect(table.rows)).toEqual([
      { row: 2, values: { a: '1' } },
      { row: 3, values: { a: '1', b: '2', c: '3' } },
    ]);
  });

  test('a stray quote in an unquoted field is text (12" pizza)', async () => {
    const table = await readCsv(['name,size\nPizza,12" large\n']);
    expect(await collect(table.rows)).toEqual([{ row: 2, values: { name: 'Pizza', size: '12" large' } }]);
  });

  test('duplicate header: the first column wins; blank header ignored', async () => {
    const table = await readCsv(['name,,Name\nfirst,x,second\n']);
    expect(await collect(table.rows)).toEqual([{ row: 2, values: { name: 'first' } }]);
  });

  test('an unclosed quote at the end is reported as a problem, earlier rows kept', async () => {
    const problems: CsvRowProblem[] = [];
    const table = await readCsv(['name,price\nA,1\nB,"2\nC,3\n'], { onProblem: (p) => problems.push(p) });
    expect((await collect(table.rows)).map((r) => r.values.name)).toEqual(['A']);
    expect(problems).toEqual([{ row: 3, message: expect.stringContaining('never closed') }]);
  });

  test('an empty source has no header: clear error', async () => {
    await expect(readCsv([])).rejects.toThrow(CatalogSourceError);
    await expect(readCsv(['\n\n'])).rejects.toThrow('a header row is required');
  });

  test('an error of the source stream surfaces while reading rows', async () => {
    async function* failing() {
      yield Buffer.from(`name,price\n${'A,1\n'.repeat(20_000)}`); // past the 64 KiB the header sniff reads
      throw new Error('connection reset');
    }
    // Whether it surfaces from readCsv or from the rows depends on how far the parser had read ahead.
    await expect((async () => collect((await readCsv(failing())).rows))()).rejects.toThrow(
      'connection reset',
    );
    async function* failingEarly() {
      yield Buffer.from('name,price\nA,1\n');
      throw new Error('reset early');
    }
    await expect(readCsv(failingEarly())).rejects.toThrow('reset early');
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
    const table = await readCsv(endless());
    let seen = 0;
    for await (const _row of table.rows) {
      seen += 1;
      if (seen === 10) break;
    }
    expect(seen).toBe(10);
    expect(pulled).toBeLessThan(100);
  });
});

describe('readCsv close', () => {
  test('close() stops the source without reading the rows', async () => {
    let finished = false;
    async function* source() {
      try {
        yield Buffer.from('name,price\n');
        for (;;) yield Buffer.from('x,1\n'.repeat(5000));
      } finally {
        finished = true;
      }
    }
    const table = await readCsv(source());
    await table.close();
    // The pipeline tears the source down on the next turns of the event loop: poll with a deadline.
    const deadline = Date.now() + 2000;
    while (!finished && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    expect(finished).toBe(true);
  });
});
