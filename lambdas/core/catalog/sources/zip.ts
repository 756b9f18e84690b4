import { Inflate } from 'fflate';
import { CatalogSourceError } from '../errors';

/**
 * Workbooks are ZIP archives read whole (XLSX, ODS, Numbers): what reading one costs is bounded before any
 * reader sees it. An archive that expands to gigabytes (a "zip bomb", or a sheet no reader could hold as one
 * string) is refused, by the sizes its central directory declares and then by what its entries really
 * inflate to, counted as they stream (an archive may declare small sizes and inflate to far more). Entries
 * that share their bytes are refused too: a 1 MB archive of overlapping entries made readers inflate the
 * same data again and again, for minutes of CPU per attempt.
 */
export const ZIP_LIMITS = {
  /** One entry: a sheet's XML is read whole, at ~8x its size in memory (bench/parse-csv.ts xlsx). */
  maxEntryBytes: 200 * 1024 * 1024,
  /** Every entry together. */
  maxTotalBytes: 300 * 1024 * 1024,
} as const;

const mb = (bytes: number): number => Math.round(bytes / 1024 / 1024);

interface Entry {
  readonly name: string;
  readonly method: number;
  readonly compressedSize: number;
  readonly declaredSize: number;
  /** Where the entry's local header starts, and where its data starts and ends. */
  readonly headerStart: number;
  readonly dataStart: number;
  readonly dataEnd: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
/** Compressed bytes handed to the inflater at a time: memory stays flat whatever the entry. */
const CHUNK = 64 * 1024;

/** The archive's entries by its central directory (ZIP64 included), or undefined when it cannot be read. */
const centralDirectory = (bytes: Uint8Array): Entry[] | undefined => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  const u64 = (at: number) => Number(view.getBigUint64(at, true));
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (u32(at) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) return undefined;
  let count = u16(eocd + 10);
  let offset = u32(eocd + 16);
  if ((count === 0xffff || offset === 0xffffffff) && eocd >= 20 && u32(eocd - 20) === ZIP64_LOCATOR) {
    const record = u64(eocd - 20 + 8);
    if (record + 56 > bytes.length || u32(record) !== ZIP64_EOCD) return undefined;
    count = u64(record + 32);
    offset = u64(record + 48);
  }
  const entries: Entry[] = [];
  for (let i = 0, at = offset; i < count; i++) {
    if (at + 46 > bytes.length || u32(at) !== CENTRAL) return undefined;
    const nameLength = u16(at + 28);
    const extraLength = u16(at + 30);
    let compressedSize = u32(at + 20);
    let declaredSize = u32(at + 24);
    let headerStart = u32(at + 42);
    // ZIP64: the fields at 0xffffffff are in the extra field 0x0001, in this order.
    for (let x = at + 46 + nameLength; x + 4 <= at + 46 + nameLength + extraLength; ) {
      const id = u16(x);
      const size = u16(x + 2);
      if (id === 0x0001) {
        let field = x + 4;
        const next = () => {
          const value = field + 8 <= x + 4 + size ? u64(field) : 0;
          field += 8;
          return value;
        };
        if (declaredSize === 0xffffffff) declaredSize = next();
        if (compressedSize === 0xffffffff) compressedSize = next();
        if (headerStart === 0xffffffff) headerStart = next();
      }
      x += 4 + size;
    }
    if (headerStart + 30 > bytes.length || u32(headerStart) !== LOCAL) return undefined;
    const dataStart = headerStart + 30 + u16(headerStart + 26) + u16(headerStart + 28);
    entries.push({
      name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: u16(at + 10),
      compressedSize,
      declaredSize,
      headerStart,
      dataStart,
      dataEnd: dataStart + compressedSize,
    });
    at += 46 + nameLength + extraLength + u16(at + 32);
  }
  return entries;
};

const tooLarge = (what: string, limits: typeof ZIP_LIMITS) =>
  new CatalogSourceError(
    `the workbook expands to ${what} when unzipped, more than a workbook may hold ` +
      `(${mb(limits.maxEntryBytes)} MB in one part, ${mb(limits.maxTotalBytes)} MB in all): split it or save it as CSV`,
    'source_too_large',
  );

/** Bytes `entry` really inflates to, counted as it streams; past `budget` it stops and says so. */
const inflatedSize = (bytes: Uint8Array, entry: Entry, budget: number): number | 'over' | 'unreadable' => {
  if (entry.method === STORED) return entry.compressedSize > budget ? 'over' : entry.compressedSize;
  if (entry.method !== DEFLATED) return 'unreadable';
  let size = 0;
  let over = false;
  const inflater = new Inflate((chunk) => {
    size += chunk.length;
    if (size > budget) over = true;
  });
  try {
    for (let at = entry.dataStart; at < entry.dataEnd && !over; at += CHUNK) {
      const end = Math.min(at + CHUNK, entry.dataEnd);
      inflater.push(bytes.subarray(at, end), end === entry.dataEnd);
    }
  } catch {
    return 'unreadable';
  }
  return over ? 'over' : size;
};

/**
 * Throws `source_too_large` when the archive declares, or really inflates to, more than the limits, and
 * `source_unreadable` when its entries overlap or one inflates to another size than the archive declares.
 * Work is bounded by the limits: inflating stops as soon as they are passed. An archive this cannot read at
 * all passes, for the workbook reader to say what is wrong in its own words.
 */
export const checkZipExpansion = (bytes: Uint8Array, limits: typeof ZIP_LIMITS = ZIP_LIMITS): void => {
  const entries = centralDirectory(bytes);
  if (!entries) return;
  const declared = entries.reduce((sum, e) => sum + e.declaredSize, 0);
  const largest = entries.reduce((max, e) => Math.max(max, e.declaredSize), 0);
  if (largest > limits.maxEntryBytes || declared > limits.maxTotalBytes)
    throw tooLarge(`${mb(declared)} MB`, limits);

  const byPlace = [...entries].sort((a, b) => a.headerStart - b.headerStart);
  for (let i = 1; i < byPlace.length; i++) {
    const before = byPlace[i - 1]!;
    if (byPlace[i]!.headerStart < before.dataEnd) {
      throw new CatalogSourceError(
        `the workbook's archive is malformed: its parts ${JSON.stringify(before.name)} and ` +
          `${JSON.stringify(byPlace[i]!.name)} share their bytes, as in a zip bomb; save the workbook again`,
        'source_unreadable',
      );
    }
  }

  let total = 0;
  for (const entry of byPlace) {
    if (entry.dataEnd > bytes.length) return; // cut short: the reader says so
    const budget = Math.min(limits.maxEntryBytes, limits.maxTotalBytes - total);
    const size = inflatedSize(bytes, entry, budget);
    if (size === 'unreadable') return;
    if (size === 'over') {
      throw tooLarge(
        budget === limits.maxEntryBytes
          ? `more than ${mb(budget)} MB in its part ${JSON.stringify(entry.name)}`
          : `more than ${mb(limits.maxTotalBytes)} MB`,
        limits,
      );
    }
    if (size !== entry.declaredSize) {
      throw new CatalogSourceError(
        `the workbook's archive is malformed: its part ${JSON.stringify(entry.name)} inflates to ${size} bytes ` +
          `where the archive says ${entry.declaredSize}; save the workbook again`,
        'source_unreadable',
      );
    }
    total += size;
  }
};
