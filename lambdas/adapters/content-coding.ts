import { pipeline, Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { OutboundEncodingError } from '../core/outbound';

/** What the guarded client asks for (RFC 9110 12.5.3) and can decode. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** More layers than this is no server's honest answer. */
const MAX_LAYERS = 2;

/** A decoder per coding; `first` is the start of the body as sent (the outermost layer only). */
const CODINGS: Readonly<Record<string, (first: Buffer | undefined) => Transform>> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  br: () => createBrotliDecompress(),
  // RFC 9110 8.4.1.2: "deflate" is the zlib format, but some servers send raw deflate: the first two bytes
  // tell them apart (a zlib header is CM 8 and a multiple of 31).
  deflate: (first) =>
    first === undefined ||
    (first.length >= 2 && (first[0]! & 0x0f) === 8 && ((first[0]! << 8) | first[1]!) % 31 === 0)
      ? createInflate()
      : createInflateRaw(),
};

/**
 * The content codings of a Content-Encoding header, in the order they were applied, `identity` left out.
 *
 * @example contentCodings('gzip, identity') // ['gzip']
 */
export const contentCodings = (header: string | undefined): string[] =>
  (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');

/**
 * The body a server sent with `Content-Encoding: codings`, decoded as it is read. The caller counts what it
 * yields, so a small compressed body that inflates without end (a "zip bomb") is cut off by the caller's
 * size limit on the decoded bytes, after reading only as much as that limit needs. An empty body (a HEAD,
 * a 204) yields nothing. A coding the client cannot decode, or a body that is not what its coding says,
 * fails the read with OutboundEncodingError (the same bytes will fail again: it is not retryable).
 */
export async function* decodeContent(
  body: AsyncIterable<Buffer>,
  codings: readonly string[],
): AsyncGenerator<Buffer> {
  const unknown = codings.find((coding) => !(coding in CODINGS));
  if (unknown !== undefined || codings.length > MAX_LAYERS) {
    throw new OutboundEncodingError(
      `the response is sent with Content-Encoding: ${codings.join(', ').slice(0, 100)}; the service reads ${ACCEPT_ENCODING}`,
    );
  }
  const iterator = body[Symbol.asyncIterator]();
  let first = await iterator.next();
  while (!first.done && first.value.length === 0) first = await iterator.next();
  if (first.done) return;
  const head = first.value;
  // What the body itself throws (a reset connection, the time limit) passes through as it is.
  let sourceError: unknown;
  let stream: Readable = Readable.from(
    (async function* () {
      yield head;
      try {
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
      } catch (error) {
        sourceError = error;
        throw error;
      }
    })(),
  );
  // Applied first, decoded last: the last coding listed is the outermost layer.
  [...codings].reverse().forEach((coding, layer) => {
    stream = pipeline(stream, CODINGS[coding]!(layer === 0 ? head : undefined), () => undefined);
  });
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (error) {
    if (error === sourceError) throw error;
    throw new OutboundEncodingError(
      `the response's ${codings.join(', ')} encoding is corrupt (${(error as Error).message})`,
      { cause: error },
    );
  } finally {
    stream.destroy();
    await iterator.return?.();
  }
}
