import { ensureConsoleBuild } from '../../console/site/build';
import { type ConsoleFiles, consoleResponse, readConsoleFiles } from '../../console/site/files';
import type { PolicyOptions } from '../../console/site/headers';
import { CONSOLE_PATH } from '../../console/site/headers';
import type { StaticRoute } from './api-gateway';

/**
 * The operations console of the local runtime at `/ops/` (SPEC 5.4): built with Vite when its sources
 * changed (console/site/build.ts, a few seconds), then served from memory with the same headers as in AWS
 * (console/site/headers.ts). The API it calls is this same server, so it is same-origin and needs no CORS.
 */
export const prepareConsole = async (root: string = process.cwd()): Promise<ConsoleFiles> =>
  readConsoleFiles((await ensureConsoleBuild(root)).dir);

/** The console's static routes; `storageOrigins` is the storage front that serves sources (storage-front.ts). */
export const consoleRoutes = (
  files: ConsoleFiles,
  options: PolicyOptions = {},
): ReadonlyMap<string, StaticRoute> => {
  const route = (rest: string): StaticRoute => {
    const response = consoleResponse(files, rest, options);
    const { 'Content-Type': contentType = 'text/plain; charset=utf-8', ...headers } = response.headers;
    return { status: response.statusCode, contentType, headers, body: async () => response.body };
  };
  const routes = new Map<string, StaticRoute>([
    [CONSOLE_PATH, route('')],
    [`${CONSOLE_PATH}/`, route('/')],
  ]);
  for (const path of files.keys()) routes.set(`${CONSOLE_PATH}/${path}`, route(`/${path}`));
  return routes;
};
