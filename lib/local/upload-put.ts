import type { IncomingMessage } from 'node:http';
import { type BoundedBody, boundedBody } from './bounded-body';
import { S3Error } from './s3-error';

/**
 * A presigned PUT of an upload (SPEC 3.3), its signature already checked by the storage front: a declared
 * Content-Length over `maxBytes` is refused before any byte is read (400 EntityTooLarge, as S3 refuses a PUT
 * over its own 5 GB); the body is handed on as a stream that fails there if it runs past the bound.
 */
export const receivePut = (
  req: IncomingMessage,
  key: string,
  maxBytes: number,
): { key: string; contentType?: string; body: BoundedBody } => {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new S3Error(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
  }
  const contentType = req.headers['content-type'];
  const body = boundedBody({ min: 0, max: maxBytes });
  // A client that goes away mid-body fails the upload as a short body does: nothing is stored.
  req.once('aborted', () =>
    body.destroy(new S3Error(400, 'IncompleteBody', 'The request body ended early.')),
  );
  return { key, ...(contentType ? { contentType } : {}), body: req.pipe(body) };
};
