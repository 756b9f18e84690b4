import { getOpsJobSource } from '../../core/use-cases/operations';
import { loadConfig } from '../../shared/config';
import type { AppDeps } from '../../shared/deps';
import { type ApiResult, header, httpRoute, json, pathParam } from '../../shared/http';
import { lazy } from '../../shared/lazy';
import { objectStore } from '../../shared/storage-wiring';
import { basics, fileRepository, jobRepository } from '../../shared/wiring';

export type OpsGetJobSourceDeps = Pick<
  AppDeps,
  'jobs' | 'catalogs' | 'files' | 'uploads' | 'logger' | 'metrics'
>;

/** True when the caller asked for the JSON description rather than the bytes. */
const wantsJson = (accept: string | undefined): boolean => /\bapplication\/json\b/i.test(accept ?? '');

/**
 * GET /v1/ops/jobs/{id}/sources/{n}: the bytes of source n, for viewing beside the draft (SPEC 5.4).
 *
 * The bytes never pass through the function (a Lambda response is at most 6 MB, a source up to 100 MB):
 * the answer is a 302 to a presigned GET of the object store, valid 5 minutes, which serves the bytes with
 * the source's content type, inline. HTTP clients and browsers follow it (dropping the Authorization header,
 * as they do on a cross-origin redirect). With `Accept: application/json` the answer is that URL in JSON.
 */
export const makeOpsGetJobSourceHandler = (deps: OpsGetJobSourceDeps) =>
  httpRoute(deps, { scope: 'operator' }, async (event): Promise<ApiResult> => {
    const found = await getOpsJobSource(deps, pathParam(event, 'id'), pathParam(event, 'n'));
    const body = {
      index: found.index,
      source: found.source,
      url: found.url,
      expires_at: found.expiresAt,
      content_type: found.content_type,
      size_bytes: found.size_bytes,
    };
    if (wantsJson(header(event, 'accept'))) return json(200, body, { 'cache-control': 'no-store' });
    return {
      statusCode: 302,
      headers: { location: found.url, 'cache-control': 'no-store', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    };
  });

export const handler = lazy(() => {
  const config = loadConfig();
  return makeOpsGetJobSourceHandler({
    ...basics(config),
    jobs: jobRepository(config),
    files: fileRepository(config),
    uploads: objectStore(config, 'uploads'),
    catalogs: objectStore(config, 'catalogs'),
  });
});
