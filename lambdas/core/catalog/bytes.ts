import type { ByteStream } from './sources/types';

const toBuffer = (chunk: Uint8Array | string): Buffer =>
  typeof chunk === 'string'
    ? Buffer.from(chunk, 'utf8')
    : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

/** Iterates any ByteStream as Buffers. */
export async function* bufferChunks(stream: ByteStream): AsyncGenerator<Buffer> {
  for await (const chunk of stream) {
    if (chunk.length > 0) yield toBuffer(chunk);
  }
}

export interface PeekedStream {
  /** At least `bytes` bytes from the start (fewer only if the stream is shorter). */
  readonly head: Buffer;
  /** The whole stream again, head included. Iterate it at most once. */
  readonly stream: AsyncIterable<Buffer>;
  /** Stops the underlying stream when the rest is not wanted (an unreadable format). */
  close(): Promise<void>;
}

/**
 * Reads the first `bytes` bytes of a stream for format sniffing and hands back a stream that replays
 * them, so the source is read once and never held whole in memory.
 */
export const peekStream = async (source: ByteStream, bytes: number): Promise<PeekedStream> => {
  const iterator = bufferChunks(source)[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < bytes) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(chunks);
  async function* replay(): AsyncGenerator<Buffer> {
    try {
      if (head.length > 0) yield head;
      if (done) return;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      await iterator.return?.(undefined);
    }
  }
  return {
    head,
    stream: replay(),
    close: async () => {
      await iterator.return?.(undefined);
    },
  };
};

/**
 * Reads a whole stream into one buffer (for formats that cannot be parsed incrementally: JSON, XLSX, PDF,
 * images, a web page). With `limit`, reading stops as soon as more than `maxBytes` have arrived, with the
 * error `tooLarge()` makes.
 */
export const readAll = async (
  stream: ByteStream,
  limit?: { readonly maxBytes: number; readonly tooLarge: () => Error },
): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of bufferChunks(stream)) {
    size += chunk.length;
    if (limit && size > limit.maxBytes) throw limit.tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
};
