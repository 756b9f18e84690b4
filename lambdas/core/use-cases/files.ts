import { NotFoundError } from '../errors';
import type { FileRecord, PresignedUpload } from '../model';
import { type Clock, type FileRepository, type IdGenerator, type ObjectStore, objectKeys } from '../ports';
import type { CreateFileRequest } from '../schemas/file';
import { isUuid, LIMITS } from '../schemas/job';

export interface FileDeps {
  readonly files: FileRepository;
  readonly uploads: ObjectStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** SPEC 3.3: upload URLs are valid for 15 minutes. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;

/**
 * Registers an upload and returns its presigned form: the store itself refuses a body over 100 MB (SPEC 9),
 * another key or Content-Type, or an upload after 15 minutes.
 */
export const createFile = async (
  deps: FileDeps,
  clientId: string,
  request: CreateFileRequest,
): Promise<{ file: FileRecord; upload: PresignedUpload }> => {
  const id = deps.ids.uuid();
  const objectKey = objectKeys.upload(clientId, id);
  const upload = await deps.uploads.presignUpload(
    objectKey,
    request.content_type,
    UPLOAD_URL_TTL_SECONDS,
    LIMITS.sourceFileBytes,
  );
  const at = deps.clock.now().toISOString();
  const file: FileRecord = {
    id,
    clientId,
    state: 'pending',
    filename: request.filename,
    contentType: request.content_type,
    objectKey,
    sizeBytes: null,
    createdAt: at,
    updatedAt: at,
    uploadExpiresAt: upload.expiresAt,
  };
  await deps.files.create(file);
  return { file, upload };
};

/** A pending file whose bytes have arrived in S3 is marked `uploaded` with its size. */
export const refreshUpload = async (
  deps: Pick<FileDeps, 'files' | 'uploads' | 'clock'>,
  file: FileRecord,
): Promise<FileRecord> => {
  if (file.state !== 'pending') return file;
  const size = await deps.uploads.size(file.objectKey);
  if (size === undefined) return file;
  return deps.files.markUploaded(file.clientId, file.id, size, deps.clock.now().toISOString());
};

/**
 * Reads a file; a pending file whose bytes have arrived in S3 is marked `uploaded` with its size.
 * The upload form is signed again while the file is pending and its time has not run out.
 */
export const getFile = async (
  deps: FileDeps,
  clientId: string,
  id: string,
): Promise<{ file: FileRecord; upload: PresignedUpload | null }> => {
  const found = isUuid(id) ? await deps.files.get(clientId, id) : undefined;
  if (!found) throw new NotFoundError(`No file has the id ${id}.`);
  const file = await refreshUpload(deps, found);
  const stillOpen = file.state === 'pending' && Date.parse(file.uploadExpiresAt) > deps.clock.now().getTime();
  const upload = stillOpen
    ? await deps.uploads.presignUpload(
        file.objectKey,
        file.contentType,
        secondsUntil(deps, file.uploadExpiresAt),
        LIMITS.sourceFileBytes,
      )
    : null;
  return { file, upload };
};

const secondsUntil = (deps: Pick<FileDeps, 'clock'>, iso: string): number =>
  Math.max(1, Math.floor((Date.parse(iso) - deps.clock.now().getTime()) / 1000));
