import { fileResource } from '../../core/model';
import { createFileRequestSchema } from '../../core/schemas/file';
import { createFile } from '../../core/use-cases/files';
import { parseOrThrow } from '../../core/validation';
import { loadConfig } from '../../shared/config';
import type { AppDeps } from '../../shared/deps';
import { httpRoute, json } from '../../shared/http';
import { lazy } from '../../shared/lazy';
import { objectStore } from '../../shared/storage-wiring';
import { basics, fileRepository } from '../../shared/wiring';

export type CreateFileDeps = Pick<AppDeps, 'files' | 'uploads' | 'clock' | 'ids' | 'logger' | 'metrics'>;

/** POST /v1/files (SPEC 3.3): registers an upload and answers its presigned form (at most 100 MB). */
export const makeCreateFileHandler = (deps: CreateFileDeps) =>
  httpRoute(deps, { scope: 'client', body: 'json' }, async (event, principal) => {
    const request = parseOrThrow(createFileRequestSchema, event.body);
    const { file, upload } = await createFile(deps, principal.clientId, request);
    return json(201, fileResource(file, upload), { location: `/v1/files/${file.id}` });
  });

export const handler = lazy(() => {
  const config = loadConfig();
  return makeCreateFileHandler({
    ...basics(config),
    files: fileRepository(config),
    uploads: objectStore(config, 'uploads'),
  });
});
