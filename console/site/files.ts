import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CONSOLE_PATH, cacheControlOf, contentTypeOf, type PolicyOptions, securityHeaders } from './headers';

/**
 * The built console as a set of files, and the answer to a request for one. Requests are matched against
 * the files that exist (never joined into a file system path), so no request can read anything else.
 */

export interface ConsoleFile {
  readonly contentType: string;
  readonly cacheControl: string;
  readonly body: Buffer;
}

export type ConsoleFiles = ReadonlyMap<string, ConsoleFile>;

/** Reads every file of a build directory, keyed by its path relative to it (`index.html`, `assets/x.js`). */
export const readConsoleFiles = (dir: string): ConsoleFiles => {
  const files = new Map<string, ConsoleFile>();
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else if (entry.isFile()) {
        const contentType = contentTypeOf(rel);
        if (!contentType) continue;
        files.set(rel, {
          contentType,
          cacheControl: cacheControlOf(rel),
          body: readFileSync(path.join(dir, rel)),
        });
      }
    }
  };
  walk('');
  if (!files.has('index.html')) throw new Error(`${dir} holds no built console (index.html is missing)`);
  return files;
};

export interface ConsoleResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string | Buffer;
}

/** A stage or base path (`/prod`) as it may appear in an asset URL; anything else is ignored. */
const BASE_PATH = /^(\/[A-Za-z0-9._~-]+)*$/;

/**
 * The answer to GET `<base>/ops<rest>`, where `rest` is what follows `/ops` in the path (`''`, `/`,
 * `/assets/index-abc.js`). The page is the same at `/ops` and `/ops/`: its asset URLs (relative in the
 * build) are made absolute under `base` (`''` locally, the stage `/prod` in API Gateway), so that they
 * resolve wherever the page is opened.
 */
export const consoleResponse = (
  files: ConsoleFiles,
  rest: string,
  options: PolicyOptions & { readonly requestId?: string; readonly basePath?: string } = {},
): ConsoleResponse => {
  const headers = securityHeaders(options);
  const relative = rest === '' || rest === '/' ? 'index.html' : rest.slice(1);
  const file = files.get(relative);
  if (!file) {
    return {
      statusCode: 404,
      headers: { ...headers, 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-cache' },
      body: JSON.stringify({
        type: 'urn:catalog-jobs:problem:not_found',
        title: 'Not found',
        status: 404,
        detail: `The console has no file ${CONSOLE_PATH}${rest.slice(0, 200)}.`,
        code: 'not_found',
        ...(options.requestId ? { request_id: options.requestId } : {}),
      }),
    };
  }
  let body: string | Buffer = file.body;
  if (relative === 'index.html') {
    const base = options.basePath && BASE_PATH.test(options.basePath) ? options.basePath : '';
    body = file.body.toString('utf8').replaceAll('="./', `="${base}${CONSOLE_PATH}/`);
  }
  return {
    statusCode: 200,
    headers: { ...headers, 'Content-Type': file.contentType, 'Cache-Control': file.cacheControl },
    body,
  };
};
