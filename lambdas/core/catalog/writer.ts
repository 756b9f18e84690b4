import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { CatalogDocument, Category, ImageMapping, Item, ModifierGroup } from './document';

type Many<T> = Iterable<T> | AsyncIterable<T>;

/**
 * A catalog document whose entity lists may be produced lazily (e.g. read back from storage item by
 * item), so that writing it never needs the whole catalog in memory.
 */
export interface CatalogDocumentStream
  extends Omit<CatalogDocument, 'categories' | 'items' | 'modifier_groups' | 'image_mappings'> {
  readonly categories: Many<Category>;
  readonly items: Many<Item>;
  readonly modifier_groups: Many<ModifierGroup>;
  readonly image_mappings: Many<ImageMapping>;
}

export interface CatalogJsonOptions {
  /** Chunks are about this many characters (64 KiB): big enough for few writes, small enough for flat memory. */
  readonly chunkSize?: number;
}

const LISTS = ['categories', 'items', 'modifier_groups', 'image_mappings'] as const;

/**
 * Serialises a catalog document as JSON text in chunks, one entity at a time: memory holds one chunk, not
 * the whole file. Keys come in SPEC 5.5 order; each entity is on its own line, so the file is also easy
 * to read and diff. `JSON.parse` of the concatenated chunks equals the document.
 *
 * @example
 * await s3.upload(key, Readable.from(catalogJsonChunks(document)));
 */
export async function* catalogJsonChunks(
  document: CatalogDocument | CatalogDocumentStream,
  options: CatalogJsonOptions = {},
): AsyncGenerator<string> {
  const chunkSize = options.chunkSize ?? 64 * 1024;
  let buffer = '';
  const head = {
    format_version: document.format_version,
    job_id: document.job_id,
    job_type: document.job_type,
    generated_at: document.generated_at,
    language: document.language,
    currency: document.currency,
    merchant: document.merchant,
  };
  buffer = JSON.stringify(head).slice(0, -1);
  for (const list of LISTS) {
    buffer += `,\n${JSON.stringify(list)}:[`;
    let first = true;
    for await (const entity of document[list] as Many<unknown>) {
      buffer += `${first ? '\n' : ',\n'}${JSON.stringify(entity)}`;
      first = false;
      if (buffer.length >= chunkSize) {
        yield buffer;
        buffer = '';
      }
    }
    buffer += first ? ']' : '\n]';
  }
  yield `${buffer}}\n`;
}

export interface CatalogFileStats {
  /** Bytes written (UTF-8). */
  readonly sizeBytes: number;
  /** Hex SHA-256 of the bytes written. */
  readonly checksumSha256: string;
  readonly itemCount: number;
}

/**
 * Writes a catalog document as JSON to a stream, honouring back-pressure, and returns the numbers an
 * export's `file` needs (SPEC 3.2: size_bytes, checksum_sha256, item_count). Ends the stream.
 */
export const writeCatalogJson = async (
  document: CatalogDocument | CatalogDocumentStream,
  destination: Writable,
  options: CatalogJsonOptions = {},
): Promise<CatalogFileStats> => {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  let itemCount = 0;
  async function* countedItems(): AsyncGenerator<Item> {
    for await (const item of document.items) {
      itemCount += 1;
      yield item;
    }
  }
  const counted = { ...document, items: countedItems() };
  for await (const chunk of catalogJsonChunks(counted, options)) {
    const bytes = Buffer.from(chunk, 'utf8');
    hash.update(bytes);
    sizeBytes += bytes.length;
    if (!destination.write(bytes)) {
      // Listeners of the losing `once` are removed by the abort, so long files do not pile them up.
      const settled = new AbortController();
      try {
        await Promise.race([
          once(destination, 'drain', { signal: settled.signal }),
          once(destination, 'close', { signal: settled.signal }),
        ]);
      } finally {
        settled.abort();
      }
      if (destination.destroyed)
        throw new Error('the destination stream closed before the catalog was written');
    }
  }
  destination.end();
  await once(destination, 'finish');
  return { sizeBytes, checksumSha256: hash.digest('hex'), itemCount };
};
