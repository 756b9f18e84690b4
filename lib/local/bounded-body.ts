import { Transform } from 'node:stream';
import { S3Error } from './s3-error';

/** A pass-through whose failure is known from the moment it is made, whoever reads it and whenever. */
export interface BoundedBody extends Transform {
  /** Rejects with the stream's first error (EntityTooLarge, a client gone); never resolves. */
  readonly failure: Promise<never>;
}

/**
 * A pass-through that counts the bytes of an upload and fails as S3 does once they leave the allowed range:
 * 400 EntityTooLarge as soon as the count passes `max` (the rest is never read into the store), 400
 * EntityTooSmall at the end when it stays under `min`. Whatever reads it (the multipart upload to the
 * emulator) then fails too, so nothing is stored. Its errors are listened to from the start (`failure`): the
 * bytes may pass the bound before the upload reading them has begun.
 */
export const boundedBody = (range: { readonly min: number; readonly max: number }): BoundedBody => {
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > range.max) {
        done(new S3Error(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size'));
        return;
      }
      done(null, chunk);
    },
    flush(done) {
      if (size < range.min) {
        done(
          new S3Error(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size'),
        );
        return;
      }
      done();
    },
  });
  const failure = new Promise<never>((_, reject) => stream.once('error', reject));
  failure.catch(() => undefined);
  return Object.assign(stream, { failure });
};
