import { fileResource } from '../../core/model';
import { createFileRequestSchema } from '../../core/schemas/file';
import { createFile } from '../../core/use-cases/files';
import { parseOrThrow } from '../../core/validation';
import { type AppDeps, defaultDeps } from '../../shared/deps';
import { httpRoute, json } from '../../shared/http';
import { lazy } from '../../shared/lazy';

/** POST /v1/files (SPEC 3.3): registers an upload and answers a presigned PUT URL. */
export const makeCreateFileHandler = (deps: AppDeps) =>
  httpRoute(deps, { scope: 'client', body: 'json' }, async (event, principal) => {
    const request = parseOrThrow(createFileRequestSchema, event.body);
    const { file, upload } = await createFile(deps, principal.clientId, request);
    return json(201, fileResource(file, upload), { location: `/v1/files/${file.id}` });
  });

export const handler = lazy(() => makeCreateFileHandler(defaultDeps()));
