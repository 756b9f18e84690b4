import { constants, deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { checkZipExpansion } from '../../../../lambdas/core/catalog/sources/zip';
import { buildFrom } from '../../../fixtures/catalog/build';
import { aCatalogJob } from '../../../fixtures/catalog/jobs';

/**
 * Issue 25, finding 4: what a ZIP workbook may cost is bounded by what its entries really inflate to, not by
 * what the archive says. The archives here are written byte by byte after APPNOTE.TXT (local headers, central
 * directory, end record), so that they can lie as a hostile one does.
 */

interface RawEntry {
  readonly name: string;
  /** Deflated bytes (method 8) or stored ones (method 0). */
  readonly data: Buffer;
  readonly method?: 0 | 8;
  /** What the central directory says the entry inflates to. */
  readonly declaredSize: number;
  /** Point this entry's central record at another entry's local header (by index), as overlapping bombs do. */
  readonly sharesWith?: number;
}

const zipOf = (entries: readonly RawEntry[]): Buffer => {
  const locals: Buffer[] = [];
  const offsets: number[] = [];
  let at = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(entry.method ?? 8, 8);
    header.writeUInt32LE(entry.data.length, 18);
    header.writeUInt32LE(entry.declaredSize, 22);
    header.writeUInt16LE(name.length, 26);
    offsets.push(at);
    locals.push(header, name, entry.data);
    at += header.length + name.length + entry.data.length;
  }
  const central: Buffer[] = [];
  let centralSize = 0;
  entries.forEach((entry, i) => {
    const name = Buffer.from(entry.name);
    const record = Buffer.alloc(46);
    const target = entry.sharesWith ?? i;
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(entries[target]!.method ?? 8, 10);
    record.writeUInt32LE(entries[target]!.data.length, 20);
    record.writeUInt32LE(entry.declaredSize, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(offsets[target]!, 42);
    central.push(record, name);
    centralSize += record.length + name.length;
  });
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(at, 16);
  return Buffer.concat([...locals, ...central, end]);
};

const deflated = (text: string) => deflateRawSync(Buffer.from(text));

/**
 * A deflate stream of `mb` MB of zeros made of one 1 MB block repeated (each ends on a byte boundary, with no
 * reference behind it): a few KB per inflated MB, without ever holding the inflated bytes.
 */
const zeros = (mb: number): Buffer => {
  const block = deflateRawSync(Buffer.alloc(1024 * 1024), { finishFlush: constants.Z_FULL_FLUSH });
  return Buffer.concat([...Array.from({ length: mb }, () => block), deflateRawSync(Buffer.alloc(0))]);
};

const small = { maxEntryBytes: 1000, maxTotalBytes: 1500 };

describe('checkZipExpansion', () => {
  test('an honest archive passes, every entry inflated and counted', async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Menu').addRows([
      ['Item', 'Price'],
      ['Soup', 5],
    ]);
    const xlsx = Buffer.from(await book.xlsx.writeBuffer());
    expect(() => checkZipExpansion(xlsx)).not.toThrow();
    const text = 'x'.repeat(900);
    const stored = zipOf([
      { name: 'a.xml', data: deflated(text), declaredSize: 900 },
      { name: 'b.txt', data: Buffer.from('plain'), method: 0, declaredSize: 5 },
    ]);
    expect(() => checkZipExpansion(stored, small)).not.toThrow();
  });

  test('an entry that declares a few bytes and inflates to gigabytes is refused once it passes the limit', () => {
    // 2 GB of zeros in 2 MB, declared as 100 bytes: refused by what it really inflates to. Inflating stops at
    // the limit (here 20 MB, a tenth of the real one to keep the test quick): it never inflates the whole.
    const bomb = zipOf([
      { name: 'xl/workbook.xml', data: deflated('<workbook/>'), declaredSize: 11 },
      { name: 'xl/worksheets/sheet1.xml', data: zeros(2048), declaredSize: 100 },
    ]);
    expect(bomb.length).toBeLessThan(4 * 1024 * 1024);
    const limits = { maxEntryBytes: 20 * 1024 * 1024, maxTotalBytes: 30 * 1024 * 1024 };
    expect(() => checkZipExpansion(bomb, limits)).toThrow(
      expect.objectContaining({
        code: 'source_too_large',
        message: expect.stringMatching(
          /^the workbook expands to more than 20 MB in its part "xl\/worksheets\/sheet1.xml" when unzipped/,
        ),
      }),
    );
  });

  test('entries each under the limit for one part are refused together past the limit for all', () => {
    // Both declare what fits; the second inflates to more than it says, past what is left of the total.
    const parts = zipOf([
      { name: 'a', data: deflated('y'.repeat(900)), declaredSize: 900 },
      { name: 'b', data: deflated('y'.repeat(900)), declaredSize: 9 },
    ]);
    expect(() => checkZipExpansion(parts, small)).toThrow(
      expect.objectContaining({
        code: 'source_too_large',
        message: expect.stringMatching(/more than 0 MB when/),
      }),
    );
  });

  test('an entry that inflates to another size than the archive declares is malformed', () => {
    const lying = zipOf([{ name: 'content.xml', data: deflated('z'.repeat(500)), declaredSize: 50 }]);
    expect(() => checkZipExpansion(lying, small)).toThrow(
      expect.objectContaining({
        code: 'source_unreadable',
        message:
          'the workbook\'s archive is malformed: its part "content.xml" inflates to 500 bytes where the archive says 50; save the workbook again',
      }),
    );
  });

  test('entries that share their bytes are refused before any is inflated', () => {
    // Each central record points at the same local entry: readers would inflate it once per name.
    const overlapping = zipOf([
      { name: 'xl/worksheets/sheet1.xml', data: zeros(1), declaredSize: 1024 * 1024 },
      ...Array.from({ length: 50 }, (_, i) => ({
        name: `xl/worksheets/sheet${i + 2}.xml`,
        data: Buffer.alloc(0),
        declaredSize: 1024 * 1024,
        sharesWith: 0,
      })),
    ]);
    expect(() => checkZipExpansion(overlapping, { maxEntryBytes: 2 ** 30, maxTotalBytes: 2 ** 30 })).toThrow(
      expect.objectContaining({
        code: 'source_unreadable',
        message: expect.stringMatching(
          /^the workbook's archive is malformed: its parts .* share their bytes/,
        ),
      }),
    );
  });

  test('an archive it cannot read passes, for the reader to say what is wrong', () => {
    expect(() => checkZipExpansion(Buffer.from('PK\u0003\u0004 not really'), small)).not.toThrow();
  });
});

describe('through the workbook readers', () => {
  const retail = aCatalogJob({ job_type: 'new_retail_catalog' });

  test('an XLSX whose entries overlap fails its source, saying why; a good source beside it is read', async () => {
    const overlapping = zipOf([
      { name: '[Content_Types].xml', data: deflated('<Types/>'), declaredSize: 8 },
      { name: 'xl/worksheets/sheet1.xml', data: zeros(4), declaredSize: 4 * 1024 * 1024 },
      {
        name: 'xl/worksheets/sheet2.xml',
        data: Buffer.alloc(0),
        declaredSize: 4 * 1024 * 1024,
        sharesWith: 1,
      },
    ]);
    const built = await buildFrom(
      [
        { source: 'bomb.xlsx', body: overlapping },
        { source: 'good.csv', body: 'name,price\nHammer,18.99\n' },
      ],
      retail,
    );
    expect(built.failures).toEqual([
      expect.objectContaining({
        source: 'bomb.xlsx',
        code: 'source_unreadable',
        message: expect.stringMatching(/share their bytes/),
      }),
    ]);
    expect(built.document.items.map((item) => item.name)).toEqual(['Hammer']);
  });
});
