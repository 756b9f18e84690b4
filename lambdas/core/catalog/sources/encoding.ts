import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';
import type { TextEncoding } from '../../schemas/source-formats';
import type { WarningInput } from '../warnings';

/**
 * Text encodings (SPEC 5.2): a byte order mark decides (UTF-8, UTF-16LE, UTF-16BE); otherwise strict
 * UTF-8; otherwise Windows-1252, what Excel on Windows writes (or Shift_JIS, or Mac Roman, when the bytes
 * clearly read as those: see looksLikeShiftJis and looksLikeMacRoman). Non-UTF-8 text is decoded by iconv-lite,
 * pure JavaScript, so the same bytes decode the same on every Node version.
 */

const BOMS: readonly (readonly [TextEncoding, readonly number[]])[] = [
  ['utf-8', [0xef, 0xbb, 0xbf]],
  ['utf-16le', [0xff, 0xfe]],
  ['utf-16be', [0xfe, 0xff]],
];

/** Bytes that never occur in text (controls other than tab, LF, VT, FF, CR, SUB and ESC). */
const isControl = (byte: number): boolean =>
  byte < 0x20 && !(byte >= 0x09 && byte <= 0x0d) && byte !== 0x1a && byte !== 0x1b;

/** UTF-16 without a BOM: one byte of nearly every pair is zero (ASCII-range text). */
const utf16WithoutBom = (head: Uint8Array): TextEncoding | null => {
  const pairs = Math.floor(head.length / 2);
  if (pairs < 2) return null;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i + 1 < head.length; i += 2) {
    if (head[i] === 0 && head[i + 1] !== 0) evenZero += 1;
    if (head[i + 1] === 0 && head[i] !== 0) oddZero += 1;
  }
  if (oddZero >= pairs * 0.9) return 'utf-16le';
  if (evenZero >= pairs * 0.9) return 'utf-16be';
  return null;
};

export interface DetectedEncoding {
  readonly encoding: TextEncoding;
  /** Bytes of the byte order mark at the start (0 without one). */
  readonly bomLength: number;
}

/**
 * Decides the encoding of text from its first bytes, or returns null when they are not text. `complete`
 * says whether `head` is the whole source: when it is not, a multi-byte character cut at its end is fine
 * (a decoder in streaming mode keeps the partial sequence instead of failing on it).
 *
 * @example detectEncoding(Buffer.from([0xff, 0xfe, 0x41, 0x00]), true) // { encoding: 'utf-16le', bomLength: 2 }
 * @example detectEncoding(Buffer.from('caf\xe9', 'latin1'), true) // { encoding: 'windows-1252', bomLength: 0 }
 */
export const detectEncoding = (head: Uint8Array, complete: boolean): DetectedEncoding | null => {
  for (const [encoding, bom] of BOMS) {
    if (head.length >= bom.length && bom.every((b, i) => head[i] === b)) {
      return { encoding, bomLength: bom.length };
    }
  }
  if (head.includes(0)) {
    const utf16 = utf16WithoutBom(head);
    if (utf16 !== null) return { encoding: utf16, bomLength: 0 };
  }
  // A stray control character in a cell (a pasted BEL, a NUL a legacy export left) is text with a flaw,
  // read (the cell drops it: rows/cells.ts); binary data has them everywhere.
  let controls = 0;
  for (const byte of head) if (isControl(byte)) controls += 1;
  if (controls > Math.max(1, head.length / 500)) return null;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: !complete });
    return { encoding: 'utf-8', bomLength: 0 };
  } catch {
    if (looksLikeShiftJis(head)) return { encoding: 'shift_jis', bomLength: 0 };
    return { encoding: looksLikeMacRoman(head) ? 'macintosh' : 'windows-1252', bomLength: 0 };
  }
};

const isAsciiLetter = (byte: number | undefined): boolean =>
  byte !== undefined && ((byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a));
const isAsciiDigit = (byte: number | undefined): boolean =>
  byte !== undefined && byte >= 0x30 && byte <= 0x39;
const nearDigit = (head: Uint8Array, i: number): boolean =>
  isAsciiDigit(head[i - 1]) ||
  isAsciiDigit(head[i + 1]) ||
  (head[i - 1] === 0x20 && isAsciiDigit(head[i - 2])) ||
  (head[i + 1] === 0x20 && isAsciiDigit(head[i + 2]));

