import { fileResource } from '../../core/model';
import { getFile } from '../../core/use-cases/files';
import { loadConfig } from '../../shared/config';
import type { AppDeps } from '../../shared/deps';
import { httpRoute, json, pathParam } from '../../shared/http';
import { lazy } from '../../shared/lazy';
import { objectStore } from '../../shared/storage-wiring';
import { basics, fileRepository } from '../../shared/wiring';

export type GetFileDeps = Pick<AppDeps, 'files' | 'uploads' | 'clock' | 'ids' | 'logger' | 'metrics'>;

/** GET /v1/files/{id}: `uploaded` with size_bytes once the bytes are in place. */
export const makeGetFileHandler = (deps: GetFileDeps) =>
  httpRoute(deps, { scope: 'client' }, async (event, principal) => {
    const { file, upload } = await getFile(deps, principal.clientId, pathParam(event, 'id'));
    return json(200, fileResource(file, upload));
  });

export const handler = lazy(() => {
  const config = loadConfig();
  return makeGetFileHandler({
    ...basics(config),
    files: fileRepository(config),
    uploads: objectStore(config, 'uploads'),
  });
});
