import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildOpenApiDocument, serializeOpenApiDocument } from '../openapi/document';
import type { StaticRoute } from './api-gateway';

/**
 * The API reference of the local runtime: `/openapi.json` (the document docs/openapi.json holds, built from
 * the running code) and `/docs`, a page rendered by Redoc. Redoc's standalone bundle is served from
 * node_modules under `/docs/assets/`, so the page needs no network.
 */

export const DOCS_PATHS = {
  page: '/docs',
  document: '/openapi.json',
  renderer: '/docs/assets/redoc.standalone.js',
} as const;

/** Resolved from the project (not from this file), so that it works under tsx, jest and plain node alike. */
const resolveFromProject = (specifier: string): string =>
  createRequire(path.join(process.cwd(), 'package.json')).resolve(specifier);

/** Redoc styles with inline styles (styled-components) and runs its search index in a blob: worker. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
].join('; ');

const page = (title: string): string => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <!-- Everything comes from this server: Redoc's footer logo (a remote image) is blocked. -->
    <meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
    <link rel="icon" href="data:,">
    <title>${title}</title>
    <style>body { margin: 0; padding: 0; }</style>
  </head>
  <body>
    <redoc spec-url="${DOCS_PATHS.document}" expand-responses="200,201"></redoc>
    <script src="${DOCS_PATHS.renderer}"></script>
  </body>
</html>
`;

/** Memoises a body: the document is built (and the bundle read) on first use, not at start-up. */
const once = (load: () => Promise<Buffer | string>): (() => Promise<Buffer | string>) => {
  let loaded: Promise<Buffer | string> | undefined;
  return () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
};

/** The static routes of the API reference, for startLocalRuntime's `staticRoutes`. */
export const docsRoutes = (): ReadonlyMap<string, StaticRoute> => {
  const document = once(async () => serializeOpenApiDocument(buildOpenApiDocument()));
  const html = once(async () => {
    const title = (JSON.parse(String(await document())) as { info: { title: string } }).info.title;
    return page(title);
  });
  const renderer = once(() => readFile(resolveFromProject('redoc/bundles/redoc.standalone.js')));
  // The policy also as a header (a <meta> policy cannot say frame-ancestors), no sniffing of any answer, and
  // no Referer from the page: the reference is read beside a signed delivery or upload URL now and then.
  const headers = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
  const htmlRoute: StaticRoute = {
    contentType: 'text/html; charset=utf-8',
    body: html,
    headers: {
      ...headers,
      'content-security-policy': `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
    },
  };
  return new Map<string, StaticRoute>([
    [DOCS_PATHS.page, htmlRoute],
    [`${DOCS_PATHS.page}/`, htmlRoute],
    [DOCS_PATHS.document, { contentType: 'application/json', body: document, headers }],
    [DOCS_PATHS.renderer, { contentType: 'text/javascript; charset=utf-8', body: renderer, headers }],
  ]);
};