/**
 * How plausible the non-ASCII bytes of `head` are as text in `encoding`: a byte inside a word (after or
 * before an ASCII letter) should be a lower-case letter (`Caf\x8e` is `Café` in Mac Roman, `CafŽ` in
 * Windows-1252), a byte beside a number a currency sign (`4,50 \xdb` is `€` in Mac Roman).
 */
/**
 * Mac Roman's 0xDB is `€` since Mac OS 8.5 (the WHATWG `macintosh` table); iconv-lite still has the old
 * `¤` there, which Mac Roman has nowhere else.
 */
const macEuro = (text: string): string => text.replaceAll('\u00a4', '€');

const HIGH_HALF = Buffer.from(Array.from({ length: 128 }, (_, i) => 0x80 + i));
const highHalf = (encoding: string): string[] => [
  ...(encoding === 'macintosh' ? macEuro : (t: string) => t)(iconv.decode(HIGH_HALF, encoding)),
];
const HIGH_CHARS: Readonly<Record<'macintosh' | 'windows-1252', readonly string[]>> = {
  macintosh: highHalf('macintosh'),
  'windows-1252': highHalf('windows-1252'),
};

const plausibility = (head: Uint8Array, encoding: 'macintosh' | 'windows-1252'): number => {
  const chars = HIGH_CHARS[encoding];
  let score = 0;
  for (let i = 0; i < head.length; i += 1) {
    const byte = head[i] as number;
    if (byte < 0x80) continue;
    const char = chars[byte - 0x80] ?? '';
    if ((isAsciiLetter(head[i - 1]) || isAsciiLetter(head[i + 1])) && /\p{Ll}/u.test(char)) score += 1;
    else if (nearDigit(head, i) && /\p{Sc}/u.test(char)) score += 1;
  }
  return score;
};

/**
 * Excel for Mac before 2016 saved "CSV (Macintosh)" in Mac Roman, which also "decodes" as Windows-1252
 * (into `CafŽ cr\u008fme`). Mac Roman is chosen only when its reading is clearly the more plausible one:
 * accented letters inside words, currency signs beside prices.
 */
const looksLikeMacRoman = (head: Uint8Array): boolean => {
  const mac = plausibility(head, 'macintosh');
  return mac > 0 && mac > 2 * plausibility(head, 'windows-1252');
};

/**
 * Japanese Excel writes CSV in Shift_JIS. Such bytes also "decode" as Windows-1252 (into mojibake), so
 * Shift_JIS is chosen only when they decode without error and read as Japanese: full-width kana (which
 * every Japanese text has and Windows-1252 text decoded as Shift_JIS practically never yields) make up
 * most of what is not ASCII.
 */
const looksLikeShiftJis = (head: Uint8Array): boolean => {
  // A double-byte character may be cut at the end of the head (its lead byte last, or the last byte left
  // out here anyway): a replacement character there is the cut, not a byte Shift_JIS cannot read.
  const text = iconv
    .decode(Buffer.from(head.subarray(0, Math.max(0, head.length - 1))), 'shift_jis')
    .replace(/\ufffd$/u, '');
  if (text.includes('\ufffd')) return false;
  let kana = 0;
  let japanese = 0;
  let other = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x80) continue;
    if (code >= 0x3040 && code <= 0x30ff) kana += 1;
    if (
      (code >= 0x3000 && code <= 0x30ff) ||
      (code >= 0x4e00 && code <= 0x9fff) ||
      (code >= 0xff00 && code <= 0xffef)
    )
      japanese += 1;
    else other += 1;
  }
  return kana >= 2 && japanese >= 4 * other;
};

/** Length of the valid UTF-8 sequence starting at `i`, or 0 when the bytes there are not one. */
const utf8SequenceLength = (bytes: Uint8Array, i: number): number => {
  const b0 = bytes[i] as number;
  if (b0 < 0x80) return 1;
  const cont = (k: number) => {
    const b = bytes[i + k];
    return b !== undefined && (b & 0xc0) === 0x80;
  };
  const b1 = bytes[i + 1] ?? 0;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    if (!cont(1) || !cont(2)) return 0;
    if (b0 === 0xe0 && b1 < 0xa0) return 0;
    if (b0 === 0xed && b1 > 0x9f) return 0;
    return 3;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if (b0 === 0xf0 && b1 < 0x90) return 0;
    if (b0 === 0xf4 && b1 > 0x8f) return 0;
    return 4;
  }
  return 0;
};

