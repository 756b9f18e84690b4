import { fileResource } from '../../core/model';
import { getFile } from '../../core/use-cases/files';
import { type AppDeps, defaultDeps } from '../../shared/deps';
import { httpRoute, json, pathParam } from '../../shared/http';
import { lazy } from '../../shared/lazy';

/** GET /v1/files/{id}: `uploaded` with size_bytes once the bytes are in place. */
export const makeGetFileHandler = (deps: AppDeps) =>
  httpRoute(deps, { scope: 'client' }, async (event, principal) => {
    const { file, upload } = await getFile(deps, principal.clientId, pathParam(event, 'id'));
    return json(200, fileResource(file, upload));
  });

export const handler = lazy(() => makeGetFileHandler(defaultDeps()));