/**
 * Decodes mostly-UTF-8 bytes in which some sequences are not UTF-8: valid sequences as UTF-8, every other
 * byte as Windows-1252 (a file edited with two programs often mixes the two).
 */
export const decodeUtf8WithFallback = (bytes: Uint8Array): string => {
  let text = '';
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    const length = utf8SequenceLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    text += Buffer.from(bytes.subarray(start, i)).toString('utf8');
    text += iconv.decode(Buffer.from([bytes[i] as number]), 'windows-1252');
    i += 1;
    start = i;
  }
  return text + Buffer.from(bytes.subarray(start)).toString('utf8');
};

/** Bytes at the end of `bytes` that start a UTF-8 sequence not yet complete (0–3). */
const incompleteTail = (bytes: Uint8Array): number => {
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const b = bytes[bytes.length - back] as number;
    if ((b & 0xc0) === 0x80) continue;
    if (b < 0x80) return 0;
    const needed = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return needed > back ? back : 0;
  }
  return 0;
};

/** The warning of a text source whose UTF-8 turned out to hold other bytes from `offset` on. */
export const encodingFallbackWarning = (offset: number): WarningInput => ({
  row: null,
  column: null,
  code: 'encoding_fallback',
  message: `the text is UTF-8 but has bytes that are not (from byte ${offset}); they were read as Windows-1252`,
});

export interface DecodeOptions {
  /** Called once, with the byte offset, when UTF-8 text turns out to contain bytes that are not UTF-8. */
  readonly onFallback?: (offset: number) => void;
}

/**
 * Re-encodes a text stream as UTF-8 buffers, without its BOM. UTF-8 passes through as it is (validated
 * chunk by chunk, a character cut between chunks carried over); bytes that turn out not to be UTF-8 are
 * read as Windows-1252 and reported through `onFallback`. Other encodings go through iconv-lite.
 */
export async function* toUtf8(
  bytes: AsyncIterable<Buffer>,
  encoding: TextEncoding,
  options: DecodeOptions = {},
): AsyncGenerator<Buffer> {
  let first = true;
  if (encoding !== 'utf-8') {
    const decoder = iconv.getDecoder(encoding, { stripBOM: true });
    const fix = encoding === 'macintosh' ? macEuro : (text: string) => text;
    for await (const chunk of bytes) {
      const text = fix(decoder.write(chunk));
      if (text.length > 0) yield Buffer.from(text, 'utf8');
    }
    const rest = decoder.end();
    if (rest) yield Buffer.from(fix(rest), 'utf8');
    return;
  }
  let carry: Buffer | null = null;
  let offset = 0;
  let reported = false;
  for await (const raw of bytes) {
    let chunk: Buffer = carry === null ? raw : Buffer.concat([carry, raw]);
    if (first) {
      // The BOM may itself be split between chunks: decide once three bytes are there.
      if (chunk.length < 3) {
        carry = chunk;
        continue;
      }
      first = false;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
    }
    const tail = incompleteTail(chunk);
    const whole = tail === 0 ? chunk : chunk.subarray(0, chunk.length - tail);
    carry = tail === 0 ? null : Buffer.from(chunk.subarray(chunk.length - tail));
    if (whole.length === 0) continue;
    if (isUtf8(whole)) yield whole;
    else {
      if (!reported) options.onFallback?.(offset);
      reported = true;
      yield Buffer.from(decodeUtf8WithFallback(whole), 'utf8');
    }
    offset += whole.length;
  }
  if (carry !== null && carry.length > 0) {
    if (!reported) options.onFallback?.(offset);
    yield Buffer.from(decodeUtf8WithFallback(carry), 'utf8');
  }
}

/** Decodes a whole text source into one string (JSON, which is parsed in one piece). */
export const decodeAll = async (
  bytes: AsyncIterable<Buffer>,
  encoding: TextEncoding,
  options: DecodeOptions = {},
): Promise<string> => {
  const parts: Buffer[] = [];
  for await (const chunk of toUtf8(bytes, encoding, options)) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
};
